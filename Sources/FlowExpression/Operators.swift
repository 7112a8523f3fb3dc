import FlowPattern
import OrderedCollections

/// The semantics of binary operators and structured tests; nil operands mean "missing".
@usableFromInline enum Operators {
  @usableFromInline static func apply(
    _ op: BinaryOperator, _ lhs: Value?, _ rhs: Value?
  ) throws(EvaluationError)
    -> Value?
  {
    switch op {
    case .equal: return .bool(equalsMissingAware(lhs, rhs))
    case .notEqual: return .bool(!equalsMissingAware(lhs, rhs))
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      guard let lhs, let rhs, let order = try compare(lhs, rhs) else { return .bool(false) }
      switch op {
      case .less: return .bool(order < 0)
      case .lessOrEqual: return .bool(order <= 0)
      case .greater: return .bool(order > 0)
      default: return .bool(order >= 0)
      }
    case .in:
      guard let lhs, let rhs else { return .bool(false) }
      return .bool(try contains(rhs, lhs))
    case .contains:
      guard let lhs, let rhs else { return .bool(false) }
      return .bool(try contains(lhs, rhs))
    case .matches:
      // The evaluator matches `field matches <pattern>` itself; only a hand-built tree with
      // another right side gets here.
      guard let rhs else { return .bool(false) }
      throw .typeMismatch("'matches' needs a pattern compiled with its condition, not a \(rhs.typeName)")
    case .add, .subtract, .multiply, .divide, .remainder:
      guard let lhs, let rhs else { return nil }
      return try arithmetic(op, lhs, rhs)
    case .and, .or:
      // Only reached for eagerly evaluated operands; the evaluator short-circuits these itself.
      let (l, r) = (lhs?.isTruthy ?? false, rhs?.isTruthy ?? false)
      return .bool(op == .and ? l && r : l || r)
    }
  }

  /// `==` with a missing side: equal only to `null` (so `x == null` holds for an unset `x`).
  static func equalsMissingAware(_ lhs: Value?, _ rhs: Value?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): true
    case (nil, let other?), (let other?, nil): other == .null
    case (let a?, let b?): looselyEquals(a, b)
    }
  }

  /// Equality with numeric-string coercion; a list compared with a scalar means membership.
  static func looselyEquals(_ a: Value, _ b: Value) -> Bool {
    switch (a, b) {
    case (.number(let x), .number(let y)): return x == y
    case (.number(let x), .string), (.string, .number(let x)):
      let other = if case .string = a { a } else { b }
      return other.numericValue == x
    case (.list(let xs), .list(let ys)):
      return xs.count == ys.count && zip(xs, ys).allSatisfy { looselyEquals($0, $1) }
    case (.list(let xs), _): return xs.contains { looselyEquals($0, b) }
    case (_, .list(let ys)): return ys.contains { looselyEquals(a, $0) }
    case (.object(let x), .object(let y)):
      return x.count == y.count
        && x.allSatisfy { key, value in y[key].map { looselyEquals(value, $0) } ?? false }
    default: return a == b
    }
  }

  /// -1, 0 or 1; nil when unordered (NaN). Numbers and numeric strings compare as numbers.
  static func compare(_ a: Value, _ b: Value) throws(EvaluationError) -> Int? {
    if let x = a.numericValue, let y = b.numericValue {
      if x.isNaN || y.isNaN { return nil }
      return x < y ? -1 : x > y ? 1 : 0
    }
    if case .string(let x) = a, case .string(let y) = b {
      return x < y ? -1 : x > y ? 1 : 0
    }
    throw .typeMismatch("cannot compare a \(a.typeName) with a \(b.typeName)")
  }

  /// `container contains element`: list membership, substring, or object key.
  ///
  /// A list element against a list container means "any of them" so that a multi-select
  /// answer `['a', 'x']` is `in ['a', 'b']`.
  static func contains(_ container: Value, _ element: Value) throws(EvaluationError) -> Bool {
    switch (container, element) {
    case (.list(let items), .list(let wanted)):
      return wanted.contains { w in items.contains { looselyEquals($0, w) } }
    case (.list(let items), _):
      return items.contains { looselyEquals($0, element) }
    case (.string(let s), .string), (.string(let s), .number):
      let needle = element.displayString
      return needle.isEmpty || s.contains(needle)
    case (.object(let object), .string(let key)):
      return object[key] != nil
    default:
      throw .typeMismatch("cannot look for a \(element.typeName) in a \(container.typeName)")
    }
  }

  /// Whole-string match of the value's display text; reaching the pattern's limits is an error
  /// (the condition is false and its trace says why).
  @usableFromInline static func matches(_ value: Value, _ pattern: Pattern) throws(EvaluationError) -> Bool {
    switch pattern.match(value.displayString) {
    case .matched: return true
    case .notMatched: return false
    case .tooComplex: throw .patternTooComplex(pattern.source)
    }
  }

  static func arithmetic(
    _ op: BinaryOperator, _ a: Value, _ b: Value
  ) throws(EvaluationError)
    -> Value
  {
    if op == .add {
      switch (a, b) {
      case (.string, _), (_, .string): return .string(a.displayString + b.displayString)
      case (.list(let x), .list(let y)): return .list(x + y)
      default: break
      }
    }
    guard let x = a.numericValue, let y = b.numericValue else {
      throw .typeMismatch("cannot apply '\(op.rawValue)' to a \(a.typeName) and a \(b.typeName)")
    }
    switch op {
    case .add: return .number(x + y)
    case .subtract: return .number(x - y)
    case .multiply: return .number(x * y)
    case .divide:
      guard y != 0 else { throw .divisionByZero }
      return .number(x / y)
    default:
      guard y != 0 else { throw .divisionByZero }
      return .number(x.truncatingRemainder(dividingBy: y))
    }
  }

  @usableFromInline static func test(_ test: Test, _ value: Value?) -> Bool {
    switch test {
    case .empty: value?.isEmpty ?? true
    case .notEmpty: !(value?.isEmpty ?? true)
    case .isSet: value != nil && value != .null
    case .notSet: value == nil || value == .null
    }
  }
}
