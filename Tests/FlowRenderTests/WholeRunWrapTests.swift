import Testing

@testable import FlowRender

/// The fast paths of the renderer against the general ones they stand in for: one run of
/// simple text wrapped whole against word by word, and the byte-wise trim of trailing spaces
/// against the character-wise one.
@Suite struct WholeRunWrapTests {
  static let texts = [
    "", "   ", "one two three", "a  b   c", "  lead and trail  ", "line one\nline two", "para\n\npara\n",
    "abcdefghij klmnopqrstuvwxyz", "see https://example.com/a/very/long/path ok",
    "Screen 3 (s3) · feature", "Café crème — “quoted” … ok", "soft\u{AD}hyphen\u{AD}ated words here",
    "┌──┐ box ──── drawing", "tab\tand bell\u{7}", "x", "\n", " \n \n ", "abc def", "s0 → s1 → s2 ← s3",
    "ends with a break\n", "the quick brown fox jumps over the lazy dog", "a bb ccc dddd eeeee ffffff ggggggg",
    "Share every focused playlist celebrate a flexible progress protect a. Choose your streak.",
  ]

  @Test(arguments: texts, [1, 2, 3, 5, 7, 8, 10, 13, 40])
  func wholeRunWrapsAsWordByWord(text: String, width: Int) throws {
    for (prefix, continuation) in [
      ([StyledRun](), [StyledRun]()), ([StyledRun("── ", .dim)], [StyledRun("   ")]),
      ([StyledRun("[1] ", .bold)], [StyledRun("    ")]), ([StyledRun("> ", .cyan)], [StyledRun("x", .cyan)]),
    ] {
      for style: TextStyle in [[], .bold, .cyan] {
        let run = StyledRun(text, style)
        let whole = try #require(
          TextWrapper.wrapWhole(run, width: width, prefix: prefix, continuation: continuation))
        let tokens = TextWrapper.wrapTokens([run], width: width, prefix: prefix, continuation: continuation)
        #expect(whole.map { $0.text(color: true) } == tokens.map { $0.text(color: true) })
        #expect(whole.map { $0.text(color: false) } == tokens.map { $0.text(color: false) })
        #expect(whole.map(\.width) == tokens.map(\.width))
      }
    }
  }

  /// Rich text: runs of several styles, words across runs, spaces at run edges.
  static let styledRuns: [[StyledRun]] = [
    [StyledRun("Bold start ", .bold), StyledRun("then plain text here. ", []), StyledRun("Italic end.", .italic)],
    [StyledRun("half", .bold), StyledRun("word and more words", [])],
    [StyledRun("a ", .bold), StyledRun(" b", .bold), StyledRun("  c  d ", []), StyledRun("", .dim)],
    [StyledRun("one\ntwo ", .bold), StyledRun("three\n\nfour", .cyan)],
    [StyledRun("averyveryverylongword", .bold), StyledRun("continued", []), StyledRun(" tail", .bold)],
    [StyledRun("Café ", .bold), StyledRun("crème — “ok”", []), StyledRun(" soft\u{AD}hy", .dim)],
    [StyledRun("same ", .bold), StyledRun("style ", .bold), StyledRun("runs", .bold)],
    [StyledRun("x", []), StyledRun(" ", .bold), StyledRun("y", [])],
  ]

  @Test(arguments: styledRuns, [1, 3, 5, 8, 13, 40])
  func styledRunsWrapAsWordByWord(runs: [StyledRun], width: Int) throws {
    for (prefix, continuation) in [([StyledRun](), [StyledRun]()), ([StyledRun("• ", .bold)], [StyledRun("  ")])] {
      let simple = try #require(TextWrapper.wrapSimple(runs, width: width, prefix: prefix, continuation: continuation))
      let tokens = TextWrapper.wrapTokens(runs, width: width, prefix: prefix, continuation: continuation)
      #expect(simple.map { $0.text(color: true) } == tokens.map { $0.text(color: true) })
      #expect(simple.map { $0.text(color: false) } == tokens.map { $0.text(color: false) })
      #expect(simple.map(\.width) == tokens.map(\.width))
    }
  }

  /// A screen's lines joined into one text (plain lines through one byte buffer) against each
  /// line's own text.
  @Test(arguments: [false, true])
  func linesJoinAsEachLineAlone(color: Bool) {
    let lines =
      Self.trimmedRuns.map(StyledLine.init) + [
        .blank, StyledLine("plain"), StyledLine([StyledRun("a", .bold), StyledRun(" b  ", .dim)]),
        StyledLine("Café   "), StyledLine("└──┘  ", .dim),
      ]
    #expect(lines.text(color: color) == lines.map { $0.text(color: color) + "\n" }.joined())
    #expect([StyledLine]().text(color: color) == "")
  }

  /// Wrapped text drawn straight into the output bytes (`Canvas`) against the lines it stands
  /// in for, each drawn alone: simple text and other text, rich text, with colour and without.
  @Test(
    arguments: texts.map { [StyledRun($0, .bold)] } + styledRuns + otherTexts.map { [StyledRun($0)] }, [false, true])
  func canvasDrawsAsTheLines(runs: [StyledRun], color: Bool) {
    for width in [1, 3, 8, 13, 40] {
      for (prefix, continuation) in [
        ([StyledRun](), [StyledRun]()), ([StyledRun("── ", .dim)], [StyledRun("   ")]),
        ([StyledRun("│ ", .dim)], [StyledRun("│ ", .dim)]),
      ] {
        let lines = TextWrapper.wrap(runs, width: width, prefix: prefix, continuation: continuation)
        var canvas = Canvas(color: color)
        canvas.wrapLines(runs, width: width, prefix: prefix, continuation: continuation)
        #expect(String(decoding: canvas.bytes, as: UTF8.self) == lines.map { $0.text(color: color) + "\n" }.joined())
        #expect(canvas.lineCount == lines.count)
      }
    }
  }

  static let otherTexts = ["日本語 テキスト", "cafe\u{301} ok  ", "x\u{600} y \u{600}", "💪 emoji", "wide\u{3000}space"]

  @Test(arguments: ["日本語 テキスト", "cafe\u{301} ok", "💪 emoji", "wide\u{3000}space"])
  func otherTextTakesTheGeneralPath(text: String) {
    #expect(TextWrapper.wrapWhole(StyledRun(text), width: 10, prefix: [], continuation: []) == nil)
  }

  static let trimmedRuns: [[StyledRun]] = [
    [StyledRun("abc  ")], [StyledRun("abc"), StyledRun("   ", .dim)], [StyledRun("  ")], [],
    [StyledRun("é "), StyledRun(" ", .bold)], [StyledRun("x\u{600}"), StyledRun("  ")],
    [StyledRun("a \u{301}")], [StyledRun("── ", .dim), StyledRun("t", .bold), StyledRun(" ")],
  ]

  @Test(arguments: trimmedRuns)
  func trimsTrailingSpacesAsCharacters(runs: [StyledRun]) {
    let line = StyledLine(runs)
    var characters = runs.map(\.text).joined()
    while characters.last == " " { characters.removeLast() }
    // (A prepended mark joins the space after it into one character, which stays.)
    #expect(line.text(color: false) == characters)
  }
}
