import FlowPattern

/// The operators of a structured condition `{"field", "op", "value"}` (flow-format §5).
public enum StructuredOperator: String, Hashable, Sendable, CaseIterable {
  /// `field == value` (membership when the field is a list).
  case equals
  /// `field != value`.
  case notEquals = "not_equals"
  /// `field contains value`.
  case contains
  /// `!(field contains value)`.
  case notContains = "not_contains"
  /// `field in value`.
  case `in`
  /// `!(field in value)`.
  case notIn = "not_in"
  /// `field > value`.
  case gt
  /// `field >= value`.
  case gte
  /// `field < value`.
  case lt
  /// `field <= value`.
  case lte
  /// Missing, null, `''`, `[]` or `{}`.
  case empty
  /// Not `empty`.
  case notEmpty = "not_empty"
  /// Present and not null.
  case isSet = "is_set"
  /// Missing or null.
  case notSet = "not_set"
  /// The field's text matches the regular expression `value` as a whole.
  case matches

  /// Whether the operator compares against a `value`.
  public var takesValue: Bool {
    switch self {
    case .empty, .notEmpty, .isSet, .notSet: false
    default: true
    }
  }
}

extension Condition {
  /// Builds `{"field": field, "op": op, "value": value}`; an unknown op or a missing value is
  /// an error whose message lists what is valid.
  ///
  /// `field` may be a dotted path (`$user.plan`). The rendering is `field op value`, e.g.
  /// `goal equals 'build'`, and the tree is the same one the text form would give
  /// (`not_in` is `!(field in value)`, `empty` and friends are ``Test`` nodes).
  /// `compiled`: the pattern of a `matches` condition when the caller compiled `value` already.
  public static func structured(
    field: String, op: String, value: Value?, compiled: Pattern? = nil
  )
    throws(ExpressionError) -> Condition
  {
    guard let structuredOperator = StructuredOperator(rawValue: op) else {
      let valid = StructuredOperator.allCases.map(\.rawValue).joined(separator: ", ")
      throw ExpressionError("unknown op '\(op)'; valid ops: \(valid)", offset: 0)
    }
    return try structured(field: field, op: structuredOperator, value: value, compiled: compiled)
  }

  /// Builds a structured condition from an already-validated operator.
  public static func structured(
    field: String, op: StructuredOperator, value: Value?, compiled: Pattern? = nil
  )
    throws(ExpressionError) -> Condition
  {
    let fieldNode = try fieldPath(field)
    var source = field + " " + op.rawValue
    let whole: SourceRange
    let expression: Expression
    if op.takesValue {
      guard let value else {
        throw ExpressionError("op '\(op.rawValue)' needs a 'value'", offset: 0)
      }
      // The pattern of `matches` is compiled once, here or by the caller, and kept in the tree.
      var valueKind = Expression.Kind.literal(value)
      if op == .matches {
        guard case .string(let source) = value else {
          throw ExpressionError(
            "op 'matches' needs a string pattern, not a \(value.typeName)", offset: 0)
        }
        guard let pattern = compiled ?? (try? Pattern(source)) else {
          throw ExpressionError(
            "invalid pattern \(Value.quoted(source)) for op 'matches'", offset: 0)
        }
        valueKind = .pattern(pattern)
      }
      source += " "
      let valueText = value.description
      let valueNode = Expression(
        valueKind, range: SourceRange(offset: source.utf8.count, length: valueText.utf8.count)
      )
      source += valueText
      whole = SourceRange(offset: 0, length: source.utf8.count)
      let binary: (BinaryOperator) -> Expression = {
        Expression(.binary($0, fieldNode, valueNode), range: whole)
      }
      let negated: (BinaryOperator) -> Expression = {
        Expression(.unary(.not, binary($0)), range: whole)
      }
      expression =
        switch op {
        case .equals: binary(.equal)
        case .notEquals: binary(.notEqual)
        case .contains: binary(.contains)
        case .notContains: negated(.contains)
        case .in: binary(.in)
        case .notIn: negated(.in)
        case .gt: binary(.greater)
        case .gte: binary(.greaterOrEqual)
        case .lt: binary(.less)
        case .lte: binary(.lessOrEqual)
        default: binary(.matches)
        }
    } else {
      whole = SourceRange(offset: 0, length: source.utf8.count)
      let test: Test =
        switch op {
        case .empty: .empty
        case .notEmpty: .notEmpty
        case .isSet: .isSet
        default: .notSet
        }
      expression = Expression(.test(test, fieldNode), range: whole)
    }
    return Condition(expression: expression, source: source, form: .structured)
  }

  /// `a.b.c` as name and member nodes whose ranges cover the field text.
  private static func fieldPath(_ field: String) throws(ExpressionError) -> Expression {
    // Split on the bytes: `String.split` walks characters, a tenth of loading the rule-heavy
    // bench flow's structured conditions.
    let bytes = Array(field.utf8)
    var node: Expression?
    var start = 0
    for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: ".") {
      guard end > start else {
        throw ExpressionError("invalid field name '\(field)'", offset: 0, length: bytes.count)
      }
      let part = String(decoding: bytes[start..<end], as: UTF8.self)
      let range = SourceRange(offset: 0, length: end)
      node = node.map { Expression(.member($0, part), range: range) } ?? Expression(.name(part), range: range)
      start = end + 1
    }
    return node!
  }
}
