import FlowFormat
import Testing

/// `excerpt` reads only a window around the offset; it must print what decoding the whole line
/// printed, for short and very long lines, wide and multi-byte characters, BOM and CRLF.
@Suite struct ExcerptWindowTests {
  /// The excerpt as it was computed before the window: the whole line decoded.
  static func wholeLineExcerpt(_ source: [UInt8], at location: FlowFormat.SourceLocation, width: Int) -> String {
    let offset = min(max(location.offset, 0), source.count)
    var start = offset
    while start > 0 && source[start - 1] != 0x0A && source[start - 1] != 0x0D { start -= 1 }
    if start == 0 && source.starts(with: [0xEF, 0xBB, 0xBF]) { start = min(3, offset) }
    var end = offset
    while end < source.count && source[end] != 0x0A && source[end] != 0x0D { end += 1 }
    let scalars = Array(String(decoding: source[start..<end], as: UTF8.self).unicodeScalars)
    let column = min(max(location.column - 1, 0), scalars.count)
    var first = 0
    var last = scalars.count
    if scalars.count > width {
      first = max(0, column - width / 2)
      last = min(scalars.count, first + width)
      first = max(0, last - width)
    }
    // The text and the caret's place in terminal cells (of the test's pieces only 中 is wide).
    let shown = String(String.UnicodeScalarView(scalars[first..<last]))
    let cells = scalars[first..<max(first, column)].reduce(0) { $0 + ($1 == "中" ? 2 : 1) }
    return (first > 0 ? "..." : "") + shown + (last < scalars.count ? "..." : "") + "|" + String(cells)
  }

  /// The same summary of the real excerpt: its first line and the caret's place in cells.
  static func summary(_ excerpt: String, width: Int) -> String {
    let lines = excerpt.split(separator: "\n", omittingEmptySubsequences: false)
    let caretCells = lines[1].dropLast().count
    let text = String(lines[0])
    return text + "|" + String(caretCells - (text.hasPrefix("...") ? 3 : 0))
  }

  @Test(arguments: [1, 7, 42, 2026])
  func windowMatchesTheWholeLine(seed: UInt64) {
    var state = seed &* 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let pieces = ["a", "b", "1", " ", ",", "é", "ж", "中", "€", "x", "\r\n", "\n", "y", "z"]
    for _ in 0..<200 {
      let length = [5, 30, 130, 500, 3_000][next(5)]
      var text = next(8) == 0 ? "\u{FEFF}" : ""
      // Most texts are one long line; some have line breaks (CRLF and LF) among the pieces.
      let breaks = next(3) == 0
      for _ in 0..<length {
        let piece = pieces[next(pieces.count)]
        text += breaks || !piece.hasSuffix("\n") ? piece : "q"
      }
      let bytes = Array(text.utf8)
      // A location at a character start, with the column the parser would give.
      let scalars = Array(text.unicodeScalars)
      let index = next(scalars.count + 1)
      var offset = 0
      var column = 1
      for (i, s) in scalars.enumerated() where i < index {
        offset += String(s).utf8.count
        column = (s == "\n" || s == "\r") ? 1 : (s == "\u{FEFF}" && i == 0 ? column : column + 1)
      }
      let location = FlowFormat.SourceLocation(line: 1, column: column, offset: offset)
      for width in [20, 40, 120] {
        let formatter = DiagnosticFormatter(maxLineWidth: width)
        let expected = Self.wholeLineExcerpt(bytes, at: location, width: width)
        let actual = Self.summary(formatter.excerpt(bytes, at: location), width: width)
        #expect(actual == expected, "offset \(offset) column \(column) width \(width) length \(bytes.count)")
      }
    }
  }

  /// Tabs stay tabs under the caret, control characters show as their pictures (one column),
  /// a wide character takes two columns and a combining mark none.
  @Test func caretCountsColumnsAndKeepsTabs() {
    let source = Array("\t中\u{1}e\u{301}\u{7F}x".utf8)
    let at = FlowFormat.SourceLocation(line: 1, column: 7, offset: 9)
    #expect(DiagnosticFormatter().excerpt(source, at: at) == "\t中\u{2401}e\u{301}\u{2421}x\n\t     ^\n")
  }
}
