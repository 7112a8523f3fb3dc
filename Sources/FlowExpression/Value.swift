// FlowExpression: values, the expression language and templates. See Package.swift for the layers.
import OrderedCollections

/// A runtime value: what collected data, context variables and expressions produce.
public enum Value: Hashable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case list([Value])
  case object(OrderedDictionary<String, Value>)
}

extension Value {
  /// Whether the value counts as true in a condition.
  ///
  /// Empty strings, lists and objects are false (unlike JavaScript) because an unanswered
  /// multi-select is collected as `[]` and should read as "not answered".
  public var isTruthy: Bool {
    switch self {
    case .null: false
    case .bool(let b): b
    case .number(let d): d != 0 && !d.isNaN
    case .string(let s): !s.isEmpty
    case .list(let l): !l.isEmpty
    case .object(let o): !o.isEmpty
    }
  }

  /// Whether the value is null, an empty string, an empty list or an empty object.
  public var isEmpty: Bool {
    switch self {
    case .null: true
    case .bool, .number: false
    case .string(let s): s.isEmpty
    case .list(let l): l.isEmpty
    case .object(let o): o.isEmpty
    }
  }

  /// The number this value stands for: a number, or a string holding a decimal number.
  ///
  /// Strings coerce because form inputs collect text; only plain decimal syntax is accepted
  /// (no hex, `inf` or `nan`), with surrounding spaces ignored as JavaScript's `Number()` does.
  public var numericValue: Double? {
    switch self {
    case .number(let d): d
    case .string(let s): Value.parseDecimal(s)
    default: nil
    }
  }

  /// The type name used in error messages.
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .number: "number"
    case .string: "string"
    case .list: "list"
    case .object: "object"
    }
  }

  /// The text a template shows for this value: strings as-is, numbers as JavaScript prints them.
  public var displayString: String {
    switch self {
    case .null: ""
    case .bool(let b): b ? "true" : "false"
    case .number(let d): NumberFormatting.javaScriptString(d)
    case .string(let s): s
    case .list(let l): l.map(\.displayString).joined(separator: ", ")
    case .object: description
    }
  }

  /// Parses plain decimal syntax: `[+-]digits[.digits][e[+-]digits]`, spaces trimmed.
  static func parseDecimal(_ text: String) -> Double? {
    let bytes = Array(text.utf8)
    var start = 0
    var end = bytes.count
    while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
    while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
    guard start < end else { return nil }
    var i = start
    func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    if bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
    var digits = 0
    while i < end, isDigit(bytes[i]) {
      i += 1
      digits += 1
    }
    if i < end, bytes[i] == 0x2E {
      i += 1
      while i < end, isDigit(bytes[i]) {
        i += 1
        digits += 1
      }
    }
    guard digits > 0 else { return nil }
    if i < end, bytes[i] == 0x65 || bytes[i] == 0x45 {
      i += 1
      if i < end, bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
      var expDigits = 0
      while i < end, isDigit(bytes[i]) {
        i += 1
        expDigits += 1
      }
      guard expDigits > 0 else { return nil }
    }
    guard i == end else { return nil }
    return Double(String(decoding: bytes[start..<end], as: UTF8.self))
  }
}

extension Value: CustomStringConvertible {
  /// A JSON-ish rendering for traces: `'build'`, `2`, `['a', 'b']`, `{'k': 1}`.
  public var description: String {
    switch self {
    case .null: "null"
    case .bool(let b): b ? "true" : "false"
    case .number(let d): NumberFormatting.javaScriptString(d)
    case .string(let s): Value.quoted(s)
    case .list(let l): "[" + l.map(\.description).joined(separator: ", ") + "]"
    case .object(let o):
      "{" + o.map { "\(Value.quoted($0.key)): \($0.value.description)" }.joined(separator: ", ")
        + "}"
    }
  }

  /// Single-quotes a string the way the expression lexer reads it back.
  static func quoted(_ s: String) -> String {
    // Nothing to escape (the usual case): no scalar-by-scalar rebuild.
    if !s.utf8.contains(where: { $0 == 0x27 || $0 == 0x5C || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }) {
      return "'" + s + "'"
    }
    var out = "'"
    for scalar in s.unicodeScalars {
      switch scalar {
      case "'": out += "\\'"
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "'"
  }
}

extension Value: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  /// `nil` is `.null`.
  public init(nilLiteral: ()) { self = .null }
  /// A boolean literal.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// An integer literal, stored as a number.
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  /// A floating-point literal.
  public init(floatLiteral value: Double) { self = .number(value) }
  /// A string literal.
  public init(stringLiteral value: String) { self = .string(value) }
  /// A list literal.
  public init(arrayLiteral elements: Value...) { self = .list(elements) }
  /// An object literal; keys keep their order.
  public init(dictionaryLiteral elements: (String, Value)...) {
    self = .object(OrderedDictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}
