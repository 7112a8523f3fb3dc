import FlowFormat
import FlowReplay
import Foundation
import Testing
import _FlowTestSupport

/// Campaign scripts (`campaigns:`) through `Replayer`: what passes, what fails and where, and
/// the keys that belong to one kind of script only.
@Suite struct CampaignReplayTests {
  static let root = packageRoot().appendingPathComponent("sample-flows/nuxie").path

  static func run(_ body: String) throws -> ScriptOutcome {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/c.flow-test.yaml"
    let script = "campaigns: \(root)/campaigns.json\nprofile: \(root)/profile.json\nnow: 2026-03-02T09:00:00Z\n" + body
    try script.write(toFile: path, atomically: true, encoding: .utf8)
    return Replayer.run(path: path)
  }

  /// Each script (its steps start on line 5), the status it must end with, and the line and
  /// text of its failure.
  static let cases: [(String, ScriptOutcome.Status, Int?, String)] = [
    ("steps:\n  - track: {name: checkout_started, properties: {cart_total: 35}}\n", .passed, nil, ""),
    (
      "steps:\n  - track: {name: checkout_started, properties: {cart_total: 35}}\n  - expect: {decision: {decision: suppressed}}\n",
      .failed, 6, "expected decision {\"decision\":\"suppressed\"} in the last step"
    ),
    (
      "steps:\n  - track: {name: checkout_started, properties: {cart_total: 35}}\nexpect:\n  not_events: [$flow_shown]\n",
      .failed, 7, "forbidden event {\"event_type\":\"$flow_shown\"} happened"
    ),
    (
      "steps:\n  - track: x\nexpect:\n  events: [$journey_goal_met]\n", .failed, 7,
      "expected event {\"event_type\":\"$journey_goal_met\"} (in order) not found"
    ),
    (
      "steps:\n  - track: {name: checkout_started, properties: {cart_total: 5}}\n  - expect: {no_match: false}\n",
      .failed, 6, "expected no_match false, found true"
    ),
    ("steps:\n  - tap: Continue\n", .error, 5, "'tap' belongs to flow scripts"),
    ("steps:\n  - dismiss\n", .failed, 5, "no flow is presented to dismiss"),
  ]

  @Test(arguments: cases)
  func script(body: String, status: ScriptOutcome.Status, line: Int?, text: String) throws {
    let outcome = try Self.run(body)
    #expect(outcome.status == status, "\(outcome.message)")
    #expect(outcome.failureLocation?.line == line, "\(outcome.summary)")
    #expect(text.isEmpty || outcome.message.contains(text), "\(outcome.message)")
  }

  @Test func campaignStepsAreRefusedInFlowScripts() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/f.flow-test.yaml"
    try "flow: x.json\nsteps:\n  - profile: {plan: pro}\n".write(toFile: path, atomically: true, encoding: .utf8)
    let parsed = ScriptParser.load(path: path)
    #expect(parsed.script == nil)
    #expect(
      parsed.diagnostics.map(\.message) == [
        "'profile' belongs to campaign scripts, which name their payload with 'campaigns:'"
      ])
    #expect(parsed.diagnostics.first?.location?.line == 3)
  }
}
