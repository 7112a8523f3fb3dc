import FlowEngine
import FlowExpression
import FlowFormat
import Foundation
import OrderedCollections
import Testing

/// Nuxie RemoteFlows compiled by the loader and walked by the engine (docs/dialects/nuxie.md):
/// each case is a flow written in Nuxie's shapes, the inputs a user or host gives, and what the
/// SDK's runtime (research §1.5–1.6) and document 004 say happens.
@Suite struct NuxieFlowTests {
  struct Walk: Sendable, CustomStringConvertible {
    var name: String
    /// Interactions by host (JSON members of `interactions`); `__global__` starts on `a`.
    var interactions: String
    var inputs: [Input]
    var path: [String]
    var status: String = "running"
    /// Event names that must appear, in this order (others may come between).
    var events: [String] = []
    var absent: [String] = []
    /// When given, exactly the `$screen_…` events sent.
    var screenEvents: [String]?
    var now: Int64 = 0

    var description: String { name }
  }

  static func load(_ json: String) -> LoadResult {
    FlowLoader.load(bytes: Array(json.utf8), file: "nuxie.json")
  }

  /// A RemoteFlow with screens a, b, c, d, starting on a; component hosts are shown on every
  /// screen (no `components`), so a test presses them by id.
  static func flow(_ interactions: String) -> String {
    #"""
    {"id": "ver_test", "screens": [{"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "d"}],
     "interactions": {"__global__": [{"id": "start", "trigger": {"type": "start"}, "actions": [{"type": "navigate", "screenId": "a"}]}]\#(interactions.isEmpty ? "" : ", " + interactions)}}
    """#
  }

  static func press(_ host: String, _ actions: String) -> String {
    #""\#(host)": [{"id": "\#(host)_press", "trigger": {"type": "press"}, "actions": [\#(actions)]}]"#
  }

  static let navigation = [
    press("to_b", #"{"type": "navigate", "screenId": "b"}"#),
    press("to_c", #"{"type": "navigate", "screenId": "c"}"#),
    press("to_d", #"{"type": "navigate", "screenId": "d"}"#),
    press("back2", #"{"type": "back", "steps": 2}"#),
    press("back9", #"{"type": "back", "steps": 9}"#),
    press("back0", #"{"type": "back", "steps": 0}"#),
  ].joined(separator: ", ")

  static func tap(_ id: String) -> Input { .tap(.blockID(id)) }

  static let walks: [Walk] = [
    Walk(
      name: "back {steps: 2} pops two screens", interactions: navigation,
      inputs: [tap("to_b"), tap("to_c"), tap("to_d"), tap("back2")], path: ["a", "b", "c", "d", "b"]),
    Walk(
      name: "back past the oldest screen goes to the oldest (T9)", interactions: navigation,
      inputs: [tap("to_b"), tap("to_c"), tap("back9")], path: ["a", "b", "c", "a"]),
    Walk(
      name: "back {steps: 0} is one step", interactions: navigation,
      inputs: [tap("to_b"), tap("to_c"), tap("back0")], path: ["a", "b", "c", "b"]),
    Walk(
      name: "back with nothing to go back to stays", interactions: navigation, inputs: [tap("back2")], path: ["a"]),
    Walk(
      name: "back sends no $screen_dismissed (era B)", interactions: navigation,
      inputs: [tap("to_b"), tap("back2")], path: ["a", "b", "a"],
      screenEvents: ["$screen_shown", "$screen_dismissed", "$screen_shown", "$screen_shown"]),
    Walk(
      name: "call_delegate is fire and forget: the list goes on",
      interactions: press(
        "ping",
        #"{"type": "call_delegate", "message": "hello", "payload": {"n": 1}}, {"type": "navigate", "screenId": "b"}"#),
      inputs: [tap("ping")], path: ["a", "b"], events: ["$delegate_called", "$screen_shown"]),
    Walk(
      name: "dismiss drops the rest of the list",
      interactions: press("close", #"{"type": "dismiss"}, {"type": "send_event", "eventName": "after_dismiss"}"#),
      inputs: [tap("close")], path: ["a"], status: "dismissed", events: ["$flow_dismissed"], absent: ["after_dismiss"]),
    Walk(
      name: "send_event is tracked, then $event_sent",
      interactions: press("go", #"{"type": "send_event", "eventName": "cta", "properties": {"k": "v"}}"#),
      inputs: [tap("go")], path: ["a"], events: ["cta", "$event_sent"]),
    Walk(
      name: "exit completes the flow",
      interactions: press("done", #"{"type": "exit", "reason": "completed"}"#),
      inputs: [tap("done")], path: ["a"], status: "completed", events: ["$journey_completed"]),
    Walk(
      name: "an unknown action is skipped, as the SDK does",
      interactions: press("go", #"{"type": "teleport"}, {"type": "navigate", "screenId": "c"}"#),
      inputs: [tap("go")], path: ["a", "c"]),
    Walk(
      name: "delay parks until its deadline; gestures wait",
      interactions: press("go", #"{"type": "delay", "durationMs": 1000}, {"type": "navigate", "screenId": "b"}"#)
        + ", " + press("to_c", #"{"type": "navigate", "screenId": "c"}"#),
      inputs: [tap("go"), .wait(ms: 999), tap("to_c"), .wait(ms: 1)], path: ["a", "b"]),
    Walk(
      name: "delay 0 does not wait",
      interactions: press("go", #"{"type": "delay", "durationMs": 0}, {"type": "navigate", "screenId": "b"}"#),
      inputs: [tap("go")], path: ["a", "b"]),
    Walk(
      name: "wait_until satisfied by a value set while waiting",
      interactions: press(
        "go",
        #"{"type": "wait_until", "maxTimeMs": 5000, "condition": {"type": "Compare", "op": "==", "left": {"type": "Response.Field", "key": "ready"}, "right": {"type": "Bool", "value": true}}, "successActions": [{"type": "navigate", "screenId": "b"}], "timeoutActions": [{"type": "navigate", "screenId": "c"}]}"#
      ),
      inputs: [tap("go"), .wait(ms: 100), .setVariable(name: "ready", value: .bool(true))], path: ["a", "b"]),
    Walk(
      name: "wait_until times out at its fixed deadline (T10)",
      interactions: press(
        "go",
        #"{"type": "wait_until", "maxTimeMs": 5000, "condition": {"type": "Compare", "op": "==", "left": {"type": "Response.Field", "key": "ready"}, "right": {"type": "Bool", "value": true}}, "successActions": [{"type": "navigate", "screenId": "b"}], "timeoutActions": [{"type": "navigate", "screenId": "c"}]}"#
      ),
      inputs: [tap("go"), .wait(ms: 4999), .wait(ms: 1)], path: ["a", "c"]),
    Walk(
      name: "time_window outside: waits for the opening (08:00 → 09:00)",
      interactions: press(
        "go",
        #"{"type": "time_window", "startTime": "09:00", "endTime": "17:00", "timezone": "UTC", "successActions": [{"type": "navigate", "screenId": "b"}]}"#
      ),
      inputs: [tap("go"), .wait(ms: 3_599_999), .wait(ms: 1)], path: ["a", "b"], now: 8 * 3_600_000),
    Walk(
      name: "time_window inside: runs at once",
      interactions: press(
        "go",
        #"{"type": "time_window", "startTime": "09:00", "endTime": "17:00", "successActions": [{"type": "navigate", "screenId": "b"}]}"#
      ),
      inputs: [tap("go")], path: ["a", "b"], now: 10 * 3_600_000),
    Walk(
      name: "time_window on a day not selected (1 = Sunday; 1970-01-01 was a Thursday) waits for Sunday",
      interactions: press(
        "go",
        #"{"type": "time_window", "startTime": "09:00", "endTime": "17:00", "daysOfWeek": [1], "successActions": [{"type": "navigate", "screenId": "b"}]}"#
      ),
      inputs: [tap("go"), .wait(ms: 2 * 86_400_000), .wait(ms: 86_400_000)], path: ["a", "b"], now: 10 * 3_600_000),
    Walk(
      name: "long_press is a control of its own: the component's, then the screen's long presses",
      interactions: press("card", #"{"type": "navigate", "screenId": "b"}"#).dropLast() + #"""
        , {"id": "hold", "trigger": {"type": "long_press", "minMs": 500}, "actions": [{"type": "navigate", "screenId": "c"}]}]
        """#,
      inputs: [tap("card~long_press")], path: ["a", "c"]),
    Walk(
      name: "did_set: setting a view-model value runs the interactions watching that path",
      interactions: press(
        "pick", #"{"type": "set_view_model", "path": "Paywall.plan", "value": {"literal": "annual"}}"#)
          + #"""
          , "a": [{"id": "watch", "trigger": {"type": "did_set", "path": "Paywall.plan"}, "actions": [{"type": "navigate", "screenId": "d"}]},
                  {"id": "other", "trigger": {"type": "did_set", "path": "Paywall.other"}, "actions": [{"type": "navigate", "screenId": "c"}]}]
          """#,
      inputs: [tap("pick")], path: ["a", "d"]),
    Walk(
      name: "goal sends $journey_goal_hit and the list goes on",
      interactions: press(
        "go", #"{"type": "goal", "goalId": " trial_started ", "label": "Trial"}, {"type": "navigate", "screenId": "b"}"#
      ),
      inputs: [tap("go")], path: ["a", "b"], events: ["$journey_goal_hit", "$screen_shown"]),
  ]

  @Test(arguments: walks)
  func walk(_ walk: Walk) throws {
    let loaded = Self.load(Self.flow(walk.interactions))
    let document = try #require(loaded.document, "\(loaded.diagnostics)")
    #expect(!loaded.diagnostics.hasErrors, "\(loaded.diagnostics)")
    var (session, outputs) = try Session.start(document: document, config: SessionConfig(now: walk.now))
    var path = [session.currentScreen.id]
    for input in walk.inputs {
      outputs += session.send(input)
      if !session.status.isEnded, path.last != session.currentScreen.id { path.append(session.currentScreen.id) }
    }
    #expect(path == walk.path)
    #expect(session.status.name == walk.status)
    let names = outputs.compactMap { if case .event(let event) = $0 { event.eventType } else { nil } }
    var rest = names[...]
    for name in walk.events {
      guard let index = rest.firstIndex(of: name) else {
        Issue.record("event \(name) missing (in order) from \(names)")
        break
      }
      rest = rest[(index + 1)...]
    }
    for name in walk.absent { #expect(!names.contains(name), "\(names)") }
    if let screenEvents = walk.screenEvents { #expect(names.filter { $0.hasPrefix("$screen_") } == screenEvents) }
  }

  /// Bridge actions park the session; the result picks the outlet (#13): the outcome's system
  /// event, its interactions, then the rest of the list.
  @Test(arguments: [
    ("purchase", ActionResult.success(nil), "b", "$purchase_completed"),
    ("purchase", .failure("declined"), "c", "$purchase_failed"),
    ("purchase", .cancelled, "a", "$purchase_cancelled"),
    ("restore", .success(nil), "b", "$restore_completed"),
    ("restore", .failure("offline"), "c", "$restore_failed"),
    ("restore", .cancelled, "d", "$restore_no_purchases"),
  ])
  func bridgeResultPicksTheOutlet(_ type: String, _ result: ActionResult, _ screen: String, _ event: String) throws {
    func on(_ name: String, _ target: String) -> String {
      #"{"id": "\#(name)", "trigger": {"type": "event", "eventName": "\#(name)"}, "actions": [{"type": "navigate", "screenId": "\#(target)"}]}"#
    }
    let json = #"""
      {"id": "ver_bridge", "screens": [{"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "d"}],
       "interactions": {
         "__global__": [\#(on("$purchase_completed", "b")), \#(on("$purchase_failed", "c")),
                        \#(on("$restore_completed", "b")), \#(on("$restore_failed", "c")), \#(on("$restore_no_purchases", "d"))],
         "go": [{"id": "go", "trigger": {"type": "press"}, "actions": [{"type": "\#(type)", "productId": {"literal": "pro"}}]}]}}
      """#
    let document = try #require(Self.load(json).document)
    var (session, _) = try Session.start(document: document, config: SessionConfig(now: 0, waitsForResults: true))
    _ = session.send(Self.tap("go"))
    guard case .awaiting(let pending) = session.status else {
      Issue.record("not awaiting: \(session.status)")
      return
    }
    #expect(pending.identifier == type)
    let outputs = session.send(.result(result))
    let names = outputs.compactMap { if case .event(let event) = $0 { event.eventType } else { nil } }
    #expect(names.first == event, "\(names)")
    #expect(session.currentScreen.id == screen)
    #expect(session.status == .running)
  }

  /// Conditions are IR, three-valued, fail-closed (§1.8): only true takes a branch; an unknown
  /// node, and `Not` of one, fall to the default actions.
  @Test(arguments: [
    (#"{"type": "User", "op": "eq", "key": "plan", "value": {"type": "String", "value": "pro"}}"#, "b"),
    (#"{"type": "User", "op": "eq", "key": "plan", "value": {"type": "String", "value": "free"}}"#, "c"),
    (#"{"type": "Mystery"}"#, "c"),
    (#"{"type": "Not", "arg": {"type": "Mystery"}}"#, "c"),
    (#"{"type": "Or", "args": [{"type": "Mystery"}, {"type": "Bool", "value": true}]}"#, "b"),
    (#"{"type": "User", "op": "is_set", "key": "missing"}"#, "c"),
  ])
  func conditionFailsClosed(_ condition: String, _ screen: String) throws {
    let interactions = Self.press(
      "go",
      #"{"type": "condition", "branches": [{"id": "yes", "condition": {"ir_version": 1, "expr": \#(condition)}, "actions": [{"type": "navigate", "screenId": "b"}]}], "defaultActions": [{"type": "navigate", "screenId": "c"}]}"#
    )
    let document = try #require(Self.load(Self.flow(interactions)).document)
    var (session, _) = try Session.start(document: document, config: SessionConfig(traits: ["plan": "pro"], now: 0))
    _ = session.send(Self.tap("go"))
    #expect(session.currentScreen.id == screen)
  }

  /// Experiments: the assignment is the session's (frozen: the same on every visit), and the
  /// exposure is sent once, where the flow runs the experiment.
  @Test(arguments: ["control", "treatment"])
  func experimentIsFrozenAndExposedOnce(_ variant: String) throws {
    let json = #"""
      {"id": "ver_exp", "screens": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
       "interactions": {
         "a": [{"id": "exp", "trigger": {"type": "event", "eventName": "$screen_shown"}, "actions": [{"type": "experiment", "experimentId": "copy",
                "variants": [{"id": "control", "percentage": 50, "actions": [{"type": "set_view_model", "path": "Copy.arm", "value": {"literal": "control"}}]},
                             {"id": "treatment", "percentage": 50, "actions": [{"type": "set_view_model", "path": "Copy.arm", "value": {"literal": "treatment"}}]}]}]}],
         "next": [{"id": "next", "trigger": {"type": "press"}, "actions": [{"type": "navigate", "screenId": "b"}]}],
         "back": [{"id": "back", "trigger": {"type": "press"}, "actions": [{"type": "back"}]}]}}
      """#
    let document = try #require(Self.load(json).document)
    var (session, outputs) = try Session.start(
      document: document, config: SessionConfig(variantOverrides: ["copy": variant], now: 0))
    outputs += session.send(Self.tap("next")) + session.send(Self.tap("back"))
    #expect(session.currentScreen.id == "a")
    #expect(session.data("Copy") == .object(["arm": .string(variant)]))
    let exposures = outputs.compactMap { output -> Event? in
      if case .event(let event) = output, event.eventType == "$experiment_exposure" { event } else { nil }
    }
    #expect(exposures.count == 1)
    #expect(exposures.first?.property("variant_key") == .string(variant))
    #expect(exposures.first?.property("experiment_key") == "copy")
  }

  /// What `check` (the loader) reports in Nuxie flows (#13 item 4), each with its id.
  @Test(arguments: [
    (press("go", #"{"type": "navigate", "screenId": "nowhere"}"#), "ref.unknown-screen"),
    (press("go", #"{"type": "delay", "durationMs": -5}"#), "campaign.negative-duration"),
    (press("go", #"{"type": "time_window", "startTime": "9:30", "endTime": "17:00"}"#), "campaign.malformed-time"),
    (press("go", #"{"type": "time_window", "startTime": "09:30", "endTime": "24:00"}"#), "campaign.malformed-time"),
    (
      press("go", #"{"type": "time_window", "startTime": "09:30", "endTime": "17:00", "daysOfWeek": [0]}"#),
      "nuxie.day-out-of-range"
    ),
    (press("go", #"{"type": "navgate", "screenId": "b"}"#), "load.unknown-action-type"),
    (#""go": [{"id": "x", "trigger": {"type": "pinch"}, "actions": []}]"#, "nuxie.unknown-trigger"),
    (press("go", #"{"type": "remote", "action": "sync"}"#), "nuxie.not-run-yet"),
    (press("go", #"{"type": "goal", "goalId": "  "}"#), "load.missing-key"),
  ])
  func loaderReports(_ interactions: String, _ id: String) {
    let loaded = Self.load(Self.flow(interactions))
    #expect(loaded.diagnostics.contains { $0.id == id }, "\(loaded.diagnostics.map(\.id))")
  }

  /// Without `components` each component host is a control of every screen; past 10,000
  /// controls the loader asks for the extension instead of building them.
  @Test func controlsWithoutComponentsAreBounded() {
    let screens = (0..<101).map { #"{"id": "s\#($0)"}"# }.joined(separator: ", ")
    let hosts = (0..<100).map { Self.press("c\($0)", #"{"type": "dismiss"}"#) }.joined(separator: ", ")
    let loaded = Self.load(#"{"id": "big", "screens": [\#(screens)], "interactions": {\#(hosts)}}"#)
    #expect(loaded.document == nil)
    #expect(loaded.diagnostics.map(\.id) == ["nuxie.too-many-controls"])
  }
}
