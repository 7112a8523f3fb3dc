import FlowSupport
import Testing

@Suite struct LineDiffTests {
  /// Each case: expected text, actual text, the diff. A line inserted or removed near the top
  /// is one line of the diff, not every later line.
  @Test(
    arguments: [
      ("a\nb\nc\n", "a\nb\nc\n", []),
      ("a\nb\nc\n", "a\nnew\nb\nc\n", ["+2: new"]),
      ("a\nold\nb\nc\n", "a\nb\nc\n", ["-2: old"]),
      ("a\nb\nc\n", "a\nB\nc\n", ["-2: b", "+2: B"]),
      ("top\na\nb\n", "a\nb\nbottom\n", ["-1: top", "+3: bottom"]),
      ("a\nb", "a\nb\n", ["+3: "]),
      ("", "x", ["-1: ", "+1: x"]),
    ] as [(String, String, [String])])
  func alignsLines(_ expected: String, _ actual: String, _ diff: [String]) {
    #expect(LineDiff.lines(expected: expected, actual: actual) == diff)
  }

  @Test func saysHowManyLinesItLeftOut() {
    let expected = (1...10).map { "line \($0)" }.joined(separator: "\n")
    let actual = (1...10).map { "LINE \($0)" }.joined(separator: "\n")
    let diff = LineDiff.lines(expected: expected, actual: actual, limit: 4)
    #expect(diff == ["-1: line 1", "-2: line 2", "-3: line 3", "-4: line 4", "… 16 more differing lines"])
  }

  /// Past the aligned bound the middle is shown removed, then added: still every differing
  /// line, in a time that does not grow with the product of the two texts.
  @Test func largeRewritesAreRemovedThenAdded() {
    let count = LineDiff.alignedLines + 1
    let expected = (0..<count).map { "old \($0)" }.joined(separator: "\n")
    let actual = (0..<count).map { "new \($0)" }.joined(separator: "\n")
    let diff = LineDiff.lines(expected: expected, actual: actual, limit: 2)
    #expect(diff == ["-1: old 0", "-2: old 1", "… \(2 * count - 2) more differing lines"])
  }
}
