import FlowFormat
import FlowGenerator
import Testing

@Suite struct JSONParserPositionTests {
  /// `{"é": "ü", "k": [1, "😀", true]}`: columns count scalars, offsets count bytes.
  @Test func positionsAfterMultiByteCharacters() throws {
    let (value, diagnostics) = parse(#"{"é": "ü", "k": [1, "😀", true]}"#)
    #expect(diagnostics.isEmpty)
    let object = try #require(value?.objectValue)
    #expect(value?.location == Location(line: 1, column: 1, offset: 0))
    #expect(object.members[0].keyLocation == Location(line: 1, column: 2, offset: 1))
    #expect(object.members[0].value.location == Location(line: 1, column: 7, offset: 7))
    #expect(object.members[1].keyLocation == Location(line: 1, column: 12, offset: 13))
    let array = try #require(object["k"]?.arrayValue)
    #expect(object["k"]?.location == Location(line: 1, column: 17, offset: 18))
    #expect(
      array.map(\.location) == [
        Location(line: 1, column: 18, offset: 19),
        Location(line: 1, column: 21, offset: 22),
        Location(line: 1, column: 26, offset: 30),
      ])
  }

  struct LineCase: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    /// Locations of the array's elements.
    var expected: [Location]
    var testDescription: String { name }
  }

  @Test(arguments: [
    LineCase(
      name: "LF", text: "[\n1,\n\n  2]",
      expected: [.init(line: 2, column: 1, offset: 2), .init(line: 4, column: 3, offset: 8)]),
    LineCase(
      name: "CRLF", text: "[\r\n1,\r\n\r\n  2]",
      expected: [.init(line: 2, column: 1, offset: 3), .init(line: 4, column: 3, offset: 11)]),
    LineCase(
      name: "lone CR", text: "[\r1,\r2]",
      expected: [.init(line: 2, column: 1, offset: 2), .init(line: 3, column: 1, offset: 5)]),
    LineCase(
      name: "multi-byte on an earlier line", text: "[\"日本\",\n 2]",
      expected: [.init(line: 1, column: 2, offset: 1), .init(line: 2, column: 2, offset: 12)]),
    LineCase(
      name: "tab is one column", text: "[\t1,\t\"é\",\t3]",
      expected: [
        .init(line: 1, column: 3, offset: 2), .init(line: 1, column: 6, offset: 5),
        .init(line: 1, column: 11, offset: 11),
      ]),
    LineCase(
      name: "byte order mark", text: "\u{FEFF}[1,\n2]",
      expected: [.init(line: 1, column: 2, offset: 4), .init(line: 2, column: 1, offset: 7)]),
  ])
  func lineBreaks(_ c: LineCase) throws {
    let (value, diagnostics) = parse(c.text)
    #expect(diagnostics.isEmpty)
    let array = try #require(value?.arrayValue)
    #expect(array.map(\.location) == c.expected)
  }

  @Test func keyPositionsOnLaterLinesWithCRLF() throws {
    let text = "{\r\n  \"naïve\": {\r\n\t\"x\": null\r\n  }\r\n}"
    let (value, diagnostics) = parse(text)
    #expect(diagnostics.isEmpty)
    let outer = try #require(value?.objectValue)
    #expect(outer.members[0].keyLocation == Location(line: 2, column: 3, offset: 5))
    #expect(outer.members[0].value.location == Location(line: 2, column: 12, offset: 15))
    let inner = try #require(outer["naïve"]?.objectValue)
    #expect(inner.members[0].keyLocation == Location(line: 3, column: 2, offset: 19))
    #expect(inner.members[0].value.location == Location(line: 3, column: 7, offset: 24))
  }

  @Test func stringOverloadMatchesBytes() {
    let (a, _) = JSONParser.parse("[1, \"x\"]")
    let (b, _) = JSONParser.parse(Array("[1, \"x\"]".utf8))
    #expect(a?.writerValue == b?.writerValue)
  }
}

@Suite struct JSONParserErrorTests {
  struct ErrorCase: Sendable, CustomTestStringConvertible {
    var text: [UInt8]
    var id: String
    var message: String
    /// `line:column`, or nil for a diagnostic without a location.
    var position: String?
    var notes: [String] = []

    init(_ text: String, _ id: String, _ message: String, at position: String?, notes: [String] = []) {
      self.text = Array(text.utf8)
      self.id = id
      self.message = message
      self.position = position
      self.notes = notes
    }

    init(bytes: [UInt8], _ id: String, _ message: String, at position: String?) {
      self.text = bytes
      self.id = id
      self.message = message
      self.position = position
    }

