/// Writes values as deterministic JSON text, compact or pretty.
///
/// The same value always gives the same bytes: object members are written in the order
/// given (or sorted by key with `sortKeys`), numbers use the shortest text that reads back
/// as the same `Double`, and strings are escaped the same way every time.
///
///     let text = JSONWriter.pretty.string(["id": "welcome", "steps": [1, 2]])
public struct JSONWriter: Sendable {
  /// A JSON value without source positions, built by code that writes data, events, reports.
  public indirect enum Value: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([Value])
    /// Members in the order they are written.
    case object([(key: String, value: Value)])

    public static func == (lhs: Value, rhs: Value) -> Bool {
      switch (lhs, rhs) {
      case (.null, .null): return true
      case (.bool(let a), .bool(let b)): return a == b
      case (.string(let a), .string(let b)): return a == b
      case (.array(let a), .array(let b)): return a == b
      case (.object(let a), .object(let b)):
        return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
      case (.int, .int), (.int, .double), (.double, .int), (.double, .double):
        return lhs.numberValue == rhs.numberValue
      default: return false
      }
    }

    var numberValue: Double? {
      switch self {
      case .int(let i): Double(i)
      case .double(let d): d
      default: nil
      }
    }

    /// An object whose members are sorted by key (for dictionaries, whose order is random).
    public static func sortedObject(_ dictionary: [String: Value]) -> Value {
      .object(dictionary.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
    }
  }

  public enum Style: Sendable, Hashable {
    /// No whitespace at all.
    case compact
    /// One member or element per line, indented by `indent` spaces; `"key": value`.
    case pretty
  }

  public var style: Style
  public var indent: Int
  /// Write object members sorted by key (byte order of their UTF-8) instead of as given.
  public var sortKeys: Bool
  /// Escape every non-ASCII character as `\uXXXX` (surrogate pairs above U+FFFF).
  public var escapeNonASCII: Bool

  public init(
    style: Style = .compact, indent: Int = 2, sortKeys: Bool = false, escapeNonASCII: Bool = false
  ) {
    self.style = style
    self.indent = indent
    self.sortKeys = sortKeys
    self.escapeNonASCII = escapeNonASCII
  }

  public static let compact = JSONWriter(style: .compact)
  public static let pretty = JSONWriter(style: .pretty)

  /// The JSON text of `value` (no trailing newline).
  public func string(_ value: Value) -> String {
    String(decoding: bytes(value), as: UTF8.self)
  }

  /// The UTF-8 JSON text of `value` (no trailing newline).
  public func bytes(_ value: Value) -> [UInt8] {
    var out = Output(writer: self)
    out.write(value, level: 0)
    return out.bytes
  }

  /// The JSON text of a parsed value (source positions are dropped).
  public func string(_ value: JSONValue) -> String {
    string(value.writerValue)
  }

  /// `text` as a JSON string literal, quotes included.
  public static func quoted(_ text: String, escapeNonASCII: Bool = false) -> String {
    var out = Output(writer: JSONWriter(escapeNonASCII: escapeNonASCII))
    out.writeString(text)
    return String(decoding: out.bytes, as: UTF8.self)
  }

  /// `text` as a JSON string literal, quotes included, appended to `bytes` (`quoted` without
  /// a `String` in between: `check --format json` writes its report as bytes).
  public static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
    var out = Output(writer: JSONWriter(escapeNonASCII: false), bytes: bytes)
    bytes = []  // `out` holds the only reference: its appends need no copy
    out.writeString(text)
    bytes = out.bytes
  }

  /// The JSON text of a number: integers without a fraction (`3`, `-0`), others in the
  /// shortest form that reads back exactly; `null` for NaN and infinities, which JSON lacks.
  public static func number(_ d: Double) -> String {
    guard d.isFinite else { return "null" }
    if d == d.rounded(.towardZero) && abs(d) < 9_007_199_254_740_992 {
      if d == 0 { return d.sign == .minus ? "-0" : "0" }
      return String(Int64(d))
    }
    return d.description
  }
}

extension JSONWriter.Value: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  public init(nilLiteral: ()) { self = .null }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(integerLiteral value: Int) { self = .int(value) }
  public init(floatLiteral value: Double) { self = .double(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(arrayLiteral elements: JSONWriter.Value...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSONWriter.Value)...) {
    self = .object(elements.map { (key: $0.0, value: $0.1) })
  }
}

extension JSONValue {
  /// This value without source positions, for writing or comparing.
  public var writerValue: JSONWriter.Value {
    switch kind {
    case .null: .null
    case .bool(let b): .bool(b)
    case .number(let d, let isInteger):
      if isInteger, d == d.rounded(.towardZero), abs(d) < 9_007_199_254_740_992, d != 0 || d.sign == .plus {
        .int(Int(d))
      } else {
        .double(d)
      }
    case .string(let s): .string(s)
    case .array(let a): .array(a.map(\.writerValue))
    case .object(let o): .object(o.members.map { (key: $0.key, value: $0.value.writerValue) })
    }
  }
}

