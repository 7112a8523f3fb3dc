import Foundation
import Testing
import _FlowTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `flowrun run` through libedit on a real pseudo-terminal: Tab completion, Enter, Ctrl-C,
/// resize, Ctrl-D, history and the data file.
@Suite(.timeLimit(.minutes(1))) struct RunOnTerminalTests {
  #if canImport(Glibc)
    @Test func libeditSessionOnAPseudoTerminal() async throws {
      let home = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-pty-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: home) }
      let data = home.appendingPathComponent("data.json").path
      let term = try PseudoTerminal(
        executable: flowrunExecutable().path,
        arguments: [
          "run", packageRoot().appendingPathComponent("sample-flows/fitness.json").path,
          "--now", "2026-01-01T00:00:00Z", "--data", data,
        ],
        environment: ["TERM": "xterm", "HOME": home.path, "PATH": "/usr/bin:/bin", "NO_COLOR": "1"])

      try term.waitFor(substring: "[1 Get Started]> ")
      term.send("Get\t")  // Tab completes the button label
      try term.waitFor(substring: "Started")
      var clock = ContinuousClock.now
      term.send("\r")
      try term.waitFor(substring: "── Name (name)")
      try term.waitFor(substring: "First name> ")
      var latencies = [ContinuousClock.now - clock]

      term.send("Bo")
      try term.waitFor(substring: "Bo")
      term.send("\u{3}")  // Ctrl-C cancels the half-typed line; the prompt comes back
      try term.waitFor(substring: "^C")
      try term.waitFor(substring: "First name> ")
      term.resize(rows: 30, columns: 100)  // SIGWINCH must not disturb anything

      term.send("Alex\r")
      try term.waitFor(substring: "[1 Continue]> ")
      clock = ContinuousClock.now
      term.send("1\r")
      try term.waitFor(substring: "Hours per day [0-8] (2)> ")
      latencies.append(ContinuousClock.now - clock)

      // A control character typed while the terminal is still in cooked mode between two
      // reads is taken by the line discipline, not by libedit: give libedit a moment to put
      // the terminal in raw mode after printing the prompt.
      try await Task.sleep(for: .milliseconds(100))
      term.send("\u{4}")  // Ctrl-D ends the session: a quit, exit 1 (not completed)
      try term.waitFor(substring: "Session ended (quit) on hours")
      #expect(try term.waitForExit() == .exited(1))

      let saved = try String(contentsOfFile: data, encoding: .utf8)
      #expect(saved == "{\n  \"name\": \"Alex\"\n}\n")
      let history = try String(contentsOfFile: home.appendingPathComponent(".flowrun_history").path, encoding: .utf8)
      #expect(history.contains("Alex"))
      #expect(!history.contains("Bo"))
      print("flowrun run on a pty: Enter → next prompt took \(latencies.map(\.description).joined(separator: ", "))")
    }

    /// `TERM=dumb` (Emacs shell buffers, some CI consoles): no libedit and no escape sequences,
    /// even with colour not switched off, but prompts are still shown and answers still work.
    @Test func dumbTerminalGetsPlainPromptsAndNoEscapes() throws {
      let home = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-dumb-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: home) }
      let term = try PseudoTerminal(
        executable: flowrunExecutable().path,
        arguments: ["run", packageRoot().appendingPathComponent("sample-flows/fitness.json").path],
        environment: ["TERM": "dumb", "HOME": home.path, "PATH": "/usr/bin:/bin"])
      try term.waitFor(substring: "[1 Get Started]> ")
      term.send("1\n")
      try term.waitFor(substring: "First name> ")
      term.send("Alex\n")
      try term.waitFor(substring: "[1 Continue]> ")
      term.send("\u{4}")  // Ctrl-D: end of input in the terminal's cooked mode
      #expect(try term.waitForExit() == .exited(1))
      #expect(term.output.contains("Session ended"))
      #expect(!term.output.contains("\u{1B}"), "escape sequences on a dumb terminal:\n\(term.output)")
      #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent(".flowrun_history").path))
    }
  #endif
}
