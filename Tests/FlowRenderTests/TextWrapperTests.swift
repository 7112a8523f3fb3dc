import FlowRender
import FlowSupport
import Testing

@Suite struct TextWrapperTests {
  @Test(arguments: [
    ("", 10, [String]()),
    ("   ", 10, []),
    ("one two three", 20, ["one two three"]),
    ("one two three", 7, ["one two", "three"]),
    ("one two three", 3, ["one", "two", "thr", "ee"]),
    ("a  b   c", 10, ["a b c"]),  // spaces collapse
    ("  lead", 10, ["lead"]),
    ("line one\nline two", 40, ["line one", "line two"]),
    ("para\n\npara", 40, ["para", "", "para"]),
    ("abcdefghij", 4, ["abcd", "efgh", "ij"]),  // hard wrap
    ("see https://example.com/a/very/long/path ok", 12, ["see", "https://exam", "ple.com/a/ve", "ry/long/path", "ok"]),
    ("中文中文中文", 5, ["中文", "中文", "中文"]),  // wide: 2 columns each
    ("💪 Strength and 🧘 mobility", 12, ["💪 Strength", "and 🧘", "mobility"]),
    ("cafe\u{301} cafe\u{301}", 5, ["café", "café"]),  // combining mark is 0 wide
    ("tab\tseparated", 20, ["tab separated"]),
    ("bell\u{7}less", 20, ["bellless"]),
  ])
  func wraps(text: String, width: Int, expected: [String]) {
    let lines = TextWrapper.wrap(text, width: width)
    #expect(lines == expected)
    for line in lines { #expect(DisplayWidth.of(line) <= width) }
  }

  @Test func indents() {
    let lines = TextWrapper.wrap("alpha beta gamma delta", width: 12, indent: "[1] ")
    #expect(lines == ["[1] alpha", "    beta", "    gamma", "    delta"])
    let custom = TextWrapper.wrap("alpha beta gamma", width: 11, indent: "> ", continuationIndent: "")
    #expect(custom == ["> alpha", "beta gamma"])
  }

  @Test func neverWiderThanWidth() {
    let text =
      "Nice to meet you, Alex. How many hours a day go to scrolling? 日本語のテキスト 👨‍👩‍👧👨‍👩‍👧 abcdefghijklmnopqrstuvwxyz0123456789"
    for width in 2...60 {
      for line in TextWrapper.wrap(text, width: width, indent: "  ") {
        #expect(DisplayWidth.of(line) <= max(width, 4), "width \(width): '\(line)'")
      }
    }
  }

  @Test func stripsANSI() {
    #expect(stripANSI("\u{1B}[1;36m[1]\u{1B}[0m Go") == "[1] Go")
    #expect(stripANSI("a\u{1B}]8;;http://x\u{7}link\u{1B}]8;;\u{7}b") == "alinkb")
    #expect(stripANSI("plain") == "plain")
  }
}
