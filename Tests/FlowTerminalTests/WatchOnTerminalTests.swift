import Foundation
import Testing
import _FlowTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `flowrun run --watch` on a real pseudo-terminal (issue 15): a copy of fitness.json edited
/// while the session is on screen 3 shows the new text on the same screen; a broken save shows
/// its error and the session runs on; a version the answers no longer fit stops at the first
/// that fails and says why.
@Suite(.timeLimit(.minutes(1))) struct WatchOnTerminalTests {
  #if canImport(Glibc)
    @Test func editsWhileOnScreenThree() throws {
      let directory = try TemporaryDirectory()
      let original = try String(
        contentsOf: packageRoot().appendingPathComponent("sample-flows/fitness.json"), encoding: .utf8)
      let flow = directory.file("fitness.json", contents: original)
      let term = try PseudoTerminal(
        executable: flowrunExecutable().path,
        arguments: ["run", flow, "--watch", "--now", "2026-01-01T00:00:00Z"],
        environment: ["TERM": "xterm", "HOME": directory.path, "PATH": "/usr/bin:/bin", "NO_COLOR": "1"])
      try term.waitFor(substring: "[1 Get Started]> ")
      term.send("1\r")
      try term.waitFor(substring: "First name> ")
      term.send("Alex\r")
      try term.waitFor(substring: "[1 Continue]> ")
      term.send("1\r")
      try term.waitFor(substring: "How many hours a day go to scrolling?")
      try term.waitFor(substring: "Hours per day [0-8] (2)> ")

      // An editor's save: a new file renamed over the old one.
      let edited = original.replacingOccurrences(
        of: "How many hours a day go to scrolling?", with: "Hours a day on the phone?")
      directory.file("fitness.json.tmp", contents: edited)
      #expect(rename(directory.path + "/fitness.json.tmp", flow) == 0)
      try term.waitFor(substring: "reloaded: now on `hours` after 3 answers; `hours` text 1 now")
      try term.waitFor(substring: "Nice to meet you, Alex. Hours a day on the phone?")
      try term.waitFor(substring: "Hours per day [0-8] (2)> ")

      // A save in place that does not load: its error, and the same screen goes on.
      try Data(#"{"screens": ["#.utf8).write(to: URL(fileURLWithPath: flow))  // not atomic: in place
      try term.waitFor(substring: "fitness.json:1:14: error: unexpected end of file")
      try term.waitFor(substring: "! the flow does not load; still running the last good version")
      try term.waitFor(substring: "Hours per day [0-8] (2)> ")

      // A version whose name needs five letters: "Alex" no longer passes, the session is back on it.
      let longer = edited.replacingOccurrences(of: #""minLength": 2"#, with: #""minLength": 5"#)
      try Data(longer.utf8).write(to: URL(fileURLWithPath: flow))
      try term.waitFor(
        substring: "reloaded: now on `name` after 2 answers; answer 3 ({tap: Continue}) no longer fits: name:")
      try term.waitFor(substring: "First name (Alex)> ")
      term.send("Alexandra\r")
      try term.waitFor(substring: "[1 Continue]> ")
      term.send("1\r")
      try term.waitFor(substring: "Nice to meet you, Alexandra. Hours a day on the phone?")
      _ = term.terminate()
    }
  #endif
}
