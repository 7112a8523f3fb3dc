extension DiagnosticID {
  /// `nuxie.*`: what the Nuxie flow compiler tolerates as the SDK does, or cannot run yet
  /// (docs/dialects/nuxie.md).
  public enum Nuxie {
    public static let prefix = "nuxie."

    public static let notRunYet = DiagnosticID(
      "nuxie.not-run-yet", .warning,
      "a Nuxie action or value flowrun loads but does not run yet (delays, time windows, value references, …)")
    public static let unknownTrigger = DiagnosticID(
      "nuxie.unknown-trigger", .warning, "an interaction trigger type the SDK does not know: it never runs")

    public static let dayOutOfRange = DiagnosticID(
      "nuxie.day-out-of-range", .warning, "a time window's day outside 1 (Sunday) to 7 (Saturday): ignored")
    public static let tooDeep = DiagnosticID(
      "nuxie.too-deep", .error,
      "purchases and restores leading to each other too deep, or more than 100 waits and purchases in one list")

    public static let duplicateID = DiagnosticID(
      "nuxie.duplicate-id", .error, "two steps of a leg share an id, or two routes the same host and event")
    public static let danglingOutlet = DiagnosticID(
      "nuxie.dangling-outlet", .error, "an outlet, a route or `entryStepId` names a step the leg does not have")
    public static let serverOnly = DiagnosticID(
      "nuxie.server-only-action", .error,
      "an action that runs on the server (grant_entitlement, handoff, …) in a device leg")
    public static let unknownCondition = DiagnosticID(
      "nuxie.unknown-condition", .error, "a JourneyCondition type a leg may not hold (it would be unknown at run time)")

    public static let tooManyControls = DiagnosticID(
      "nuxie.too-many-controls", .error,
      "a RemoteFlow without `components` whose component hosts on every screen make more than 10,000 controls")

    public static let all = [
      notRunYet, unknownTrigger, dayOutOfRange, tooDeep, duplicateID, danglingOutlet, serverOnly, unknownCondition,
      tooManyControls,
    ]
  }
}
