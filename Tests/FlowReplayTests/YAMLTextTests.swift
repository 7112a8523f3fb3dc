import FlowExpression
import FlowFormat
import Testing

@testable import FlowReplay

/// Strings written by `ScriptWriter` read back as the same strings, as keys and as values in
/// flow collections (issue 23 row 19: Yams quotes them, not a hand-made rule).
@Suite struct YAMLTextTests {
  static let strings = [
    "plain", "fit\"ness path 1: 7 screens, completed", "true", "no", "null", "~", "1", "1.5", "0x1F", "",
    "2026-01-01", "a: b", "- x", "#x", "x #y", "a, b", "[x]", "{y}", "&a", "*b", "!t", "%", "@at", "`tick",
    "|", ">", "?", "'q'", "  lead", "trail ", "line\nbreak", "cr\r\nlf", "tab\there", "\u{1}ctl", "\u{85}nel",
    "••••", "•••• (Must be at least 8 characters)", "é 🏃 Straße", String(repeating: "long words ", count: 20),
  ]

  /// Words the fast path takes (and near misses it must leave to Yams).
  static let words = [
    "plain", "intro", "flow12", "pick_3", "permission.notifications", "a-b", "Yes", "NO", "On", "off", "y", "N",
    "True", "FALSE", "Null", "NULL", "nan", "inf", "Infinity", "e5", "x1e5", "yes_no", "nullish", "a.", "a-", "ab:c",
    "a b", "é", ".inf", "_x", "1a", "Y", "n.", "one,two",
    // Paths, titles and timestamps (`paths --emit`'s `flow:`, `name:` and `now:`).
    "../bundle-200.json", "../../flows/x_1.json", "a/b", "/abs/x.json", "./x", "../x y.json", ".../x", "-/x", "_/x",
    "1/2", "..", "/", "bundle-200 path 300: 764 screens, completed", "say \"hi\": #1 - [x]", "x, y", "a [b]",
    "{c}", "p #1", "a:b, c", "- x, y", " x, y", "x, y ", "it's, here", "tab,\there", "é, ü", "2026-01-01T00:00:00.000Z",
    "1999-12-31T23:59:59.999Z", "2026-01-01T00:00:00Z", "2026-01-01 00:00:00.000Z", "0000-00-00T00:00:00.000Z",
  ]

  @Test(arguments: strings + words)
  func plainWordsAreWrittenAsYamsWritesThem(_ text: String) {
    #expect(YAMLText.scalar(text) == YAMLText.emittedScalar(text))
  }

  /// The plain-word test's byte scan against its definition written out plainly (what the
  /// `Set` of reserved words it replaced answered): reserved words in every case, words of
  /// four to six letters around them, numbers, indicators and non-ASCII letters.
  @Test(
    arguments: strings + words + [
      "yES", "oN", "OFF", "tRuE", "fAlSe", "nULL", "yess", "offf", "truee", "falsee", "nulls", "ye", "of", "tru",
      "fals", "nul", "o", "f", "t", "yes1", "no-", "on.", "off_", "null.", "false5", "123", "0x1F", "-1", "1e5",
      "a#b", "a!b", "a&b", "a*b", "a|b", "a>b", "a%b", "a@b", "a`b", "a'b", "a\"b", "a~", "ä", "aé", "Ω", "日本",
      "yes\u{0}", "a\tb", "a\nb", "abcdefgh", "abcdefghijklmnop", String(repeating: "z", count: 300),
    ])
  func plainWordScanMatchesItsDefinition(_ text: String) {
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")
    let reserved: Set = ["y", "n", "yes", "no", "on", "off", "true", "false", "null"]
    let defined =
      text.first.map { $0.isASCII && $0.isLetter } == true && text.allSatisfy(allowed.contains)
      && !reserved.contains(text.lowercased())
    #expect(YAMLText.isPlainWord(text) == defined)
  }

  @Test(arguments: strings)
  func scalarsReadBackAsWritten(_ text: String) throws {
    let fill = YAMLText.flow(.object([(key: text, value: .string(text))]))
    let yaml =
      "flow: f.json\nname: \(YAMLText.scalar(text))\nsteps:\n  - fill: \(fill)\n  - select: {f: \(YAMLText.flow(.array([.string(text)])))}\n"
    let parsed = ScriptParser.parse(bytes: Array(yaml.utf8), file: "/x/t.flow-test.yaml")
    let script = try #require(parsed.script, "\(yaml)\n\(parsed.diagnostics.map(\.message))")
    #expect(script.name == text)
    guard case .fill(let fields) = script.steps[0].kind, case .select(let picks) = script.steps[1].kind else {
      Issue.record("unexpected steps in \(yaml)")
      return
    }
    #expect(fields.map(\.field) == [text])
    #expect(fields.map(\.value) == [.string(text)])
    #expect(picks.first?.items == [text])
  }
}
