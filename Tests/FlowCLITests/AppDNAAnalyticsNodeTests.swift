import Foundation
import Testing
import _FlowTestSupport

/// An AppDNA analytics node without a `next_target` sends its event and the next rules are
/// tried, as the SDK does (docs/dialects/appdna.md, "Going forward"), on the built binary.
@Suite struct AppDNAAnalyticsNodeTests {
  static let flow = """
    {"id": "a", "graph_nodes": {"evt": {"type": "analytics_event", "event_name": "goal_seen"}},
     "steps": [
      {"id": "s1", "type": "welcome", "config": {"next_step_rules": [
         {"target_step_id": "evt"}, {"target_step_id": "analytics_event_raw"},
         {"target_step_id": "s3", "conditions": [{"type": "previous_step_equals", "value": "nowhere"}]}]}},
      {"id": "s2", "type": "welcome", "config": {"next_step_rules": [{"target_step_id": "evt"}]}},
      {"id": "s3", "type": "welcome"}]}
    """

  @Test func theEventGoesOutAndTheNextRulesDecide() throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file("a.json", contents: Self.flow)
    let events = directory.path + "/events.ndjson"
    let result = try runFlowrun(["run", flow, "--events", events], stdin: "1\n:why\n1\n1\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("→ true  → send goal_seen and try the next rules"))
    #expect(result.stdout.contains("no rule matched → next by order → s2"))
    let names = AppDNANativeOutcomeTests.events(directory.text("events.ndjson") ?? "").map {
      String($0.prefix { $0 != " " })
    }
    // s1: both nodes send, no rule routes, the next step in order; s2: the node sends, then s3.
    #expect(
      names == [
        "onboarding_flow_started", "onboarding_step_viewed", "onboarding_step_completed", "goal_seen",
        "onboarding_analytics", "onboarding_step_viewed", "onboarding_step_completed", "goal_seen",
        "onboarding_step_viewed", "onboarding_step_completed", "onboarding_flow_completed",
      ])
    let check = try runFlowrun(["check", flow])
    #expect(!check.stdout.contains("not-run-yet"), "\(check.stdout)")
  }
}
