import Foundation
import Testing
import _FlowTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// #11 item 4 and #23 row 15: SIGTERM and SIGHUP end a session as SIGINT does, with the
/// events flushed, `--data` and `--record` written and the drop-off reason `terminated`;
/// `test` writes the reports of the scripts that finished. Signals go to a real child that is
/// waiting for input (its stdin stays open), once it has printed a screen.
@Suite(.timeLimit(.minutes(2))) struct SignalTests {
  #if canImport(Glibc)
    static let signals: [Int32] = [SIGTERM, SIGHUP]

    @Test(arguments: signals)
    func aSignalEndsAPipedRunWithEveryFileWritten(_ signal: Int32) throws {
      let directory = try TemporaryDirectory()
      let child = try PipedChild(
        executable: flowrunExecutable().path,
        arguments: [
          "run", packageRoot().appendingPathComponent("sample-flows/fitness.json").path,
          "--now", "2026-01-01T00:00:00Z", "--data", directory.path + "/data.json",
          "--record", directory.path + "/session.flow-test.yaml", "--events", directory.path + "/events.ndjson",
        ])
      child.send("1\nAlex\n1\n")  // welcome → name → hours; then flowrun waits for more
      try child.waitFor(substring: "(hours) · question")
      child.signal(signal)
      #expect(try child.waitForExit() == 1, "\(child.stderr)")
      #expect(child.stdout.contains("── Session ended (terminated) on hours"))

      let files = try SessionFiles(directory)
      #expect(files.dropOffReason == "terminated")
      #expect(files.data["name"] as? String == "Alex")
      // The recording is complete: it replays to the same place.
      let replay = try runFlowrun(["test", directory.path + "/session.flow-test.yaml"])
      #expect(replay.status == 0, "\(replay.stdout)\(directory.text("session.flow-test.yaml") ?? "")")
    }

    /// On a terminal (libedit waiting in a read), the same.
    @Test(arguments: signals)
    func aSignalEndsAnInteractiveRunWithItsFiles(_ signal: Int32) throws {
      let home = try TemporaryDirectory()
      let term = try PseudoTerminal(
        executable: flowrunExecutable().path,
        arguments: [
          "run", packageRoot().appendingPathComponent("sample-flows/fitness.json").path,
          "--now", "2026-01-01T00:00:00Z", "--data", home.path + "/data.json", "--events", home.path + "/events.ndjson",
        ],
        environment: ["TERM": "xterm", "HOME": home.path, "PATH": "/usr/bin:/bin", "NO_COLOR": "1"])
      try term.waitFor(substring: "[1 Get Started]> ")
      term.send("1\r")
      try term.waitFor(substring: "First name> ")
      term.send("Alex\r")
      try term.waitFor(substring: "[1 Continue]> ")
      #expect(term.terminate(signal: signal) == .exited(1), "\(term.output.suffix(400))")
      let files = try SessionFiles(home)
      #expect(files.dropOffReason == "terminated")
      #expect(files.data["name"] as? String == "Alex")
    }

    /// `test` stops starting scripts and writes the reports of those that finished. The second
    /// script is a FIFO nobody ever writes: the signal must end the wait for its writer, on
    /// whatever thread it lands (a blocking open would wait forever).
    @Test(arguments: signals)
    func aSignalStopsATestRunWithItsReports(_ signal: Int32) throws {
      let directory = try TemporaryDirectory()
      let flow = packageRoot().appendingPathComponent("sample-flows/fitness.json").path
      let script = "flow: \(flow)\nsteps:\n  - tap: Get Started\nexpect:\n  screen: name\n"
      let first = directory.file("a.flow-test.yaml", contents: script)
      let fifo = directory.path + "/b.flow-test.yaml"
      #expect(mkfifo(fifo, 0o600) == 0)
      let third = directory.file("c.flow-test.yaml", contents: script)
      let child = try PipedChild(
        executable: flowrunExecutable().path,
        arguments: [
          "test", first, fifo, third, "--jobs", "1", "--junit", directory.path + "/junit.xml", "--json",
          directory.path + "/report.json",
        ])
      try child.waitFor(substring: "PASS \(first)")
      child.signal(signal)
      let status = try child.waitForExit()
      #expect(status == 1 || status == 2, "\(child.stdout)\(child.stderr)")
      #expect(child.stderr.contains("stopped the run; the reports hold the"), "\(child.stderr)")
      let junit = try #require(directory.text("junit.xml"))
      #expect(junit.contains("a.flow-test.yaml"))
      #expect(!junit.contains("c.flow-test.yaml"))
      let report = try #require(directory.text("report.json"))
      #expect(try JSONSerialization.jsonObject(with: Data(report.utf8)) is [String: Any])
      #expect(!report.contains("c.flow-test.yaml"))
    }
  #endif
}