private let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

private struct Output {
  let writer: JSONWriter
  var bytes: [UInt8] = []

  init(writer: JSONWriter) {
    self.writer = writer
    bytes.reserveCapacity(256)
  }

  /// Appends to `bytes`.
  init(writer: JSONWriter, bytes: [UInt8]) {
    self.writer = writer
    self.bytes = bytes
  }

  mutating func append(_ s: String) {
    bytes.append(contentsOf: s.utf8)
  }

  mutating func newline(_ level: Int) {
    bytes.append(0x0A)
    bytes.append(contentsOf: repeatElement(0x20, count: level * writer.indent))
  }

  mutating func write(_ value: JSONWriter.Value, level: Int) {
    let pretty = writer.style == .pretty
    switch value {
    case .null: append("null")
    case .bool(let b): append(b ? "true" : "false")
    case .int(let i): append(String(i))
    case .double(let d): append(JSONWriter.number(d))
    case .string(let s): writeString(s)
    case .array(let elements):
      if elements.isEmpty { return append("[]") }
      bytes.append(0x5B)
      for (i, element) in elements.enumerated() {
        if i > 0 { bytes.append(0x2C) }
        if pretty { newline(level + 1) }
        write(element, level: level + 1)
      }
      if pretty { newline(level) }
      bytes.append(0x5D)
    case .object(var members):
      if members.isEmpty { return append("{}") }
      if writer.sortKeys {
        members = members.enumerated().sorted {
          $0.element.key.utf8.lexicographicallyPrecedes($1.element.key.utf8)
            || ($0.element.key == $1.element.key && $0.offset < $1.offset)
        }.map(\.element)
      }
      bytes.append(0x7B)
      for (i, member) in members.enumerated() {
        if i > 0 { bytes.append(0x2C) }
        if pretty { newline(level + 1) }
        writeString(member.key)
        bytes.append(0x3A)
        if pretty { bytes.append(0x20) }
        write(member.value, level: level + 1)
      }
      if pretty { newline(level) }
      bytes.append(0x7D)
    }
  }

  mutating func writeUnicodeEscape(_ unit: UInt32) {
    bytes.append(contentsOf: [0x5C, 0x75])
    for shift in stride(from: 12, through: 0, by: -4) {
      bytes.append(hexDigits[Int((unit >> UInt32(shift)) & 0xF)])
    }
  }

  mutating func writeString(_ s: String) {
    bytes.append(0x22)
    if writer.escapeNonASCII {
      for scalar in s.unicodeScalars {
        let v = scalar.value
        if v < 0x80 {
          writeASCII(UInt8(v))
        } else if v < 0x10000 {
          writeUnicodeEscape(v)
        } else {
          let u = v - 0x10000
          writeUnicodeEscape(0xD800 + (u >> 10))
          writeUnicodeEscape(0xDC00 + (u & 0x3FF))
        }
      }
    } else {
      var s = s
      s.withUTF8 { utf8 in
        var runStart = 0
        var i = 0
        let n = utf8.count
        while i < n {
          let b = utf8[i]
          // U+2028 and U+2029 are escaped so the text can be embedded in JavaScript.
          let isLineSeparator = b == 0xE2 && i + 2 < n && utf8[i + 1] == 0x80 && (utf8[i + 2] & 0xFE) == 0xA8
          // DEL and the C1 controls too, so no JSON flowrun prints can drive a terminal.
          let isC1 = b == 0xC2 && i + 1 < n && utf8[i + 1] < 0xA0
          if b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F || isLineSeparator || isC1 {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
            if isLineSeparator {
              writeUnicodeEscape(utf8[i + 2] == 0xA8 ? 0x2028 : 0x2029)
              i += 3
            } else if isC1 {
              writeUnicodeEscape(UInt32(utf8[i + 1]))
              i += 2
            } else {
              writeASCII(b)
              i += 1
            }
            runStart = i
          } else {
            i += 1
          }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<n]))
      }
    }
    bytes.append(0x22)
  }

  mutating func writeASCII(_ b: UInt8) {
    switch b {
    case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
    case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
    case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
    case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
    case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
    case 0x08: bytes.append(contentsOf: [0x5C, 0x62])
    case 0x0C: bytes.append(contentsOf: [0x5C, 0x66])
    case 0..<0x20, 0x7F: writeUnicodeEscape(UInt32(b))
    default: bytes.append(b)
    }
  }
}
