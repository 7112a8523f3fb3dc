import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections
import Testing

/// Nuxie era C flow descriptions (`screens` with `handlers`, research §1.3) compiled by the
/// loader and walked by the engine: declaration-strict dispatch (the D fixture
/// `handler-host-dispatch/lifecycle.json`, restated), the entry handlers, handler order, the
/// controls a screen declares and `viewModelValues`.
@Suite struct NuxieFlowDescriptionTests {
  struct Dispatch: Sendable, CustomStringConvertible {
    var name: String
    /// The `events` member (declarations), or nil for a document without `events`.
    var events: String?
    /// The `handlers` member's hosts.
    var handlers: String
    /// Marker events sent, in order (each handler sends its marker with `send_event`).
    var fired: [String]

    var description: String { name }
  }

  static func marker(_ host: String, _ event: String, _ marker: String) -> String {
    #""\#(host)": [{"id": "\#(marker)", "eventName": "\#(event)", "actions": [{"type": "send_event", "eventName": "\#(marker)"}]}]"#
  }

  static func handlers(_ pairs: String...) -> String { pairs.joined(separator: ", ") }

  /// `$screen_shown` runs as `screen-1` is shown; `server_signal` is the journey's entry event.
  static let dispatches: [Dispatch] = [
    Dispatch(
      name: "1 a screen that declares $screen_shown takes it, the journey does not",
      events: #"{"screen-1": [{"eventName": "$screen_shown"}]}"#,
      handlers: handlers(
        marker("screen-1", "$screen_shown", "via_screen"), marker("__journey__", "$screen_shown", "via_journey")),
      fired: ["via_screen"]),
    Dispatch(
      name: "3 undeclared on the screen, declared by the journey: the journey's",
      events: #"{"screen-1": [], "__journey__": [{"eventName": "$screen_shown"}]}"#,
      handlers: handlers(
        marker("screen-1", "$screen_shown", "undeclared_screen_shown"),
        marker("__journey__", "$screen_shown", "journey_shown")),
      fired: ["journey_shown"]),
    Dispatch(
      name: "5 undeclared on the screen, no journey handler: none",
      events: #"{"screen-1": []}"#, handlers: marker("screen-1", "$screen_shown", "undeclared_screen_only"),
      fired: []),
    Dispatch(
      name: "6 the journey declares nothing (an empty list): its lifecycle handler does not run",
      events: #"{"screen-1": [], "__journey__": []}"#,
      handlers: marker("__journey__", "$screen_shown", "undeclared_journey_lifecycle"), fired: []),
    Dispatch(
      name: "8 a journey event the journey declares runs",
      events: #"{"screen-1": [], "__journey__": [{"eventName": "server_signal"}]}"#,
      handlers: marker("__journey__", "server_signal", "declared_journey_event"), fired: ["declared_journey_event"]),
    Dispatch(
      name: "9 a journey event the journey does not declare does not run",
      events: #"{"screen-1": [], "__journey__": []}"#,
      handlers: marker("__journey__", "server_signal", "undeclared_journey_event"), fired: []),
    Dispatch(
      name: "without `events` the journey host takes undeclared events (C's code; back-push fixture)",
      events: nil, handlers: marker("__journey__", "server_signal", "lenient_journey"), fired: ["lenient_journey"]),
    Dispatch(
      name: "handlers run by `order`, ties by position; $app_opened is the entry when present",
      events: nil,
      handlers: #"""
        "__journey__": [
          {"id": "x", "eventName": "server_signal", "actions": [{"type": "send_event", "eventName": "not_entry"}]},
          {"id": "b", "eventName": "$app_opened", "order": 2, "actions": [{"type": "send_event", "eventName": "second"}]},
          {"id": "c", "eventName": "$app_opened", "order": 2, "actions": [{"type": "send_event", "eventName": "third"}]},
          {"id": "a", "eventName": "$app_opened", "order": 1, "actions": [{"type": "send_event", "eventName": "first"}]},
          {"id": "off", "eventName": "$app_opened", "enabled": false, "actions": [{"type": "send_event", "eventName": "off"}]}
        ]
        """#,
      fired: ["first", "second", "third"]),
  ]

  static func document(events: String?, handlers: String) throws -> FlowDocument {
    let json = #"""
      {"id": "flow-c", "screens": [{"id": "screen-1"}, {"id": "screen-2"}],
       \#(events.map { #""events": \#($0), "# } ?? "")"handlers": {\#(handlers)}}
      """#
    let loaded = FlowLoader.load(bytes: Array(json.utf8), file: "description.json")
    #expect(!loaded.diagnostics.hasErrors, "\(loaded.diagnostics)")
    return try #require(loaded.document, "\(loaded.diagnostics)")
  }

  static func names(_ outputs: [Output]) -> [String] {
    outputs.compactMap { if case .event(let event) = $0 { event.eventType } else { nil } }
  }

  @Test(arguments: dispatches)
  func dispatch(_ example: Dispatch) throws {
    let document = try Self.document(events: example.events, handlers: example.handlers)
    let (_, outputs) = try Session.start(document: document, config: SessionConfig(now: 0))
    let markers = Self.names(outputs).filter { !$0.hasPrefix("$") }
    #expect(markers == example.fired)
  }

  /// A screen's declared events are its controls (system `$…` events are not); a press sends
  /// the event to that screen's handlers only (never both hosts), and `back` pops the stack.
  @Test func declaredEventsAreControls() throws {
    let document = try Self.document(
      events:
        #"{"screen-1": [{"eventName": "next_tapped"}, {"eventName": "$purchase_completed"}], "screen-2": [{"eventName": "go_back"}]}"#,
      handlers: #"""
        "screen-1": [{"eventName": "next_tapped", "actions": [{"type": "navigate", "screenId": "screen-2"}]}],
        "screen-2": [{"eventName": "go_back", "actions": [{"type": "back"}]}],
        "__journey__": [{"eventName": "next_tapped", "actions": [{"type": "send_event", "eventName": "journey_ran"}]}]
        """#)
    let labels = document.flows[0].screens.map { screen in
      screen.content.blocks.compactMap { if case .button = $0.content { $0.id } else { nil } }
    }
    #expect(labels == [["next_tapped"], ["go_back"]])
    var (session, outputs) = try Session.start(document: document, config: SessionConfig(now: 0))
    outputs += session.send(.tap(.blockID("next_tapped")))
    #expect(session.currentScreen.id == "screen-2")
    outputs += session.send(.tap(.blockID("go_back")))
    #expect(session.currentScreen.id == "screen-1")
    // The journey's `next_tapped` handler is the entry (its first handler): it ran once as the
    // session started, not again for the press, which the screen declares.
    #expect(Self.names(outputs).filter { $0 == "journey_ran" }.count == 1)
    #expect(
      Self.names(outputs).firstIndex(of: "journey_ran") ?? 9 < Self.names(outputs).firstIndex(of: "$screen_shown") ?? 0)
  }

  /// `viewModelValues` are the values the session starts with, each at its path.
  @Test func viewModelValuesAreTheStartingValues() throws {
    let json = #"""
      {"id": "flow-c", "screens": [{"id": "screen-1"}], "handlers": {},
       "viewModelValues": [
         {"viewModelName": "Offer", "path": "headline", "value": "Save 40%"},
         {"viewModelName": "Offer", "path": "price.amount", "value": 9.99}]}
      """#
    let loaded = FlowLoader.load(bytes: Array(json.utf8), file: "description.json")
    let document = try #require(loaded.document, "\(loaded.diagnostics)")
    let (session, _) = try Session.start(document: document, config: SessionConfig(now: 0))
    #expect(
      session.data("Offer")
        == .object(["headline": .string("Save 40%"), "price": .object(["amount": .number(9.99)])]))
  }
}

/// `:track NAME {props}` with a name of the flow's own vocabulary (not an engine event type):
/// a Nuxie flow takes it and a parked `wait_until` sees it as its `Event`; other dialects
/// refuse it with the closest event type.
@Suite struct NamedTrackTests {
  static let flow = #"""
    {"id": "ver_wait", "screens": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
     "interactions": {"__global__": [{"id": "start", "trigger": {"type": "start"}, "actions": [
       {"type": "wait_until", "maxTimeMs": 10000,
        "condition": {"type": "Event", "op": "eq", "key": "ready", "value": {"type": "Bool", "value": true}},
        "successActions": [{"type": "navigate", "screenId": "b"}], "timeoutActions": [{"type": "navigate", "screenId": "c"}]}]}]}}
    """#

  @Test(arguments: [
    (["ready": Value.bool(true)], "b", "running"), (["ready": .bool(false)], "a", "awaiting"), ([:], "a", "awaiting"),
  ])
  func trackedEventIsTheConditionsEvent(_ properties: [String: Value], _ screen: String, _ status: String) throws {
    let loaded = FlowLoader.load(bytes: Array(Self.flow.utf8), file: "wait.json")
    let document = try #require(loaded.document, "\(loaded.diagnostics)")
    var (session, _) = try Session.start(document: document, config: SessionConfig(now: 0))
    let outputs = session.send(
      .track(named: "qualified", properties: OrderedDictionary(uniqueKeysWithValues: properties.map { ($0, $1) })))
    #expect(outputs.rejection == nil)
    #expect(NuxieFlowDescriptionTests.names(outputs).first == "qualified")
    #expect(session.currentScreen.id == screen)
    #expect(session.status.name == status)
  }

  @Test func otherDialectsRefuseANameThatIsNoEventType() throws {
    let json = #"{"screens": [{"id": "a", "type": "custom", "content": {"buttonText": "Go"}}]}"#
    let loaded = FlowLoader.load(bytes: Array(json.utf8), file: "sequence.json")
    let document = try #require(loaded.document, "\(loaded.diagnostics)")
    var (session, _) = try Session.start(document: document, config: SessionConfig(now: 0))
    let rejection = session.send(.track(named: "screen_complted", properties: [:])).rejection
    #expect(rejection?.hasPrefix("unknown event type 'screen_complted' (did you mean 'screen_completed'?)") == true)
  }
}
