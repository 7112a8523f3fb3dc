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

extension NuxieFlowCommandTests {
  /// `campaign --run`: the presented paywall runs with scripted answers in the campaign's
  /// stream; its purchase meets the campaign's goal, its end closes the presentation, and the
  /// reentry policy then holds the next checkout back.
  @Test func campaignRunContinuesIntoTheFlow() throws {
    let arguments = [
      "campaign", "sample-flows/nuxie/campaigns.json", "--profile", "sample-flows/nuxie/profile.json", "--events",
      "sample-flows/nuxie/checkout.ndjson", "--run", "--flows", "sample-flows/nuxie/paywall.json", "--answers",
      "sample-flows/nuxie/paywall-answers.txt",
    ]
    let result = try runFlowrun(arguments)
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let order = [
      "cmp_checkout_paywall  journeyStarted j2; flowShown", "$purchase_completed", "events: $journey_goal_met",
      "dismiss (completed)", "journey j2 (cmp_checkout_paywall) ended: goal_met",
      "cmp_checkout_paywall  suppressed(reentryLimited)",
    ]
    var index = lines.startIndex
    for text in order {
      guard let found = lines[index...].firstIndex(where: { $0.contains(text) }) else {
        Issue.record("'\(text)' missing (in order) from \(result.stdout)")
        return
      }
      index = found
    }
    #expect(try runFlowrun(arguments).stdout == result.stdout, "same inputs, same bytes")
  }
}
