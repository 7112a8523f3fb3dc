import OrderedCollections

/// What an IR node produces in value position.
public enum IRValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  /// Epoch seconds.
  case timestamp(Double)
  /// Seconds.
  case duration(Double)
  case list([IRValue])
  case object(OrderedDictionary<String, Value>)

  public init(_ value: Value) {
    switch value {
    case .null: self = .null
    case .bool(let b): self = .bool(b)
    case .number(let n): self = .number(n)
    case .string(let s): self = .string(s)
    case .list(let l): self = .list(l.map(IRValue.init))
    case .object(let o): self = .object(o)
    }
  }

  /// Truthiness in boolean position: null false, a number or an instant other than 0, a
  /// non-empty string, list or object.
  public var isTruthy: Bool {
    switch self {
    case .null: false
    case .bool(let b): b
    case .number(let n), .timestamp(let n), .duration(let n): n != 0 && !n.isNaN
    case .string(let s): !s.isEmpty
    case .list(let l): !l.isEmpty
    case .object(let o): !o.isEmpty
    }
  }

  /// A number for numeric comparison: numbers, instants, durations and numeric strings.
  var numeric: Double? {
    switch self {
    case .number(let n), .timestamp(let n), .duration(let n): n
    case .string(let s): Value.parseDecimal(s)
    default: nil
    }
  }

  /// The string a comparison coerces to: strings, numbers (as JavaScript prints them), booleans.
  var coercedString: String? {
    switch self {
    case .string(let s): s
    case .number(let n): NumberFormatting.javaScriptString(n)
    case .bool(let b): b ? "true" : "false"
    default: nil
    }
  }

  /// The boolean a comparison coerces to: booleans, `true/yes/1`, `false/no/0`.
  var coercedBool: Bool? {
    switch self {
    case .bool(let b): return b
    case .number(let n): return n == 1 ? true : n == 0 ? false : nil
    case .string(let s):
      switch s.lowercased() {
      case "true", "yes", "1": return true
      case "false", "no", "0": return false
      default: return nil
      }
    default: return nil
    }
  }

  /// Seconds since the epoch, for date operators: a number, or an ISO-8601 string.
  var epochSeconds: Double? {
    switch self {
    case .number(let n), .timestamp(let n): n
    case .string(let s): CivilTime.instant(iso8601: s)?.fractionalSeconds
    default: nil
    }
  }

  /// The rendering in traces: `'x'`, `3`, `[1, 2]`, `@2026-01-01T00:00:00.000Z`, `90s`.
  public var description: String {
    switch self {
    case .null: "null"
    case .bool(let b): b ? "true" : "false"
    case .number(let n): NumberFormatting.javaScriptString(n)
    case .string(let s): Value.quoted(s)
    case .timestamp(let s): "@" + CivilTime.iso8601(milliseconds: CivilTime.milliseconds(seconds: s))
    case .duration(let s): NumberFormatting.javaScriptString(s) + "s"
    case .list(let l): "[" + l.map(\.description).joined(separator: ", ") + "]"
    case .object(let o): Value.object(o).description
    }
  }

  /// The value as an expression `Value` (instants and durations as their seconds).
  public var value: Value {
    switch self {
    case .null: .null
    case .bool(let b): .bool(b)
    case .number(let n), .timestamp(let n), .duration(let n): .number(n)
    case .string(let s): .string(s)
    case .list(let l): .list(l.map(\.value))
    case .object(let o): .object(o)
    }
  }
}

extension IRValue {
  /// `Compare`'s coercions, in order: both numeric → numbers; both string-coercible → strings;
  /// equality of two boolean-coercible values → booleans; a null on either side → `==` when both
  /// are null, `!=` when not both; anything else (two lists, objects) → false.
  static func compare(_ lhs: IRValue, _ op: CompareOperator, _ rhs: IRValue) -> Bool {
    switch op {
    case .in, .notIn:
      guard case .list(let items) = rhs else { return false }
      let member = items.contains { loosely(lhs, equals: $0) }
      return op == .in ? member : !member
    case .other:
      return false
    default:
      break
    }
    if let l = lhs.numeric, let r = rhs.numeric {
      guard !l.isNaN, !r.isNaN else { return op == .notEqual }
      return holds(op, l < r ? -1 : l > r ? 1 : 0)
    }
    if let l = lhs.coercedString, let r = rhs.coercedString {
      let order: Int =
        l.unicodeScalars.elementsEqual(r.unicodeScalars)
        ? 0 : l.unicodeScalars.lexicographicallyPrecedes(r.unicodeScalars) ? -1 : 1
      return holds(op, order)
    }
    if op == .equal || op == .notEqual, let l = lhs.coercedBool, let r = rhs.coercedBool {
      return (l == r) == (op == .equal)
    }
    if lhs == .null || rhs == .null {
      let both = lhs == .null && rhs == .null
      return op == .equal ? both : op == .notEqual ? !both : false
    }
    return false
  }

  /// Membership equality: by string coercion, then number, then boolean.
  static func loosely(_ lhs: IRValue, equals rhs: IRValue) -> Bool {
    if let l = lhs.coercedString, let r = rhs.coercedString, l.unicodeScalars.elementsEqual(r.unicodeScalars) {
      return true
    }
    if let l = lhs.numeric, let r = rhs.numeric { return l == r }
    if let l = lhs.coercedBool, let r = rhs.coercedBool { return l == r }
    return lhs == .null && rhs == .null
  }

  /// Whether `op` holds for an ordering (-1: left first, 0: equal, 1: right first).
  static func holds(_ op: CompareOperator, _ order: Int) -> Bool {
    switch op {
    case .equal: order == 0
    case .notEqual: order != 0
    case .greater: order > 0
    case .greaterOrEqual: order >= 0
    case .less: order < 0
    case .lessOrEqual: order <= 0
    default: false
    }
  }
}
