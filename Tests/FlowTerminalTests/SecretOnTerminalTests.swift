import Foundation
import Testing
import _FlowTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A password typed on a real pseudo-terminal is never echoed, never shown in a prompt or the
/// summary, and never written to `~/.flowrun_history` (issue 23 row 3, issue 19 item 7).
@Suite(.timeLimit(.minutes(1))) struct SecretOnTerminalTests {
  #if canImport(Glibc)
    /// libedit (`xterm`) and the plain prompts of a dumb terminal both read the secret with the
    /// terminal's echo off.
    @Test(arguments: ["xterm", "dumb"])
    func aPasswordTypedAtItsPromptIsNeverShownNorKept(_ name: String) async throws {
      let homeDirectory = try TemporaryDirectory()
      let home = homeDirectory.url
      let data = home.appendingPathComponent("data.json").path
      let term = try PseudoTerminal(
        executable: flowrunExecutable().path,
        arguments: [
          "run", packageRoot().appendingPathComponent("sample-flows/signin.json").path,
          "--now", "2026-01-01T00:00:00Z", "--mock", "account.restoreSession=failure", "--data", data,
        ],
        environment: ["TERM": name, "HOME": home.path, "PATH": "/usr/bin:/bin", "NO_COLOR": "1"])
      // libedit's prompts are drawn, a dumb terminal's are written with a newline after Enter.
      let enter = name == "dumb" ? "\n" : "\r"

      try term.waitFor(substring: "5 Terms of Service]> ")
      term.send("3" + enter)
      try term.waitFor(substring: "Email> ")
      term.send("sub@example.com" + enter)
      try term.waitFor(substring: "Password> ")
      term.send("hunter2" + enter)  // too short: validation rejects it once the action answers
      try term.waitFor(substring: "[1 Continue | 2 Forgot password?]> ")
      term.send("1" + enter)
      try term.waitFor(substring: "]> ")  // the awaited action's prompt
      term.send(#":ok {"isNewUser": false, "hasSubscription": true}"# + enter)
      try term.waitFor(substring: "! Password: Must be at least 8 characters")
      try term.waitFor(substring: "Email (sub@example.com)> ")
      term.send(enter)
      try term.waitFor(substring: "Password (••••)> ")  // asked again: masked, not `(hunter2)`
      term.send("hunter2-long" + enter)
      try term.waitFor(substring: "[1 Continue | 2 Forgot password?]> ")
      // A secret given by a command at an ordinary prompt is typed visibly, but not kept.
      term.send(":set password swordfish-set" + enter)
      try term.waitFor(substring: "[1 Continue | 2 Forgot password?]> ")
      term.send("1" + enter)
      try term.waitFor(substring: "]> ")
      term.send(#":ok {"isNewUser": false, "hasSubscription": true}"# + enter)
      try term.waitFor(substring: "Flow completed")
      #expect(try term.waitForExit() == .exited(0))

      #expect(!term.output.contains("hunter2"), "the secret reached the terminal:\n\(term.output)")
      #expect(term.output.contains("password: ••••"))
      #expect(try String(contentsOfFile: data, encoding: .utf8).contains("\"password\": \"••••\""))
      let historyFile = home.appendingPathComponent(".flowrun_history").path
      if name == "dumb" {
        #expect(!FileManager.default.fileExists(atPath: historyFile))
      } else {
        let history = try String(contentsOfFile: historyFile, encoding: .utf8)
        #expect(history.contains("sub@example.com"), "the history works: \(history)")
        #expect(!history.contains("hunter2"), "\(history)")
        #expect(!history.contains("swordfish"), "\(history)")
      }
    }
  #endif
}
