/// A token of the expression language.
struct Token: Equatable {
  enum Kind: Equatable {
    case number(Double)
    case string(String)
    case identifier(String)
    /// Punctuation and operators.
    case symbol(Symbol)
    case end
  }

  /// Punctuation and operators, spelled as in the source.
  enum Symbol: String {
    case and = "&&", or = "||", equal = "==", notEqual = "!=", lessOrEqual = "<=", greaterOrEqual = ">="
    case openParenthesis = "(", closeParenthesis = ")", openBracket = "[", closeBracket = "]"
    case comma = ",", dot = ".", plus = "+", minus = "-", star = "*", slash = "/", percent = "%"
    case less = "<", greater = ">", bang = "!", pipe = "|", colon = ":"
  }

  /// The identifiers the grammar gives a meaning.
  enum Keyword {
    case and, or, not, `in`, contains, `true`, `false`, null
  }

  var kind: Kind
  var range: SourceRange
  /// The keyword an identifier spells, found once here rather than compared at every rule.
  var keyword: Keyword?

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
    case .identifier(let s): s
    case .symbol(let symbol): symbol.rawValue
    case .end: ""
    }
  }
}

/// Splits expression text into tokens, working on UTF-8 bytes so ranges are byte offsets.
struct Lexer {
  let bytes: [UInt8]

  init(_ source: String) {
    self.bytes = Array(source.utf8)
  }

  /// A lexer of UTF-8 text already in bytes (a template's braces, without copying via `String`).
  init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The 1-based column of a byte offset, counted in characters for messages.
  func column(of offset: Int) -> Int {
    let clamped = Swift.max(0, Swift.min(offset, bytes.count))
    return String(decoding: bytes[0..<clamped], as: UTF8.self).count + 1
  }

  /// The symbol at `offset`, longest first so `<=` wins over `<`. A switch on the byte, not a
  /// search of a table: every template of a flow is compiled when it loads.
  private func symbol(at offset: Int) -> Token.Symbol? {
    let next = offset + 1 < bytes.count ? bytes[offset + 1] : 0
    switch bytes[offset] {
    case UInt8(ascii: "&"): return next == UInt8(ascii: "&") ? .and : nil
    case UInt8(ascii: "|"): return next == UInt8(ascii: "|") ? .or : .pipe
    case UInt8(ascii: "="): return next == UInt8(ascii: "=") ? .equal : nil
    case UInt8(ascii: "!"): return next == UInt8(ascii: "=") ? .notEqual : .bang
    case UInt8(ascii: "<"): return next == UInt8(ascii: "=") ? .lessOrEqual : .less
    case UInt8(ascii: ">"): return next == UInt8(ascii: "=") ? .greaterOrEqual : .greater
    case UInt8(ascii: "("): return .openParenthesis
    case UInt8(ascii: ")"): return .closeParenthesis
    case UInt8(ascii: "["): return .openBracket
    case UInt8(ascii: "]"): return .closeBracket
    case UInt8(ascii: ","): return .comma
    case UInt8(ascii: "."): return .dot
    case UInt8(ascii: "+"): return .plus
    case UInt8(ascii: "-"): return .minus
    case UInt8(ascii: "*"): return .star
    case UInt8(ascii: "/"): return .slash
    case UInt8(ascii: "%"): return .percent
    case UInt8(ascii: ":"): return .colon
    default: return nil
    }
  }

  /// The keyword the identifier `bytes[range]` spells, if any.
  private func keyword(_ range: Range<Int>) -> Token.Keyword? { Lexer.keyword(bytes[range]) }

  /// The keyword the identifier `word` spells, if any.
  static func keyword(_ word: ArraySlice<UInt8>) -> Token.Keyword? {
    func spells(_ text: StaticString) -> Bool {
      text.utf8CodeUnitCount == word.count
        && text.withUTF8Buffer { $0.elementsEqual(word) }
    }
    switch word.count {
    case 2: return spells("or") ? .or : spells("in") ? .in : nil
    case 3: return spells("and") ? .and : spells("not") ? .not : nil
    case 4: return spells("true") ? .true : spells("null") ? .null : nil
    case 5: return spells("false") ? .false : nil
    case 8: return spells("contains") ? .contains : nil
    default: return nil
    }
  }

  func tokenize() throws(ExpressionError) -> [Token] {
    var tokens: [Token] = []
    // Room for the usual token count up front (a token takes two bytes or more with its
    // spacing), capped so a huge expression does not reserve far more than it needs.
    tokens.reserveCapacity(Swift.min(bytes.count / 2 + 2, 1_024))
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
          Token(
            kind: .identifier(text), range: SourceRange(offset: start, length: i - start), keyword: keyword(start..<i)))
      } else if let symbol = symbol(at: i) {
        let length = symbol.rawValue.utf8.count
        i += length
        tokens.append(Token(kind: .symbol(symbol), range: SourceRange(offset: start, length: length)))
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
