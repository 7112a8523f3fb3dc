import FlowEngine
import FlowExpression
import FlowFormat
import Foundation
import OrderedCollections
import Testing

/// Nuxie's public fixture vectors, restated (their expected results are facts; the fixture
/// files stay outside the repository): `fixtures/journeys/conformance/either-vocabulary.json`
/// runs one action list of every era-B kind and expects its events, customer updates,
/// milestones, one exposure and the exit.
@Suite struct NuxieVectorTests {
  /// The vector's action list, written here in the same vocabulary (`nodeId` included).
  static let eitherVocabularyActions = #"""
    [{"type": "delay", "nodeId": "either.delay", "durationMs": 0},
     {"type": "time_window", "nodeId": "either.time-window", "startTime": "09:00", "endTime": "17:00", "timezone": "UTC", "successActions": []},
     {"type": "wait_until", "nodeId": "either.wait-until", "condition": {"ir_version": 1, "expr": {"type": "Bool", "value": true}}, "maxTimeMs": 1000,
      "successActions": [{"type": "send_event", "nodeId": "either.wait-success", "eventName": "wait_condition_met"}],
      "timeoutActions": [{"type": "send_event", "nodeId": "either.wait-timeout", "eventName": "wait_timed_out"}]},
     {"type": "condition", "nodeId": "either.condition", "branches": [{"id": "selected", "condition": {"ir_version": 1, "expr": {"type": "Bool", "value": true}},
      "actions": [{"type": "send_event", "nodeId": "either.condition-event", "eventName": "condition_selected", "properties": {"source": "golden"}}]}], "defaultActions": []},
     {"type": "experiment", "nodeId": "either.experiment", "experimentId": "golden-experiment", "variants": [{"id": "variant-a", "name": "Variant A", "percentage": 100,
      "actions": [{"type": "update_customer", "nodeId": "either.variant-update", "attributes": {"experiment_variant": "variant-a"}}]}]},
     {"type": "send_event", "nodeId": "either.send-event", "eventName": "golden_event", "properties": {"source": "golden"}},
     {"type": "update_customer", "nodeId": "either.update-customer", "attributes": {"tier": "golden"}},
     {"type": "milestone", "nodeId": "either.milestone", "milestoneId": "golden_complete", "label": "Golden complete"},
     {"type": "exit", "nodeId": "either.exit", "reason": "completed"}]
    """#

  @Test func eitherVocabulary() throws {
    let json = #"""
      {"id": "ver_either", "screens": [{"id": "screen-1"}],
       "interactions": {"screen-1": [{"id": "run", "trigger": {"type": "event", "eventName": "$screen_shown"}, "actions": \#(Self.eitherVocabularyActions)}]}}
      """#
    let loaded = FlowLoader.load(bytes: Array(json.utf8), file: "either.json")
    let document = try #require(loaded.document, "\(loaded.diagnostics)")
    #expect(!loaded.diagnostics.hasErrors, "\(loaded.diagnostics)")
    // The vector's clock (2026-07-25T10:00:00Z, inside 09:00–17:00) and its profile assignment.
    let now = try #require(CivilTime.instant(iso8601: "2026-07-25T10:00:00.000Z")).milliseconds
    let (session, outputs) = try Session.start(
      document: document, config: SessionConfig(variantOverrides: ["golden-experiment": "variant-a"], now: now))
    let events = outputs.compactMap { if case .event(let event) = $0 { event } else { nil } }
    let authored = events.map(\.eventType).filter { !$0.hasPrefix("$") }
    #expect(authored == ["wait_condition_met", "condition_selected", "golden_event"])
    #expect(session.data("customer") == .object(["experiment_variant": "variant-a", "tier": "golden"]))
    let milestones = events.filter { $0.eventType == "$journey_milestone" }.map { $0.property("milestone_id") }
    #expect(milestones == [.string("golden_complete")])
    let exposures = events.filter { $0.eventType == "$experiment_exposure" }
      .map { [$0.property("experiment_key"), $0.property("variant_key")] }
    #expect(exposures == [[.string("golden-experiment"), .string("variant-a")]])
    #expect(session.status == .completed)
    #expect(events.last?.eventType == "$journey_completed")
    #expect(events.last?.property("exit_reason") == "completed")
  }
}
