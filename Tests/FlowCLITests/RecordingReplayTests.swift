import Foundation
import Testing
import _FlowTestSupport

/// #23 row 18: a session recorded while an awaited action is pending replays as recorded (the
/// replay leaves the action pending instead of failing it as unhandled).
@Suite(.timeLimit(.minutes(2))) struct RecordingReplayTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    /// The flow file's text (nil: fitness.json, copied).
    var flowText: String?
    var input: String
    /// `--record`, or a `:save` typed in the session.
    var bySave: Bool
    var awaiting: String
    var testDescription: String { name }
  }

  @Test(arguments: [
    Case(
      name: "end of input while pending (--record)", flowText: awaitingFlow, input: "1\n", bySave: false,
      awaiting: "perm.x"),
    Case(
      name: ":save while pending", flowText: awaitingFlow, input: "1\n:save {script}\n:quit\n", bySave: true,
      awaiting: "perm.x"),
    Case(
      name: "fitness, ended at the notification prompt", flowText: nil, input: "1\nAlex\n1\n\n1\n1\n2,hiit\n1\n1\n",
      bySave: false, awaiting: "permission.notifications"),
  ])
  func aSessionEndedWhilePendingReplays(_ example: Case) throws {
    let directory = try TemporaryDirectory()
    let text =
      try example.flowText
      ?? String(contentsOf: packageRoot().appendingPathComponent("sample-flows/fitness.json"), encoding: .utf8)
    let flow = directory.file("flow.json", contents: text)
    let script = directory.path + "/session.flow-test.yaml"
    let record = example.bySave ? [] : ["--record", script]
    let run = try runFlowrun(
      ["run", flow, "--now", "2026-01-01T00:00:00Z"] + record,
      stdin: example.input.replacingOccurrences(of: "{script}", with: script))
    #expect(run.status == 1, "\(run.stderr)")
    let recorded = try #require(directory.text("session.flow-test.yaml"))
    #expect(recorded.contains("  awaiting: \(example.awaiting)\n"), "\(recorded)")
    let replay = try runFlowrun(["test", script])
    #expect(replay.status == 0, "\(replay.stdout)\n\(recorded)")
  }

  /// A script that says nothing about the pending action still gets it failed as unhandled
  /// (docs/replay-scripts.md): the failure route is taken.
  @Test func withoutAwaitingTheActionFailsAsUnhandled() throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file("flow.json", contents: awaitingFlow)
    let script = directory.file(
      "s.flow-test.yaml", contents: "flow: \(flow)\nsteps:\n  - tap: Allow\nexpect:\n  screen: sorry\n")
    let replay = try runFlowrun(["test", script])
    #expect(replay.status == 0, "\(replay.stdout)")
  }
}
