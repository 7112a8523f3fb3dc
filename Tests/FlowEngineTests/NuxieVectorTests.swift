import FlowEngine
import FlowExpression
import FlowFormat
import Foundation
import OrderedCollections
import Testing

/// Nuxie's public fixture vectors, restated (their expected results are facts; the fixture
/// files stay outside the repository): `fixtures/journeys/conformance/either-vocabulary.json`
/// runs one action list of every era-B kind and expects its events, customer updates,
/// milestones, one exposure and the exit; `fixtures/journeys/planes/executor-controls.json`
/// runs one era E step and expects it to advance to an outlet, park until a fixed instant,
/// dispatch an external action or complete.
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

  /// One executor-controls case: the step under test is the leg's entry; every outlet target
  /// is a step that navigates to a screen of the same name, so "advance(X)" is "on screen X".
  struct ExecutorCase: Sendable, CustomStringConvertible {
    enum Expected: Sendable {
      case advance(String)
      /// Parked until this instant; then the outlet it takes.
      case park(wakeAt: Int64, then: String)
      case dispatch(String)
      case complete
    }

    var id: String
    var step: String
    var now: Int64
    var variants: [String: String] = [:]
    var inputs: [Input] = []
    var expected: Expected

    var description: String { id }
  }

  static let outletScreens = [
    "never", "selected", "fallback", "a", "b", "present", "after-delay", "success", "expired", "error", "closed",
  ]

  static func leg(_ step: String) -> String {
    let screens = (["start"] + outletScreens).map { #"{"id": "\#($0)"}"# }.joined(separator: ", ")
    let targets = outletScreens.map {
      #"{"id": "\#($0)", "kind": "action", "action": {"type": "navigate", "screenId": "\#($0)"}, "outlets": {}}"#
    }
    return #"""
      {"schemaVersion": "nuxie.experience-planes.v1", "id": "leg", "entryStepId": "step", "screens": [\#(screens)],
       "routes": [], "steps": [\#(step), \#(targets.joined(separator: ", "))]}
      """#
  }

  static let waitOnReady = #"""
    {"kind": "action", "id": "step", "action": {"type": "wait_until", "trigger": {"kind": "event", "eventName": "qualified"},
      "condition": {"type": "Compare", "op": "==", "left": {"type": "Event.Field", "key": "ready"}, "right": {"type": "Boolean", "value": true}},
      "maxTimeMs": 10000}, "outlets": {"satisfied": "success", "timeout": "expired"}}
    """#

  static let executorCases: [ExecutorCase] = [
    ExecutorCase(
      id: "condition-selects-first-true-branch",
      step: #"""
        {"kind": "action", "id": "step", "action": {"type": "condition", "branches": [
          {"id": "unknown", "condition": {"type": "Truthy", "value": {"type": "Event.Field", "key": "missing"}}},
          {"id": "yes", "condition": {"type": "Truthy", "value": {"type": "Boolean", "value": true}}}]},
         "outlets": {"unknown": "never", "yes": "selected", "default": "fallback"}}
        """#, now: 1000, expected: .advance("selected")),
    ExecutorCase(
      id: "condition-unknown-falls-through-to-default",
      step: #"""
        {"kind": "action", "id": "step", "action": {"type": "condition", "branches": [
          {"id": "unknown", "condition": {"type": "Truthy", "value": {"type": "Event.Field", "key": "missing"}}}]},
         "outlets": {"unknown": "never", "default": "fallback"}}
        """#, now: 1000, expected: .advance("fallback")),
    ExecutorCase(
      id: "experiment-uses-durable-assignment",
      step: #"""
        {"kind": "action", "id": "step", "action": {"type": "experiment", "experimentId": "experiment_assigned",
          "variants": [{"id": "variant_a", "isHoldout": false}, {"id": "variant_b", "isHoldout": false}]},
         "outlets": {"variant_a": "a", "variant_b": "b"}}
        """#, now: 1000, variants: ["experiment_assigned": "variant_b"], expected: .advance("b")),
    ExecutorCase(
      id: "unassigned-experiment-uses-first-variant",
      step: #"""
        {"kind": "action", "id": "step", "action": {"type": "experiment", "experimentId": "experiment_new",
          "variants": [{"id": "default", "isHoldout": true}, {"id": "other", "isHoldout": false}]},
         "outlets": {"default": "a", "other": "b"}}
        """#, now: 1000, expected: .advance("a")),
    ExecutorCase(
      id: "time-window-parks-at-next-opening (and the resume re-checks: inside)",
      step: #"""
        {"kind": "action", "id": "step", "action": {"type": "time_window", "startTime": "09:00", "endTime": "17:00",
          "timezone": {"kind": "iana", "identifier": "Etc/UTC"}, "daysOfWeek": []}, "outlets": {"inside": "present"}}
        """#, now: 1_784_138_400_000, expected: .park(wakeAt: 1_784_192_400_000, then: "present")),
    ExecutorCase(
      id: "delay-deadline-is-anchored-on-first-entry (and the resume does not move it)",
      step: #"""
        {"kind": "action", "id": "step", "action": {"type": "delay", "durationMs": 5000}, "outlets": {"next": "after-delay"}}
        """#, now: 1000, expected: .park(wakeAt: 6000, then: "after-delay")),
    ExecutorCase(
      id: "wait-deadline-is-anchored-on-first-entry; wait-timeout-uses-fixed-deadline",
      step: waitOnReady, now: 1000, expected: .park(wakeAt: 11000, then: "expired")),
    ExecutorCase(
      id: "wrong-event-keeps-original-wait-deadline (a value that does not satisfy it)",
      step: waitOnReady, now: 1000, inputs: [.wait(ms: 4000), .setVariable(name: "ready", value: .bool(true))],
      expected: .park(wakeAt: 11000, then: "expired")),
    ExecutorCase(
      id: "matching-event-binds-context (the event's fields are the condition's Event)",
      step: waitOnReady, now: 1000,
      inputs: [.wait(ms: 3000), .track(named: "qualified", properties: ["ready": .bool(true)])],
      expected: .advance("success")),
    ExecutorCase(
      id: "wrong-event-keeps-original-wait-deadline (another event, even one whose fields satisfy it)",
      step: waitOnReady, now: 1000,
      inputs: [.wait(ms: 3000), .track(named: "other", properties: ["ready": .bool(true)])],
      expected: .park(wakeAt: 11000, then: "expired")),
    ExecutorCase(
      id: "response-change-satisfies-response-wait",
      step: #"""
        {"kind": "action", "id": "step", "action": {"type": "wait_until", "trigger": {"kind": "response_change"},
          "condition": {"type": "Truthy", "value": {"type": "Response.Field", "key": "consent"}}, "maxTimeMs": 10000},
         "outlets": {"satisfied": "success", "timeout": "expired"}}
        """#, now: 1000, inputs: [.wait(ms: 4000), .setVariable(name: "consent", value: .bool(true))],
      expected: .advance("success")),
    ExecutorCase(
      id: "complete-step-freezes-outcome", step: #"{"kind": "complete", "id": "step", "outcome": "continued"}"#,
      now: 1000, expected: .complete),
    ExecutorCase(
      id: "external-action-is-dispatched-without-advancing",
      step: #"""
        {"kind": "action", "id": "step", "action": {"type": "purchase", "placementId": "offer"},
         "outlets": {"completed": "success", "failed": "error", "cancelled": "closed"}}
        """#, now: 1000, expected: .dispatch("purchase")),
  ]

  @Test(arguments: executorCases)
  func executorControls(_ vector: ExecutorCase) throws {
    let loaded = FlowLoader.load(bytes: Array(Self.leg(vector.step).utf8), file: "leg.json")
    let document = try #require(loaded.document, "\(loaded.diagnostics)")
    #expect(!loaded.diagnostics.hasErrors, "\(loaded.diagnostics)")
    var (session, _) = try Session.start(
      document: document,
      config: SessionConfig(variantOverrides: vector.variants, now: vector.now, waitsForResults: true))
    for input in vector.inputs { _ = session.send(input) }
    switch vector.expected {
    case .advance(let screen):
      #expect(session.currentScreen.id == screen)
      #expect(session.status == .running)
    case .park(let wakeAt, let then):
      guard case .awaiting(let pending) = session.status, case .timer(_, let wake) = pending.source else {
        Issue.record("not parked: \(session.status)")
        return
      }
      #expect(wake == wakeAt)
      _ = session.send(.wait(ms: wakeAt - 1 - session.virtualNow))
      #expect(session.currentScreen.id == "start", "not before its deadline")
      _ = session.send(.wait(ms: 1))
      #expect(session.currentScreen.id == then)
    case .dispatch(let identifier):
      guard case .awaiting(let pending) = session.status else {
        Issue.record("not dispatched: \(session.status)")
        return
      }
      #expect(pending.identifier == identifier)
      #expect(session.currentScreen.id == "start")
    case .complete:
      #expect(session.status == .completed)
    }
  }

  /// `fixtures/golden-journey/basic.json`: an era E document speaks the D/E vocabulary and
  /// never sends a name era D removed; an era B document keeps the B names.
  @Test func experienceVocabulary() throws {
    let removed: Set<String> = [
      "$journey_start", "$journey_started", "$journey_paused", "$journey_resumed", "$journey_goal_hit",
      "$journey_goal_met", "$journey_node_executed", "$journey_completed",
    ]
    let step = #"{"kind": "complete", "id": "step", "outcome": "continued"}"#
    let loaded = FlowLoader.load(bytes: Array(Self.leg(step).utf8), file: "leg.json")
    let document = try #require(loaded.document, "\(loaded.diagnostics)")
    let (_, outputs) = try Session.start(document: document, config: SessionConfig(now: 0))
    let events = outputs.compactMap { if case .event(let event) = $0 { event } else { nil } }
    #expect(events.map(\.eventType) == ["$experience_shown", "$journey_exited"])
    #expect(removed.isDisjoint(with: events.map(\.eventType)))
    #expect(events.first?.property("experience_id") == "leg")
    #expect(events.last?.property("reason") == "completed")
  }
}
