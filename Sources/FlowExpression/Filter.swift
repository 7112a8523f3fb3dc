/// A template filter: `| name` or `| name: argument`.
public struct Filter: Hashable, Sendable {
  /// The filters flow-format §6.2 defines.
  public enum Name: String, Hashable, Sendable, CaseIterable {
    /// en-US grouping, at most 3 fraction digits.
    case number
    /// `round` / `round: n`: half away from zero to n decimals (default 0).
    case round
    /// Upper-cases the text.
    case upper
    /// Lower-cases the text.
    case lower
    /// Upper-cases the first character.
    case capitalize
    /// `default: x`: replaces a missing, null or empty value.
    case `default`
    /// `join` / `join: sep`: joins a list (default separator `", "`).
    case join
  }

  /// Which filter.
  public var name: Name
  /// The argument expression after `:`, if any.
  public var argument: Expression?

  /// Creates a filter.
  public init(name: Name, argument: Expression? = nil) {
    self.name = name
    self.argument = argument
  }

  /// Checks the name and the argument count of a parsed `| name: arg`.
  static func make(_ raw: Parser.RawFilter, column: (Int) -> Int) throws(ExpressionError) -> Filter {
    guard let name = Name(rawValue: raw.name) else {
      let known = Name.allCases.map(\.rawValue).joined(separator: ", ")
      throw ExpressionError(
        "unknown filter '\(raw.name)' at column \(column(raw.nameRange.offset)) (known: \(known))",
        offset: raw.nameRange.offset, length: raw.nameRange.length)
    }
    if name == .default && raw.argument == nil {
      throw ExpressionError(
        "filter 'default' needs an argument ('default: x') at column \(column(raw.nameRange.offset))",
        offset: raw.nameRange.offset, length: raw.nameRange.length)
    }
    if [.number, .upper, .lower, .capitalize].contains(name) && raw.argument != nil {
      throw ExpressionError(
        "filter '\(name.rawValue)' takes no argument at column \(column(raw.nameRange.offset))",
        offset: raw.nameRange.offset, length: raw.nameRange.length)
    }
    return Filter(name: name, argument: raw.argument)
  }

  /// Applies the filter; nil means "missing" and passes through everything but `default`.
  func apply(
    to value: Value?, in environment: some ExpressionEnvironment
  ) throws(EvaluationError)
    -> Value?
  {
    let argument = try self.argument.map { (e: Expression) throws(EvaluationError) in
      try e.evaluate(in: environment)
    }
    if name == .default {
      guard let value, !value.isEmpty else { return argument }
      return value
    }
    guard let value else { return nil }
    switch name {
    case .number:
      guard let number = value.numericValue else {
        throw .typeMismatch("filter 'number' needs a number, not a \(value.typeName)")
      }
      return .string(NumberFormatting.grouped(number))
    case .round:
      guard let number = value.numericValue else {
        throw .typeMismatch("filter 'round' needs a number, not a \(value.typeName)")
      }
      let digits = argument?.numericValue ?? 0
      return .number(
        NumberFormatting.round(number, fractionDigits: NumberFormatting.digitCount(digits)))
    case .upper: return .string(value.displayString.uppercased())
    case .lower: return .string(value.displayString.lowercased())
    case .capitalize:
      let text = value.displayString
      guard let first = text.first else { return .string(text) }
      return .string(first.uppercased() + text.dropFirst())
    case .join:
      guard case .list(let items) = value else { return value }
      let separator = argument?.displayString ?? ", "
      return .string(items.map(\.displayString).joined(separator: separator))
    case .default:
      return value
    }
  }
}
