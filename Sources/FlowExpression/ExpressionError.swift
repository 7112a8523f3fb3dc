/// A syntax error in an expression, condition or template, located in its source text.
public struct ExpressionError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The human-readable message, e.g. `expected ')' to close '(' at column 7`.
  public var message: String
  /// Where the problem was found, in UTF-8 bytes from the start of the source text.
  public var offset: Int
  /// The length of the offending text in UTF-8 bytes (0 at the end of input).
  public var length: Int

  /// Creates an error with a message and a location.
  public init(_ message: String, offset: Int, length: Int = 0) {
    self.message = message
    self.offset = offset
    self.length = length
  }

  /// The message.
  public var description: String { message }
}

/// Why evaluating an expression failed.
public enum EvaluationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A name (or a member path such as `$user.name`) has no value.
  case missingVariable(String)
  /// `/` or `%` with a zero divisor.
  case divisionByZero
  /// An operator or function got a value it cannot use.
  case typeMismatch(String)
  /// Matching a `matches` pattern reached the limits of `PatternLimits`: the condition is false.
  case patternTooComplex(String)

  /// A short message for traces: `missing variable 'age'`, `division by zero`.
  public var description: String {
    switch self {
    case .missingVariable(let name): "missing variable '\(name)'"
    case .divisionByZero: "division by zero"
    case .typeMismatch(let message): message
    case .patternTooComplex(let pattern): "pattern \(Value.quoted(pattern)) too complex to check"
    }
  }
}