    var testDescription: String { "\(id): \(message)" }
  }

  static let cases: [ErrorCase] = [
    .init(#"{"a" 1}"#, "json.syntax.expected-colon", "expected ':' after object key", at: "1:6"),
    .init(
      #"{"a":1 "b":2}"#, "json.syntax.expected-comma", "expected ',' or '}' after object member",
      at: "1:8"),
    .init("[1 2]", "json.syntax.expected-comma", "expected ',' or ']' after array element", at: "1:4"),
    .init(
      "{\r\n  \"a\": 1\r\n  \"b\": 2}", "json.syntax.expected-comma",
      "expected ',' or '}' after object member", at: "3:3"),
    .init(#""abc"#, "json.syntax.unterminated-string", "unterminated string", at: "1:1"),
    .init(
      "[\"a\nb\"]", "json.syntax.unterminated-string", "unterminated string", at: "1:2",
      notes: ["1:4: the line ends here; write \\n for a line break inside a string"]),
    .init(#"["a\qb"]"#, "json.syntax.invalid-escape", #"invalid escape '\q' in string"#, at: "1:4"),
    .init(#"["é\ü"]"#, "json.syntax.invalid-escape", #"invalid escape '\ü' in string"#, at: "1:4"),
    .init(
      "{\n  \"list\": [1,\n", "json.syntax.unexpected-eof",
      "unexpected end of file inside array started at 2:11", at: "3:1",
      notes: ["2:11: the array starts here"]),
    .init(
      #"{"a""#, "json.syntax.unexpected-eof", "unexpected end of file inside object started at 1:1",
      at: "1:5", notes: ["1:1: the object starts here"]),
    .init("[1,2,]", "json.syntax.trailing-comma", "trailing comma is not allowed in JSON", at: "1:5"),
    .init(
      "{\"a\":1,\n}", "json.syntax.trailing-comma", "trailing comma is not allowed in JSON", at: "1:7"),
    .init("[NaN]", "json.syntax.non-finite-number", "NaN is not valid JSON", at: "1:2"),
    .init(#"{"a": Infinity}"#, "json.syntax.non-finite-number", "Infinity is not valid JSON", at: "1:7"),
    .init("[-Infinity]", "json.syntax.non-finite-number", "-Infinity is not valid JSON", at: "1:2"),
    .init("// flow\n{}", "json.syntax.comment", "comments are not allowed in JSON", at: "1:1"),
    .init("[1, /* two */ 2]", "json.syntax.comment", "comments are not allowed in JSON", at: "1:5"),
    .init(
      bytes: [0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D], "json.encoding.invalid-utf8",
      "invalid UTF-8 byte 0xFF", at: "1:4"),
    .init(
      bytes: [0x5B, 0x22, 0xC3, 0xA9, 0xE9, 0x22, 0x5D], "json.encoding.invalid-utf8",
      "invalid UTF-8 byte 0xE9", at: "1:4"),
    .init(bytes: [0x5B, 0x80, 0x5D], "json.encoding.invalid-utf8", "invalid UTF-8 byte 0x80", at: "1:2"),
    .init(
      bytes: [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], "json.encoding.invalid-utf8",
      "invalid UTF-8 byte 0xED", at: "1:3"),
    .init(
      bytes: [0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00], "json.encoding.utf16",
      "this file is UTF-16 encoded (JSON must be UTF-8)", at: nil),
    .init(
      "[\"a\tb\"]", "json.syntax.control-character",
      "control character U+0009 must be escaped in strings (write \\t)", at: "1:4"),
    .init(
      "[\"a\u{1}\"]", "json.syntax.control-character",
      "control character U+0001 must be escaped in strings", at: "1:4"),
    .init("[01]", "json.syntax.leading-zero", "leading zeros are not allowed in numbers", at: "1:2"),
    .init("[-007]", "json.syntax.leading-zero", "leading zeros are not allowed in numbers", at: "1:3"),
    .init("[1.]", "json.syntax.invalid-number", "expected a digit after the decimal point", at: "1:4"),
    .init("[1e+]", "json.syntax.invalid-number", "expected a digit in the exponent", at: "1:5"),
    .init("[-]", "json.syntax.invalid-number", "expected a digit after '-'", at: "1:3"),
    .init("[+1]", "json.syntax.invalid-number", "a number cannot start with '+'", at: "1:2"),
    .init("[.5]", "json.syntax.invalid-number", "a number cannot start with '.' (write 0 before it)", at: "1:2"),
    .init("[x]", "json.syntax.unexpected-character", "unexpected character 'x'", at: "1:2"),
    .init("[1, @]", "json.syntax.unexpected-character", "unexpected character '@'", at: "1:5"),
    .init("[“a”]", "json.syntax.unexpected-character", "unexpected character '“'", at: "1:2"),
    .init("[\u{7F}]", "json.syntax.unexpected-character", "unexpected character U+007F", at: "1:2"),
    .init("[True]", "json.syntax.invalid-literal", "'True' is not valid JSON (use 'true')", at: "1:2"),
    .init(#"{"a": None}"#, "json.syntax.invalid-literal", "'None' is not valid JSON (use 'null')", at: "1:7"),
    .init("[1,,2]", "json.syntax.expected-value", "expected a value, found ','", at: "1:4"),
    .init(#"{"a":}"#, "json.syntax.expected-value", "expected a value, found '}'", at: "1:6"),
    .init("{a: 1}", "json.syntax.expected-key", "expected a key in double quotes, found 'a'", at: "1:2"),
    .init("{1: 1}", "json.syntax.expected-key", "expected a key in double quotes, found '1'", at: "1:2"),
    .init("{'a': 1}", "json.syntax.single-quotes", "strings must use double quotes, not single quotes", at: "1:2"),
    .init("['a']", "json.syntax.single-quotes", "strings must use double quotes, not single quotes", at: "1:2"),
    .init("", "json.empty", "this file is empty", at: nil),
    .init(" \r\n\t ", "json.empty", "this file is empty", at: nil),
    .init("\u{FEFF}", "json.empty", "this file is empty", at: nil),
    .init("<!DOCTYPE html>", "json.not-json", "this does not look like JSON (it starts with '<')", at: "1:1"),
    .init(
      "\n  <?xml version=\"1.0\"?>", "json.not-json", "this does not look like JSON (it starts with '<')", at: "2:3"),
    .init("---\nid: x\n", "json.not-json", "this does not look like JSON (it starts with '---')", at: "1:1"),
    .init("id: welcome\n", "json.not-json", "this does not look like JSON (it starts with 'id:')", at: "1:1"),
    .init(
      "{}\n{}", "json.syntax.extra-content", "extra content after the root value", at: "2:1",
      notes: ["1:1: the root value starts here"]),
    .init(#"["\ud83d"]"#, "json.syntax.unpaired-surrogate", #"unpaired surrogate '\ud83d' in string"#, at: "1:3"),
    .init(#"["\ud83dx"]"#, "json.syntax.unpaired-surrogate", #"unpaired surrogate '\ud83d' in string"#, at: "1:3"),
    .init(#"["\ud83d\u0041"]"#, "json.syntax.unpaired-surrogate", #"unpaired surrogate '\ud83d' in string"#, at: "1:3"),
    .init(#"["a\uDE00"]"#, "json.syntax.unpaired-surrogate", #"unpaired surrogate '\ude00' in string"#, at: "1:4"),
    .init(#"["\u12G4"]"#, "json.syntax.invalid-unicode-escape", #"expected four hex digits after '\u'"#, at: "1:3"),
    .init(#"["\u12"]"#, "json.syntax.invalid-unicode-escape", #"expected four hex digits after '\u'"#, at: "1:3"),
    .init("tru", "json.syntax.invalid-literal", "'tru' is not valid JSON (use 'true')", at: "1:1"),
    .init("[1, nul]", "json.syntax.invalid-literal", "'nul' is not valid JSON (use 'null')", at: "1:5"),
    .init("[yes]", "json.syntax.unexpected-character", "unexpected character 'y'", at: "1:2"),
    .init(
      "[", "json.syntax.unexpected-eof", "unexpected end of file inside array started at 1:1", at: "1:2",
      notes: ["1:1: the array starts here"]),
    .init(
      "[[[[" + "]]]", "json.syntax.unexpected-eof", "unexpected end of file inside array started at 1:1", at: "1:8",
      notes: ["1:1: the array starts here"]),
  ]

  @Test(arguments: cases)
  func reportsError(_ c: ErrorCase) {
    let (value, diagnostics) = JSONParser.parse(c.text, file: "bad.json")
    #expect(value == nil)
    #expect(diagnostics.count == 1)
    guard let d = diagnostics.first else { return }
    #expect(d.id == c.id)
    #expect(d.message == c.message)
    #expect(d.severity == .error)
    #expect(d.file == "bad.json")
    #expect(d.location.map { "\($0.line):\($0.column)" } == c.position)
    #expect(d.notes.map { "\($0.location.map { "\($0.line):\($0.column): " } ?? "")\($0.message)" } == c.notes)
    if let location = d.location {
      let reference = referencePosition(of: location.offset, in: c.text)
      #expect(reference.line == location.line && reference.column == location.column)
    }
    // Messages are lowercase-first (except JSON names) and have no trailing period.
    #expect(!d.message.hasSuffix("."))
  }

  @Test func numberOutOfRangeIsAnErrorButParsingContinues() throws {
    let (value, diagnostics) = parse("[1e400, 2]")
    #expect(diagnostics.map(\.id) == ["json.number-out-of-range"])
    #expect(diagnostics.first?.message == "number 1e400 is too large")
    #expect(diagnostics.first?.location == Location(line: 1, column: 2, offset: 1))
    #expect(try #require(value?.arrayValue).count == 2)
  }
}

@Suite struct JSONDuplicateKeyTests {
  @Test func duplicateKeyIsAWarningWithANoteAtTheFirstOne() throws {
    let (value, diagnostics) = parse(#"{"id": 1, "x": 2, "id": 3}"#)
    #expect(diagnostics.count == 1)
    let d = try #require(diagnostics.first)
    #expect(d.id == "json.duplicate-key")
    #expect(d.severity == .warning)
    #expect(d.message == "duplicate key 'id' (the last one wins)")
    #expect(d.location == Location(line: 1, column: 19, offset: 18))
    #expect(d.notes == [.init("'id' was first defined here", at: Location(line: 1, column: 2, offset: 1))])
    #expect(value?.objectValue?["id"]?.numberValue == 3)
    #expect(value?.objectValue?.members.count == 3)
  }

  @Test(arguments: [3, 15, 16, 17, 40, 300])
  func duplicatesInLargeObjects(size: Int) throws {
    // Keys k0...k(size-1), then k0 and k(size-1) again; a nested object reusing a key is fine.
    var members = (0..<size).map { "\"k\($0)\": \($0)" }
    members.append("\"k0\": {\"k0\": 1}")
    members.append("\"k\(size - 1)\": true")
    let (value, diagnostics) = parse("{" + members.joined(separator: ",\n") + "}")
    #expect(value != nil)
    #expect(
      diagnostics.map(\.message) == [
        "duplicate key 'k0' (the last one wins)", "duplicate key 'k\(size - 1)' (the last one wins)",
      ])
    #expect(diagnostics.map { $0.location?.line } == [size + 1, size + 2])
    #expect(diagnostics.map { $0.notes.first?.location?.line } == [1, size])
  }

  @Test func warningsBeforeASyntaxErrorAreKept() {
    let (value, diagnostics) = parse(#"{"a": 1, "a": 2,}"#)
    #expect(value == nil)
    #expect(diagnostics.map(\.id) == ["json.duplicate-key", "json.syntax.trailing-comma"])
    #expect(diagnostics.map(\.severity) == [.warning, .error])
  }
}

@Suite struct JSONNumberTests {
  struct NumberCase: Sendable, CustomTestStringConvertible {
    var text: String
    var value: Double
    var isInteger: Bool
    var testDescription: String { text }
  }

  @Test(arguments: [
    NumberCase(text: "0", value: 0, isInteger: true),
    NumberCase(text: "-0", value: -0.0, isInteger: true),
    NumberCase(text: "7", value: 7, isInteger: true),
    NumberCase(text: "-42", value: -42, isInteger: true),
    NumberCase(text: "1.5", value: 1.5, isInteger: false),
    NumberCase(text: "-0.0", value: -0.0, isInteger: false),
    NumberCase(text: "1e3", value: 1000, isInteger: false),
    NumberCase(text: "1E+3", value: 1000, isInteger: false),
    NumberCase(text: "-2.5e-3", value: -0.0025, isInteger: false),
    NumberCase(text: "0.1", value: 0.1, isInteger: false),
    NumberCase(text: "0.000001", value: 0.000001, isInteger: false),
    NumberCase(text: "123456789.123456789", value: 123456789.123456789, isInteger: false),
    NumberCase(text: "9007199254740993", value: 9007199254740992, isInteger: true),
    NumberCase(text: "12345678901234567890", value: 12345678901234567890.0, isInteger: true),
    NumberCase(text: "-9223372036854775809", value: -9223372036854775809.0, isInteger: true),
    NumberCase(text: "1.7976931348623157e308", value: .greatestFiniteMagnitude, isInteger: false),
    NumberCase(text: "5e-324", value: .leastNonzeroMagnitude, isInteger: false),
    NumberCase(text: "1e-400", value: 0, isInteger: false),
    NumberCase(text: "0e99999999999", value: 0, isInteger: false),
    NumberCase(text: "100000000000000000000000000000", value: 1e29, isInteger: true),
    NumberCase(text: "0.30000000000000004", value: 0.30000000000000004, isInteger: false),
    NumberCase(text: "2.2250738585072014e-308", value: 2.2250738585072014e-308, isInteger: false),
  ])
  func parsesNumber(_ c: NumberCase) throws {
    let (value, diagnostics) = parse(c.text)
    #expect(diagnostics.isEmpty)
    guard case .number(let d, let isInteger) = try #require(value).kind else {
      Issue.record("not a number")
      return
    }
    #expect(d == c.value)
    #expect(d.sign == c.value.sign)
    #expect(isInteger == c.isInteger)
  }

  /// Random numeric literals parse to exactly what the standard library's `Double(_:)` gives.
  @Test func randomLiteralsMatchTheStandardLibrary() throws {
    var rng = SeededGenerator(seed: 42)
    for _ in 0..<5000 {
      var text = Bool.random(using: &rng) ? "-" : ""
      let intDigits = Int.random(in: 1...22, using: &rng)
      text += String(Int.random(in: 1...9, using: &rng))
      for _ in 1..<intDigits { text += String(Int.random(in: 0...9, using: &rng)) }
      if Bool.random(using: &rng) {
        text += "."
        for _ in 0..<Int.random(in: 1...20, using: &rng) { text += String(Int.random(in: 0...9, using: &rng)) }
      }
      if Bool.random(using: &rng) {
        text += ["e", "E", "e-", "e+"].randomElement(using: &rng)!
        text += String(Int.random(in: 0...330, using: &rng))
      }
      let (value, _) = parse(text)
      let expected = try #require(Double(text))
      #expect(value?.numberValue == expected, "\(text)")
    }
  }
}

@Suite struct JSONStringTests {
  @Test(arguments: [
    (#""plain""#, "plain"),
    (#""""#, ""),
    (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
    (#""\u0041\u00e9\u20AC""#, "Aé€"),
    (#""\ud83d\ude00""#, "😀"),
    (#""a\uD83D\uDE00b""#, "a😀b"),
    (#""\u0000""#, "\u{0}"),
    (#""naïve 日本 😀""#, "naïve 日本 😀"),
    (#""x\ny""#, "x\ny"),
    (#""\uFFFF""#, "\u{FFFF}"),
  ])
  func decodes(_ text: String, _ expected: String) {
    let (value, diagnostics) = parse(text)
    #expect(diagnostics.isEmpty)
    #expect(value?.stringValue == expected)
  }

  @Test func escapedKeysAreDecoded() {
    let (value, _) = parse(#"{"a\u0062": 1, "\"q\"": 2}"#)
    #expect(value?.objectValue?.keys == ["ab", "\"q\""])
  }
}

@Suite struct JSONDepthTests {
  @Test func hundredThousandOpenBracketsGiveTheDepthError() {
    let (value, diagnostics) = parse(String(repeating: "[", count: 100_000))
    #expect(value == nil)
    #expect(diagnostics.map(\.id) == ["json.syntax.too-deep"])
    #expect(diagnostics.first?.message == "nesting deeper than 512 levels")
    #expect(diagnostics.first?.location == Location(line: 1, column: 513, offset: 512))
  }

  @Test func deeplyNestedObjects() {
    let (value, diagnostics) = parse(String(repeating: #"{"a":"#, count: 100_000))
    #expect(value == nil)
    #expect(diagnostics.map(\.id) == ["json.syntax.too-deep"])
  }

  @Test func exactlyTheLimitIsAllowed() {
    let text = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    let (value, diagnostics) = parse(text)
    #expect(value != nil)
    #expect(diagnostics.isEmpty)
  }

  @Test(arguments: [0, 1, 3, 10])
  func limitIsAParameter(_ limit: Int) {
    let ok = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
    let tooDeep = "[" + ok + "]"
    #expect(parse(limit == 0 ? "1" : ok, maxDepth: limit).1.isEmpty)
    let (value, diagnostics) = parse(tooDeep, maxDepth: limit)
    #expect(value == nil)
    #expect(diagnostics.first?.message == "nesting deeper than \(limit) levels")
    #expect(diagnostics.first?.location?.column == limit + 1)
  }

  @Test func aHighLimitIsHonoured() {
    // Parsing is iterative; the depth here is kept moderate because releasing a deeply
    // nested value is recursive in the standard library.
    let n = 2_000
    let text = String(repeating: "[", count: n) + String(repeating: "]", count: n)
    let (value, diagnostics) = parse(text, maxDepth: n)
    #expect(value != nil)
    #expect(diagnostics.isEmpty)
  }
}
