import FlowTerminal
import Testing

@Suite struct TerminalInfoTests {}

private func environment(_ values: [String: String]) -> TerminalInfo.Environment {
  { values[$0] }
}

extension TerminalInfoTests {
  @Test func widthPrefersTheTerminal() {
    #expect(TerminalInfo.resolveWidth(terminalColumns: 132, environment: environment(["COLUMNS": "100"])) == 132)
  }

  @Test func widthFallsBackToColumnsThenEighty() {
    #expect(TerminalInfo.resolveWidth(terminalColumns: nil, environment: environment(["COLUMNS": "100"])) == 100)
    #expect(TerminalInfo.resolveWidth(terminalColumns: 0, environment: environment(["COLUMNS": "junk"])) == 80)
    #expect(TerminalInfo.resolveWidth(terminalColumns: nil, environment: environment(["COLUMNS": "-3"])) == 80)
    #expect(TerminalInfo.resolveWidth(terminalColumns: nil, environment: environment([:])) == 80)
  }

  @Test(
    arguments: [
      (nil, "1000000000", 1000), (nil, "9223372036854775807", 1000), (nil, "99999999999999999999", 80), (nil, "5", 20),
      (5000, "80", 1000), (10, "80", 20),
    ] as [(Int?, String, Int)])
  func widthIsClampedIntoItsRange(_ terminal: Int?, _ columns: String, _ width: Int) {
    #expect(
      TerminalInfo.resolveWidth(terminalColumns: terminal, environment: environment(["COLUMNS": columns])) == width)
  }

  @Test func colorAlwaysAndNeverIgnoreTheEnvironment() {
    let env = environment(["NO_COLOR": "1", "TERM": "dumb"])
    #expect(TerminalInfo.colorEnabled(mode: .always, stdoutIsTTY: false, environment: env))
    #expect(!TerminalInfo.colorEnabled(mode: .never, stdoutIsTTY: true, environment: environment(["TERM": "xterm"])))
  }

  @Test(arguments: [
    (true, ["TERM": "xterm"], true),
    (false, ["TERM": "xterm"], false),
    (true, ["TERM": "xterm", "NO_COLOR": "1"], false),
    (true, ["TERM": "xterm", "NO_COLOR": ""], true),
    (true, ["TERM": "dumb"], false),
    (true, [:], true),
  ])
  func colorAuto(isTTY: Bool, values: [String: String], expected: Bool) {
    #expect(TerminalInfo.colorEnabled(mode: .auto, stdoutIsTTY: isTTY, environment: environment(values)) == expected)
  }

  @Test(arguments: [
    (true, true, ["TERM": "xterm-256color"], true),
    (true, true, ["TERM": "dumb"], false),
    (true, true, ["TERM": ""], false),
    (true, true, [:], false),
    (false, true, ["TERM": "xterm"], false),
    (true, false, ["TERM": "xterm"], false),
  ])
  func lineEditorNeedsTwoTerminalsAndAUsefulTerm(stdin: Bool, stdout: Bool, values: [String: String], expected: Bool) {
    #expect(
      TerminalInfo.wantsLineEditor(stdinIsTTY: stdin, stdoutIsTTY: stdout, environment: environment(values)) == expected
    )
  }

  @Test func colorModeParsesTheOptionValues() {
    #expect(ColorMode.allCases.map(\.rawValue) == ["auto", "always", "never"])
  }
}
