extension DiagnosticID {
  /// `campaign.*`: a campaigns payload, a profile or a timeline that is not valid
  /// (`CampaignLoader`; docs/dialects/nuxie.md).
  public enum Campaign {
    public static let prefix = "campaign."

    public static let notCampaigns = DiagnosticID(
      "campaign.not-campaigns", .error, "the JSON has no `campaigns` array (not a Nuxie campaigns payload)")
    public static let duplicateID = DiagnosticID(
      "campaign.duplicate-id", .error, "two campaigns (or two segments) share an id")
    public static let unknownTrigger = DiagnosticID(
      "campaign.unknown-trigger", .error, "a trigger whose `type` is neither `event` nor `segment`")
    public static let badReentry = DiagnosticID(
      "campaign.bad-reentry", .error, "a reentry policy flowrun does not know, or a window in an unknown unit")
    public static let zeroReentryWindow = DiagnosticID(
      "campaign.zero-reentry-window", .error, "a `once_per_window` reentry with a window of zero")
    public static let negativeDuration = DiagnosticID(
      "campaign.negative-duration", .error, "a negative delay, window or time limit")
    public static let malformedTime = DiagnosticID(
      "campaign.malformed-time", .error, "a time of day that is not `HH:MM` (00:00–23:59): `9:30`, `24:00`")
    public static let minAboveMax = DiagnosticID(
      "campaign.min-above-max", .error, "a minimum above its maximum, so the condition never holds")
    public static let badGoal = DiagnosticID(
      "campaign.bad-goal", .error, "a goal of an unknown kind, or without what its kind needs")
    public static let badCondition = DiagnosticID(
      "campaign.bad-condition", .error, "an IR condition node without what its type needs")
    public static let unknownCondition = DiagnosticID(
      "campaign.unknown-condition", .warning,
      "an IR node type or operator flowrun does not know: it evaluates to unknown (fails closed)")
    public static let engineMin = DiagnosticID(
      "campaign.engine-min", .warning, "an IR envelope whose `engine_min` is above 1: never evaluated")
    public static let unknownFlow = DiagnosticID(
      "campaign.unknown-flow", .error, "a campaign's `flowId` names no flow of the payload or of `--flows`")
    public static let unknownSegment = DiagnosticID(
      "campaign.unknown-segment", .warning, "a condition names a segment the payload does not define")
    public static let unknownValue = DiagnosticID(
      "campaign.unknown-value", .warning, "an unknown exit policy, conversion anchor or time zone; the default is used")
    public static let badProfile = DiagnosticID(
      "campaign.bad-profile", .error,
      "a profile value of the wrong shape (a membership without `segmentId`, a bad time)")
    public static let badTimeline = DiagnosticID(
      "campaign.bad-timeline", .error,
      "a timeline line that is not a JSON object with `event` and an ISO-8601 `timestamp`")
    public static let timelineOrder = DiagnosticID(
      "campaign.timeline-order", .error, "a timeline line earlier than the line before it")

    public static let all = [
      notCampaigns, duplicateID, unknownTrigger, badReentry, zeroReentryWindow, negativeDuration, malformedTime,
      minAboveMax, badGoal, badCondition, unknownCondition, engineMin, unknownFlow, unknownSegment, unknownValue,
      badProfile, badTimeline, timelineOrder,
    ]
  }
}
