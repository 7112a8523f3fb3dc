extension DiagnosticID {
  /// `model.*`: a behaviour model of `flowrun simulate --model` (docs/simulate.md). Catalogued
  /// here, with the loader's ids, so that docs/loading.md's generated table lists them.
  public enum Model {
    public static let prefix = "model."

    public static let syntax = DiagnosticID("model.syntax", .error, "the model's YAML does not parse")
    public static let typeMismatch = DiagnosticID(
      "model.type-mismatch", .error, "a value of the wrong kind (a list where a number belongs)")
    public static let unknownKey = DiagnosticID("model.unknown-key", .error, "a key the model format does not have")
    public static let invalidValue = DiagnosticID(
      "model.invalid-value", .error,
      "a value out of its range: a probability outside 0 to 1, a negative weight, weights that are all 0")
    public static let unknownName = DiagnosticID(
      "model.unknown-name", .warning, "a screen, field or action the flow does not have (the entry is never used)")
    public static let unknownVariant = DiagnosticID(
      "model.unknown-variant", .error, "a forced split over an experiment or variant the flow does not declare")

    public static let all = [syntax, typeMismatch, unknownKey, invalidValue, unknownName, unknownVariant]
  }
}
