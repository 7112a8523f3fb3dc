import Foundation
import Testing
import _FlowTestSupport

/// Nuxie flows through the built binary: every command takes them, and document 004's runtime
/// bridge behaves as the document says (docs/fidelity.md names these tests).
@Suite struct NuxieFlowCommandTests {
  static let samples = ["sample-flows/nuxie/paywall.json", "sample-flows/nuxie/winback.json"]

  @Test(arguments: ["check", "render", "graph", "paths"])
  func everyCommandTakesTheSamples(_ command: String) throws {
    for sample in Self.samples {
      let result = try runFlowrun([command, sample])
      #expect(result.status == 0, "\(command) \(sample): \(result.stdout)\(result.stderr)")
      #expect(!result.stdout.isEmpty)
    }
  }

  @Test func suitesPassAndCoverEveryPath() throws {
    let suites = try runFlowrun(["test", "sample-flows/tests/nuxie"])
    #expect(suites.status == 0, "\(suites.stdout)")
    for sample in Self.samples {
      let coverage = try runFlowrun([
        "paths", sample, "--coverage", "sample-flows/tests/nuxie", "--min-coverage", "100",
      ])
      #expect(coverage.status == 0, "\(coverage.stdout)")
    }
  }

  /// Document 004's `showFlow(with:)`: a flow shown by hand is a journey without a campaign,
  /// and it handles its own dismissal through its actions.
  @Test func manualPresentation() throws {
    let directory = try TemporaryDirectory()
    let events = directory.path + "/events.ndjson"
    let result = try runFlowrun(
      ["run", "sample-flows/nuxie/paywall.json", "--events", events], stdin: "Not now\n")
    #expect(result.status == 0, "\(result.stderr)")
    let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
    #expect(lines.first?.contains(#""event_type":"$flow_shown""#) == true)
    #expect(lines.first?.contains(#""campaign_id":null"#) == true)
    #expect(lines.last?.contains(#""event_type":"$flow_dismissed""#) == true)
  }

  /// Purchase and restore wait for the host (the prompt, `--mock`, a script); the result picks
  /// the outlet. Navigation moves between screens; dismiss closes the flow.
  @Test(arguments: [
    ("Start free trial\n:ok\nStart using Pro\n", [String](), "$purchase_completed", "Flow completed"),
    ("Start free trial\n", ["--mock", "purchase=failure"], "$purchase_failed", "The purchase did not go through"),
    ("Restore purchases\n:ok\n", [], "$restore_completed", "Welcome to Pro"),
  ])
  func bridgeActions(_ answers: String, _ options: [String], _ event: String, _ says: String) throws {
    let directory = try TemporaryDirectory()
    let events = directory.path + "/events.ndjson"
    let result = try runFlowrun(
      ["run", "sample-flows/nuxie/paywall.json", "--events", events] + options, stdin: answers)
    #expect(result.stdout.contains(says), "\(result.stdout)")
    #expect(try String(contentsOfFile: events, encoding: .utf8).contains(#""event_type":"\#(event)""#))
  }

  /// Document 004: `call_delegate` posts its message and payload and does not wait.
  @Test func callDelegateIsFireAndForget() throws {
    let directory = try TemporaryDirectory()
    let events = directory.path + "/events.ndjson"
    let result = try runFlowrun(
      ["run", "sample-flows/nuxie/paywall.json", "--events", events, "--mock", "restore=cancelled"],
      stdin: "Restore purchases\nNot now\n")
    #expect(result.status == 0, "\(result.stderr)")
    let text = try String(contentsOfFile: events, encoding: .utf8)
    #expect(text.contains(#""event_type":"$delegate_called""#))
    #expect(text.contains(#""message":"no_purchases","payload":{"screen":"paywall"}"#))
    #expect(text.contains(#""event_type":"$flow_dismissed""#), "the flow went on without a result")
  }
}
