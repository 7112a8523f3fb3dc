import FlowExpression
import Testing

/// The two trims: whitespace (answers, labels, commands) and U+0020 spaces only (what
/// Sequence trims from a field label or a number's text).
@Suite struct TrimmingTests {
  @Test(arguments: [
    ("Alex", "Alex", "Alex"),
    ("  Alex  ", "Alex", "Alex"),
    ("\tAlex\n", "Alex", "\tAlex\n"),
    (" \u{A0}Alex\u{2003} ", "Alex", "\u{A0}Alex\u{2003}"),
    ("\r\n", "", "\r\n"),
    ("   ", "", ""),
    ("", "", ""),
    ("a b", "a b", "a b"),
    (" e\u{301} ", "e\u{301}", "e\u{301}"),
  ])
  func trims(_ text: String, whitespace: String, spaces: String) {
    #expect(text.trimmingWhitespace == whitespace)
    #expect(text.trimmingSpaces == spaces)
    #expect(text[...].trimmingWhitespace == whitespace)
  }
}
