import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections
import Testing

/// Documents 000 and 003 in the engine: returning users, host events, declined native screens,
/// transitions in the trace, unavailable flags, button analytics, the platform.
@Suite struct DocumentFidelityTests {
  func signInFlow() -> Flow {
    let custom = CustomAction(identifier: "auth.email", awaitResult: true)
    return flow("f", [screen("a", [button("go", "Email", .custom(custom))]), legacy("b"), legacy("c")])
  }

  @Test(arguments: [
    (Value.object(["email": "a@b.co", "$markOnboardingCompleted": true]), SessionStatus.completed, "a"),
    (Value.object(["email": "a@b.co", "$markOnboardingCompleted": false]), SessionStatus.running, "b"),
    (Value.object(["email": "a@b.co"]), SessionStatus.running, "b"),
  ])
  func markOnboardingCompletedEndsTheSession(_ data: Value, _ status: SessionStatus, _ screenID: String) {
    var session = begin(document(signInFlow()), SessionConfig(now: jan2026, waitsForResults: true)).0
    _ = session.send(.tap(.number(1)))
    _ = session.send(.result(.success(data)))
    #expect(session.status == status)
    #expect(session.currentScreen.id == screenID)
    #expect(session.data("email") == "a@b.co")
    #expect(session.data("$markOnboardingCompleted") == nil)
    if status == .completed {
      #expect(session.events.last?.eventType == "onboarding_completed")
      #expect(session.trace.last?.headline == "result of 'auth.email': success marks onboarding completed → complete")
    }
  }

  @Test func hostEventsAreEmittedAtTheCurrentScreenEvenWhileWaiting() {
    var session = begin(document(signInFlow()), SessionConfig(now: jan2026, waitsForResults: true)).0
    _ = session.send(.tap(.number(1)))
    let outputs = session.send(.track(.screenCompleted, properties: ["source": "host"]))
    #expect(outputs.eventTypes == ["screen_completed"])
    #expect(outputs.events[0].screenID == "a")
    #expect(outputs.events[0].property("source") == "host")
    #expect(session.pending != nil)
  }

  @Test(arguments: [
    ("buttonTapped", EventType.buttonTapped), ("button_tapped", .buttonTapped), (".screenViewed", .screenViewed),
  ])
  func eventTypesByWireOrSwiftName(_ name: String, _ type: EventType) {
    #expect(EventType.named(name) == type)
  }

  @Test func unknownEventTypeSuggestsTheClosest() {
    #expect(EventType.named("screen_complted") == nil)
    #expect(
      EventType.unknownMessage("screen_complted").hasPrefix(
        "unknown event type 'screen_complted' (did you mean 'screen_completed'?)"))
  }

  @Test func declinedNativeScreenGetsItsButton() {
    var session = begin(flow("f", [legacy("login", button: "Go on", kind: .native), legacy("b")]))
    #expect(session.pending != nil)
    #expect(session.actions.isEmpty)
    #expect(session.send(.tap(.number(1))).rejection != nil)
    #expect(session.send(.decline).rejection == nil)
    #expect(session.pending == nil)
    #expect(session.actions.map(\.label) == ["Go on"])
    _ = session.send(.tap(.number(1)))
    #expect(session.currentScreen.id == "b")
    #expect(session.send(.decline).rejection?.contains("nothing to decline") == true)
  }

  @Test func transitionsAreTracedFromRulesThenScreens() {
    var a = screen("a", [button("go", "Go")])
    a.transition = .fade
    var b = legacy("b")
    b.transition = .scale
    var flowWithTransitions = flow("f", [a, b, legacy("c")])
    flowWithTransitions.transitions = [TransitionRule(fromScreenID: "b", toScreenID: "c", transition: .slideUp)]
    var session = begin(flowWithTransitions)
    _ = session.send(.tap(.number(1)))
    _ = session.send(.tap(.number(1)))
    let headlines = session.trace.map(\.headline).filter { $0.hasPrefix("transition") }
    #expect(
      headlines == [
        "transition a → b: scale (transition of b)", "transition b → c: slide-up (transitions entry b → c)",
      ])
  }

  func experimentDocument() -> FlowDocument {
    let experiment = Experiment(
      id: "onboarding-experiment", salt: nil,
      variants: [.init(id: "variant-base", weight: 0.0001), .init(id: "variant-b", weight: 100)],
      defaultVariant: "variant-base", location: here)
    return document(abc(), experiments: [experiment])
  }

  @Test func unavailableFlagKeepsTheDefaultVariant() {
    let bucketed = begin(experimentDocument()).0
    #expect(bucketed.variants["onboarding-experiment"] == "variant-b")
    var config = SessionConfig(now: jan2026)
    config.unavailableFlags = ["onboarding-experiment"]
    let (session, outputs) = begin(experimentDocument(), config)
    #expect(session.variants["onboarding-experiment"] == "variant-base")
    let assigned = outputs.events.first { $0.eventType == "experiment_variant_assigned" }
    #expect(assigned?.property("reason") == "flag_unavailable")
    #expect(
      session.trace.first?.headline
        == "experiment 'onboarding-experiment': flag unavailable → default variant 'variant-base'")
  }

  @Test func buttonAnalyticsFollowTheButtonProperties() {
    let analytics: Value = .object([
      "category": "onboarding", "object": "next_button", "verb": "click", "params": .object(["screen": "screen_one"]),
    ])
    let tracked = Block(
      id: "next_button", type: "button", order: 0, visible: true, visibleWhen: nil,
      content: .button(ButtonBlock(text: tpl("Next"), action: .next, variant: nil, preset: nil, analytics: analytics)),
      location: here)
    var session = begin(flow("f", [screen("a", [tracked]), legacy("b")]))
    let outputs = session.send(.tap(.number(1)))
    let properties = outputs.events[0].properties
    #expect(Array(properties.keys) == ["button_id", "button_text", "action", "category", "object", "verb", "params"])
    #expect(properties["params"] == .object(["screen": "screen_one"]))
  }

  @Test func platformIsReportedOnlyWhenGiven() {
    let plain = begin(document(abc())).1
    #expect(plain.events[0].property("platform") == nil)
    var config = SessionConfig(now: jan2026, platform: "android")
    config.reportsPlatform = true
    let (session, outputs) = begin(document(abc()), config)
    #expect(outputs.events[0].property("platform") == "android")
    #expect(session.render(tpl("{$platform}")) == "android")
  }
}
