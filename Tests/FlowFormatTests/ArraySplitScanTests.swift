import Testing

@testable import FlowFormat

/// The scan that splits `$.screens` by bytes finds an element's first byte, and the line state
/// it works out there gives the line and column the parser gives that element.
@Suite struct ArraySplitScanTests {
  static let texts: [(String, String)] = [
    ("one line", #"[{"a": "x"}, {"b": [1, 2, {"c": "]"}]}, "s", 3, {"d": "\"]"}, [[]]]"#),
    ("lines", "[\n  {\"a\": 1},\n  {\"b\": [\n    2\n  ]},\n  3,\n  4\n]"),
    ("CRLF", "[\r\n  {\"a\": 1},\r\n  {\"b\": 2},\r\n  3,\r\n  4\r\n]"),
    ("lone CR", "[\r  {\"a\": 1},\r  {\"b\": 2},\r  3,\r  4\r]"),
    ("non-ASCII", #"["héllo wörld 👋👋", {"ü": "ß"}, "日本語のテキスト", "é", "x"]"#),
    ("non-ASCII lines", "[\"é\",\n \"日本\", \"👋\", \n\t\"ü\", \"x\"]"),
    ("escapes", #"["a\\", "b\"]\"", "\\\"", {"\\": "\\\\"}, "c"]"#),
  ]

  /// Past the end (the middle of the array is taken) and at a third of the text.
  @Test(arguments: texts.map(\.0), [Int.max, 3])
  func splitStartsAtAnElementWhereTheParserPutsIt(_ name: String, third: Int) throws {
    let text = try #require(Self.texts.first { $0.0 == name }?.1)
    let bytes = Array(text.utf8)
    let target = third == .max ? .max : bytes.count / third
    let (root, diagnostics) = JSONParser.parse(bytes)
    #expect(diagnostics.isEmpty)
    let elements = try #require(root?.arrayValue)
    let split = try #require(
      bytes.withUnsafeBufferPointer {
        ArraySplitScan.split(
          $0, first: ParsePosition(offset: 1, line: 1, lineStart: 0, lineContinuations: 0), target: target)
      })
    #expect(split.index > 0 && split.index < elements.count)
    let expected = elements[split.index].location
    let start = split.start
    #expect(start.offset == expected.offset)
    #expect(start.line == expected.line)
    #expect(start.offset - start.lineStart - start.lineContinuations + 1 == expected.column)
  }

  @Test(arguments: ["[1]", "[1, 2", "[{\"a\": 1}, 2}", "[\"a, b\"]", "[1, \"2]"])
  func noSplitOfOneElementOrAnArrayThatDoesNotClose(_ text: String) {
    let bytes = Array(text.utf8)
    let target = Int.max
    let split = bytes.withUnsafeBufferPointer {
      ArraySplitScan.split(
        $0, first: ParsePosition(offset: 1, line: 1, lineStart: 0, lineContinuations: 0), target: target)
    }
    #expect(split == nil)
  }
}
