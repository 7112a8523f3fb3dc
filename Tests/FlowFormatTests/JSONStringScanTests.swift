import FlowFormat
import Testing

/// Strings are scanned eight bytes at a time: whatever needs a look (quote, backslash, control
/// character, non-ASCII byte) must be found at every position of a word and near the end of the
/// input, with the same text and positions as a byte-wise scan.
@Suite struct JSONStringScanTests {
  /// (JSON text of the piece inside the quotes, its decoded text)
  static let pieces: [(String, String)] = [
    ("", ""), ("\\n", "\n"), ("\\\"", "\""), ("\\\\", "\\"), ("é", "é"), ("😀", "😀"),
    ("日本", "日本"), ("\\u00e9", "é"), ("\u{7F}", "\u{7F}"), ("~", "~"),
  ]

  @Test(arguments: pieces.indices)
  func pieceAtEveryPosition(_ index: Int) {
    let (json, decoded) = Self.pieces[index]
    for before in 0..<20 {
      for after in [0, 1, 8, 17] {
        let head = String(repeating: "a", count: before)
        let tail = String(repeating: "b", count: after)
        let text = "[\"\(head)\(json)\(tail)\", 1]"
        let (value, diagnostics) = parse(text)
        #expect(diagnostics.isEmpty)
        let elements = value?.arrayValue ?? []
        #expect(elements.first?.stringValue == head + decoded + tail)
        let bytes = Array(text.utf8)
        let offset = bytes.lastIndex(of: UInt8(ascii: "1"))!
        let (line, column) = referencePosition(of: offset, in: bytes)
        #expect(elements.last?.location == Location(line: line, column: column, offset: offset))
      }
    }
  }

  @Test(arguments: 0..<20)
  func controlCharacterAtEveryPosition(_ before: Int) {
    let text = "  \"é\(String(repeating: "a", count: before))\u{1}aaaaaaaaaaaa\""
    let (value, diagnostics) = parse(text)
    #expect(value == nil)
    let bytes = Array(text.utf8)
    let offset = bytes.firstIndex(of: 1)!
    let (line, column) = referencePosition(of: offset, in: bytes)
    #expect(diagnostics.map(\.id) == [DiagnosticID.JSON.controlCharacter.id])
    #expect(diagnostics.first?.location == Location(line: line, column: column, offset: offset))
  }

  @Test(arguments: 0..<20)
  func unterminatedAtEveryLength(_ length: Int) {
    let (value, diagnostics) = parse("\"" + String(repeating: "a", count: length))
    #expect(value == nil)
    #expect(diagnostics.map(\.id) == [DiagnosticID.JSON.unterminatedString.id])
    #expect(diagnostics.first?.location == Location(line: 1, column: 1, offset: 0))
  }
}
