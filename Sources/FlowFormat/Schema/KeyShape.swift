import FlowExpression

/// What a key of a flow document holds, as the loader reads it: the schema generator turns it
/// into JSON Schema. Optional scalars accept `null` (the loader reads null as absent).
indirect enum KeyShape: Sendable {
  case string
  /// Template text: `{expression}` inside is replaced when shown.
  case text
  case boolean
  /// A boolean, or the string "true" or "false" in any case (AppDNA's sanitized booleans).
  case flag
  case number(ClosedRange<Double>? = nil)
  case integer(ClosedRange<Double>? = nil)
  /// A string with known values; another value loads with a warning, so it is not refused.
  case known([String])
  /// An object described by the definition of that name.
  case object(String)
  case array(KeyShape, minItems: Int = 0)
  /// A condition: an expression string or a structured `{field, op, value}` object.
  case condition
  case anyOf([KeyShape])
  /// Any JSON value.
  case any
}

/// One key's shape and what it means (the schema's `description`, shown by editors).
struct KeyDoc: Sendable {
  var shape: KeyShape
  var summary: String

  init(_ shape: KeyShape, _ summary: String) {
    self.shape = shape
    self.summary = summary
  }
}

/// One object kind of a dialect: its keys are those of the loader's key table (`known`), so a
/// key the loader learns appears in the schema; `docs` gives the shape of the keys flowrun
/// reads (every other known key is accepted as it is, like the loader does).
struct ObjectDoc: Sendable {
  var name: String
  var summary: String
  var known: KeySet
  var docs: [String: KeyDoc]
  var required: [String] = []
  /// Keys required when another key has one of some values: an action of type `custom`
  /// needs `identifier`.
  var requiredWhen: [RequiredWhen] = []
}

/// `required` when `key` is one of `values`.
struct RequiredWhen: Sendable {
  var key: String
  var values: [String]
  var required: [String]
}

extension KeyShape {
  /// A range of whole numbers as the schema's bounds.
  static func whole(_ range: ClosedRange<Int>) -> ClosedRange<Double> {
    Double(range.lowerBound)...Double(range.upperBound)
  }

  static let magnitudes: ClosedRange<Double> = -Limits.magnitude...Limits.magnitude
  static let counts = whole(Limits.count)
  static let durations: ClosedRange<Double> =
    Double(Limits.durationMs.lowerBound)...Double(Limits.durationMs.upperBound)
}
