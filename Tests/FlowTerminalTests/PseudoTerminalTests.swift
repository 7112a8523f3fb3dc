import Testing
import _FlowTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The pty helper itself, on programs every machine has. The libedit-through-flowrun test
/// will use the same helper once `flowrun run` exists.
@Suite(.timeLimit(.minutes(1))) struct PseudoTerminalTests {}

extension PseudoTerminalTests {
  @Test func echoesInputAndReadsOutput() throws {
    let term = try PseudoTerminal(executable: "/bin/cat")
    term.send("hello\r")
    // The line discipline echoes "hello", then cat writes it back.
    try term.waitFor(substring: "hello\r\n")
    try term.waitFor(substring: "hello\r\n")
    term.send("\u{4}")  // Ctrl-D at the start of a line: cat reads end of file
    #expect(try term.waitForExit(timeout: .seconds(5)) == .exited(0))
  }

  @Test func ctrlCInterruptsTheForegroundProcess() throws {
    let term = try PseudoTerminal(executable: "/bin/cat")
    term.send("partial")
    try term.waitFor(substring: "partial")
    term.send("\u{3}")  // the pty is the controlling terminal, so this is SIGINT
    #expect(try term.waitForExit(timeout: .seconds(5)) == .signaled(SIGINT))
  }

  @Test func shellReadsALineAndExits() throws {
    let term = try PseudoTerminal(
      executable: "/bin/sh", arguments: ["-c", "test -t 0 && test -t 1 && echo tty:yes; read x; echo got:$x; exit 3"])
    try term.waitFor(substring: "tty:yes")
    term.send("start\r")
    try term.waitFor(substring: "got:start")
    #expect(try term.waitForExit(timeout: .seconds(5)) == .exited(3))
  }

  @Test func environmentAndSizeReachTheChild() throws {
    let term = try PseudoTerminal(
      executable: "/bin/sh", arguments: ["-c", "echo term:$TERM; stty size"],
      environment: ["TERM": "vt100", "PATH": "/usr/bin:/bin"], rows: 30, columns: 100)
    try term.waitFor(substring: "term:vt100")
    try term.waitFor(substring: "30 100")
    #expect(try term.waitForExit() == .exited(0))
  }

  @Test func timeoutKillsTheChildInsteadOfHanging() throws {
    let term = try PseudoTerminal(executable: "/bin/sleep", arguments: ["30"])
    #expect(throws: PseudoTerminal.Failure.self) {
      try term.waitFor(substring: "never", timeout: .milliseconds(200))
    }
    #expect(try term.waitForExit(timeout: .seconds(1)) == .signaled(SIGKILL))
  }

  @Test func missingExecutableThrows() {
    #expect(throws: PseudoTerminal.Failure.self) {
      _ = try PseudoTerminal(executable: "/nonexistent/program")
    }
  }
}
