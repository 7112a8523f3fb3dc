/// A token of the expression language.
struct Token: Equatable {
  enum Kind: Equatable {
    case number(Double)
    case string(String)
    case identifier(String)
    /// Punctuation and operators, spelled as in the source (`(`, `&&`, `|`, ...).
    case symbol(String)
    case end
  }

  var kind: Kind
  var range: SourceRange

  /// The token as quoted in error messages.
  var quoted: String {
    switch kind {
    case .number, .string, .identifier, .symbol: "'\(spelling)'"
    case .end: "end of expression"
    }
  }

  var spelling: String {
    switch kind {
    case .number(let d): NumberFormatting.javaScriptString(d)
    case .string(let s): Value.quoted(s)
    case .identifier(let s), .symbol(let s): s
    case .end: ""
    }
  }
}

/// Splits expression text into tokens, working on UTF-8 bytes so ranges are byte offsets.
struct Lexer {
  let bytes: [UInt8]
  let source: String

  init(_ source: String) {
    self.source = source
    self.bytes = Array(source.utf8)
  }

  /// The 1-based column of a byte offset, counted in characters for messages.
  func column(of offset: Int) -> Int {
    let clamped = Swift.max(0, Swift.min(offset, bytes.count))
    return String(decoding: bytes[0..<clamped], as: UTF8.self).count + 1
  }

  // Longest symbols first so `<=` wins over `<`.
  private static let symbols: [[UInt8]] = [
    "&&", "||", "==", "!=", "<=", ">=",
    "(", ")", "[", "]", ",", ".", "+", "-", "*", "/", "%", "<", ">", "!", "|", ":",
  ].map { Array($0.utf8) }

  func tokenize() throws(ExpressionError) -> [Token] {
    var tokens: [Token] = []
    var i = 0
    while true {
      while i < bytes.count,
        bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A
          || bytes[i] == 0x0D
      {
        i += 1
      }
      guard i < bytes.count else {
        tokens.append(Token(kind: .end, range: SourceRange(offset: i, length: 0)))
        return tokens
      }
      let start = i
      let byte = bytes[i]
      if Lexer.isDigit(byte) {
        i = scanNumber(from: i)
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let value = Double(text) else {
          throw ExpressionError(
            "invalid number '\(text)' at column \(column(of: start))", offset: start,
            length: i - start)
        }
        tokens.append(
          Token(kind: .number(value), range: SourceRange(offset: start, length: i - start)))
      } else if byte == 0x27 || byte == 0x22 {
        let (text, next) = try scanString(from: i)
        i = next
        tokens.append(
          Token(kind: .string(text), range: SourceRange(offset: start, length: i - start)))
      } else if Lexer.isIdentifierStart(byte) {
        i += 1
        while i < bytes.count, Lexer.isIdentifierPart(bytes[i]) { i += 1 }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        tokens.append(
          Token(kind: .identifier(text), range: SourceRange(offset: start, length: i - start)))
      } else if let symbol = Lexer.symbols.first(where: { matches($0, at: i) }) {
        i += symbol.count
        tokens.append(
          Token(
            kind: .symbol(String(decoding: symbol, as: UTF8.self)),
            range: SourceRange(offset: start, length: symbol.count)))
      } else {
        let scalarLength = Lexer.scalarLength(startingWith: byte)
        let end = Swift.min(bytes.count, start + scalarLength)
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        throw ExpressionError(
          "unexpected character '\(text)' at column \(column(of: start))", offset: start,
          length: end - start)
      }
    }
  }

  private func matches(_ symbol: [UInt8], at offset: Int) -> Bool {
    guard offset + symbol.count <= bytes.count else { return false }
    for (k, b) in symbol.enumerated() where bytes[offset + k] != b { return false }
    return true
  }

  /// `digits[.digits][e[+-]digits]`; a `.` not followed by a digit is member access.
  private func scanNumber(from start: Int) -> Int {
    var i = start
    while i < bytes.count, Lexer.isDigit(bytes[i]) { i += 1 }
    if i + 1 < bytes.count, bytes[i] == 0x2E, Lexer.isDigit(bytes[i + 1]) {
      i += 1
      while i < bytes.count, Lexer.isDigit(bytes[i]) { i += 1 }
    }
    if i < bytes.count, bytes[i] == 0x65 || bytes[i] == 0x45 {
      var j = i + 1
      if j < bytes.count, bytes[j] == 0x2B || bytes[j] == 0x2D { j += 1 }
      if j < bytes.count, Lexer.isDigit(bytes[j]) {
        while j < bytes.count, Lexer.isDigit(bytes[j]) { j += 1 }
        i = j
      }
    }
    return i
  }

  private func scanString(from start: Int) throws(ExpressionError) -> (String, Int) {
    let quote = bytes[start]
    var out: [UInt8] = []
    var i = start + 1
    while i < bytes.count {
      let b = bytes[i]
      if b == quote { return (String(decoding: out, as: UTF8.self), i + 1) }
      if b == 0x5C {  // backslash
        guard i + 1 < bytes.count else { break }
        let escaped = bytes[i + 1]
        switch escaped {
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "u"):
          // \uXXXX: exactly four hex digits.
          guard i + 6 <= bytes.count,
            let code = UInt32(String(decoding: bytes[(i + 2)..<(i + 6)], as: UTF8.self), radix: 16),
            let scalar = Unicode.Scalar(code)
          else {
            throw ExpressionError(
              "invalid \\u escape at column \(column(of: i))", offset: i, length: 2)
          }
          out.append(contentsOf: Array(String(Character(scalar)).utf8))
          i += 6
          continue
        default: out.append(escaped)  // \' \" \\ and any other character stand for themselves
        }
        i += 2
        continue
      }
      out.append(b)
      i += 1
    }
    throw ExpressionError(
      "unterminated string starting at column \(column(of: start))", offset: start,
      length: bytes.count - start)
  }

  static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

  static func isIdentifierStart(_ b: UInt8) -> Bool {
    (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x24 || b >= 0x80
  }

  static func isIdentifierPart(_ b: UInt8) -> Bool {
    isIdentifierStart(b) && b != 0x24 || isDigit(b)
  }

  static func scalarLength(startingWith b: UInt8) -> Int {
    switch b {
    case 0xF0...: 4
    case 0xE0...: 3
    case 0xC0...: 2
    default: 1
    }
  }
}
