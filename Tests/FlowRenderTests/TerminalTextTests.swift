import FlowRender
import Testing

/// `terminalSafe`: what a terminal would act on is shown instead (docs/security.md).
@Suite struct TerminalTextTests {
  @Test(arguments: [
    ("plain text · é 中文 🏃", false, "plain text · é 中文 🏃"),
    ("lines\nand\ttabs", false, "lines\nand\ttabs"),
    ("\u{1B}[31mred\u{1B}[0m", false, "␛[31mred␛[0m"),
    ("\u{1B}[31mred\u{1B}[0m", true, "\u{1B}[31mred\u{1B}[0m"),
    ("\u{1B}[1;32mbold green\u{1B}[0m", true, "\u{1B}[1;32mbold green\u{1B}[0m"),
    ("\u{1B}]0;title\u{07}", true, "␛]0;title␇"),
    ("\u{1B}[2J\u{1B}[H", true, "␛[2J␛[H"),
    ("\u{1B}]8;;http://x\u{1B}\\link", false, "␛]8;;http://x␛\\link"),
    ("a\rb\u{8}c\u{0}d", false, "a␍b␈c␀d"),
    ("del\u{7F}", false, "del␡"),
    ("c1 \u{9B}31m \u{85}", false, "c1 \u{FFFD}31m \u{FFFD}"),
    ("\u{1B}", true, "␛"),
    ("\u{1B}[31", true, "␛[31"),
  ])
  func controlsAreShown(_ text: String, _ keepingStyles: Bool, _ expected: String) {
    #expect(terminalSafe(text, keepingStyles: keepingStyles) == expected)
  }
}
