import FlowFormat

extension DiagnosticID {
  /// `script.*`: a replay script that cannot be read or run as written (`ScriptParser`,
  /// `Replayer`); a JSON script's syntax errors keep their `json.*` ids.
  public enum Script {
    public static let io = DiagnosticID(
      "script.io", .error,
      "the script cannot be read: missing, unreadable, a directory or a device, or over the size limit (Limits)")
    public static let empty = DiagnosticID("script.empty", .error, "the script is empty")
    public static let syntax = DiagnosticID("script.syntax", .error, "the YAML does not parse")
    public static let tooDeep = DiagnosticID(
      "script.too-deep", .error, "collections nested deeper than 512 levels, aliases expanded")
    public static let aliasExpansion = DiagnosticID(
      "script.alias-expansion", .error, "aliases that add more than 100,000 nodes in all")
    public static let unsupported = DiagnosticID(
      "script.unsupported", .error, "a YAML alias the composer left in place")
    public static let typeMismatch = DiagnosticID(
      "script.type-mismatch", .error, "a value of the wrong type, or a key that is not a plain string")
    public static let duplicateKey = DiagnosticID("script.duplicate-key", .error, "a key twice in one mapping")
    public static let unknownKey = DiagnosticID(
      "script.unknown-key", .error, "a key scripts do not have, with a \"did you mean\"")
    public static let missingKey = DiagnosticID(
      "script.missing-key", .error,
      "a required key is missing: `flow`, a result's `status`, a step's content, the input step of `expect_error`")
    public static let invalidValue = DiagnosticID(
      "script.invalid-value", .error,
      "a value outside what its key takes (`now`, `wait`, a result's status, a button number, an expected status)")
    public static let unknownStep = DiagnosticID("script.unknown-step", .error, "a step that is no step kind")
    public static let multipleActions = DiagnosticID(
      "script.multiple-actions", .error, "one step with two actions (`tap` and `fill`, …)")
    public static let unknownEvent = DiagnosticID(
      "script.unknown-event", .error, "an expected event type the engine never sends")
    public static let unknownVariant = DiagnosticID(
      "script.unknown-variant", .error, "`variants:` names an experiment or a variant the flow does not declare")
    public static let snapshotOutsideSuite = DiagnosticID(
      "script.snapshot-outside-suite", .error,
      "a `snapshot:` path outside the suite: absolute, climbing out with `..`, or through a symbolic link")

    public static let all = [
      io, empty, syntax, tooDeep, aliasExpansion, unsupported, typeMismatch, duplicateKey, unknownKey, missingKey,
      invalidValue, unknownStep, multipleActions, unknownEvent, unknownVariant, snapshotOutsideSuite,
    ]
  }
}
