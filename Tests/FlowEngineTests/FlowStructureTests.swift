import FlowEngine
import FlowExpression
import FlowFormat
import Testing

@Suite struct FlowStructureTests {
  func bundle() -> FlowDocument {
    let parent = flow(
      "main", [legacy("intro"), legacy("profile", kind: .flow, subflow: "child"), legacy("after"), legacy("end")])
    let child = flow("child", [legacy("c1"), screen("c2", [input("x"), button("bye", "Bye", .dismiss)])])
    return document(parent, child)
  }

  @Test func subflowEnterCompleteAndRulesOfFlowScreen() {
    var session = begin(bundle()).0
    let enter = session.send(.next)
    #expect(enter.eventTypes == ["screen_completed", "screen_viewed", "screen_first_viewed"])
    #expect(enter.events[0].property("next_screen_id") == "profile")
    #expect(enter.events[1].flowID == "child")
    #expect(session.currentFlow.id == "child")
    #expect(session.currentScreen.id == "c1")
    #expect(session.subflowStack.map(\.screenID) == ["profile"])
    _ = session.send(.next)
    let leave = session.send(.next)
    #expect(leave.eventTypes == ["screen_completed", "screen_viewed", "screen_first_viewed"])
    #expect(leave.events[0].flowID == "child")
    #expect(leave.events[0].property("next_screen_id") == "after")
    #expect(session.currentFlow.id == "main")
    #expect(session.currentScreen.id == "after")
    #expect(session.path == ["intro", "c1", "c2", "after"])
    // back from the parent returns into the child
    _ = session.send(.back)
    #expect(session.currentScreen.id == "c2")
    #expect(session.currentFlow.id == "child")
  }

  @Test func backFromChildFirstScreenReturnsBeforeFlowScreen() {
    var session = begin(bundle()).0
    _ = session.send(.next)
    let outputs = session.send(.back)
    #expect(outputs.eventTypes == ["screen_completed", "screen_viewed"])
    #expect(session.currentScreen.id == "intro")
    #expect(session.currentFlow.id == "main")
    #expect(session.subflowStack.isEmpty)
  }

  @Test func childDismissDismissesAll() {
    var session = begin(bundle()).0
    _ = session.send(.next)
    _ = session.send(.next)
    let outputs = session.send(.tap(.label("Bye")))
    #expect(outputs.eventTypes == ["button_tapped", "screen_dropped_off", "onboarding_dismissed"])
    #expect(session.status == .dismissed)
  }

  @Test func onEnterRedirectNeverShowsTheScreen() {
    let f = flow("f", [legacy("a"), legacy("gate", onEnter: .screen("c")), legacy("b"), legacy("c")])
    var session = begin(f)
    let outputs = session.send(.next)
    #expect(outputs.eventTypes == ["screen_completed", "screen_viewed", "screen_first_viewed"])
    #expect(outputs.events[1].screenID == "c")
    #expect(session.path == ["a", "c"])
    #expect(session.trace.contains { $0.kind == .onEnter })
    _ = session.send(.back)
    #expect(session.currentScreen.id == "a")
  }

  @Test func onEnterThatStaysShowsTheScreenAfterItsEvents() {
    let f = flow("f", [legacy("a", onEnter: .custom(CustomAction(identifier: "track"))), legacy("b")])
    let (session, outputs) = begin(document(f))
    #expect(outputs.eventTypes == ["onboarding_started", "action_requested", "screen_viewed", "screen_first_viewed"])
    #expect(session.currentScreen.id == "a")
  }

  @Test func stepBudgetStopsOnEnterLoop() {
    let f = flow("f", [legacy("a"), legacy("x", onEnter: .screen("y")), legacy("y", onEnter: .screen("x"))])
    var session = begin(document(f), SessionConfig(now: jan2026, stepBudget: 50)).0
    let outputs = session.send(.next)
    guard case .failed(let message) = session.status else {
      Issue.record("expected failure, got \(session.status)")
      return
    }
    #expect(message.contains("step budget of 50"))
    #expect(outputs.contains(.error(message)))
    #expect(outputs.last == .ended(.failed(message)))
    #expect(session.steps == 51)
    #expect(session.send(.next).rejection != nil)
  }

  @Test func stepBudgetDefaultStopsRuleLoopWithoutHanging() {
    let f = flow("f", [legacy("a", onEnter: .next, rules: [rule(nil, "a")])])
    var session = begin(f)
    if case .failed = session.status {} else { Issue.record("expected failure") }
    #expect(session.send(.next).rejection != nil)
  }

  @Test func fillerAutoAdvancesOnWait() {
    let f = flow(
      "f",
      [
        legacy("a"), legacy("f1", kind: .filler, autoAdvanceMs: 2000), legacy("f2", kind: .filler, autoAdvanceMs: 1000),
        legacy("z"),
      ])
    var session = begin(f)
    _ = session.send(.next)
    #expect(session.send(.wait(ms: 1999)).isEmpty)
    #expect(session.currentScreen.id == "f1")
    let outputs = session.send(.wait(ms: 2001))
    #expect(session.currentScreen.id == "z")
    #expect(
      outputs.eventTypes == [
        "screen_completed", "screen_viewed", "screen_first_viewed", "screen_completed", "screen_viewed",
        "screen_first_viewed",
      ])
    #expect(outputs.events[0].property("duration_ms") == 2000)
    #expect(outputs.events[3].time == jan2026 + 3000)
    #expect(session.virtualNow == jan2026 + 4000)
    #expect(session.trace.filter { $0.kind == .autoAdvance }.count == 2)
    #expect(session.send(.wait(ms: -1)).rejection != nil)
  }

  @Test func experimentsAssignOverrideAndReplaceEntryFlow() {
    let experiment = Experiment(
      id: "onb_length", salt: "2026q1",
      variants: [.init(id: "control", weight: 50), .init(id: "short", weight: 50, flow: "short")], location: here)
    let doc = document(abc(), flow("short", [legacy("s1")]), experiments: [experiment])
    let forced = begin(doc, SessionConfig(variantOverrides: ["onb_length": "short"], now: jan2026))
    #expect(forced.0.currentFlow.id == "short")
    #expect(
      forced.1.eventTypes == [
        "onboarding_started", "experiment_variant_assigned", "screen_viewed", "screen_first_viewed",
      ])
    #expect(forced.1.events.allSatisfy { $0.experimentID == "onb_length" && $0.variantID == "short" })
    #expect(forced.0.render(tpl("{$variant.onb_length}")) == "short")
    let control = begin(doc, SessionConfig(variantOverrides: ["onb_length": "control"], now: jan2026)).0
    #expect(control.currentFlow.id == "abc")
    // Bucketing is deterministic and follows the weights.
    var counts: [String: Int] = [:]
    for user in 0..<400 {
      let variant = VariantAssignment.variant(of: experiment, userID: "u\(user)")!.id
      counts[variant, default: 0] += 1
      #expect(VariantAssignment.variant(of: experiment, userID: "u\(user)")!.id == variant)
    }
    #expect(counts["control"]! > 120 && counts["short"]! > 120)
  }

  @Test func assignedExperimentIsOnEveryEvent() {
    let f = flow("f", [legacy("a")], assigned: AssignedExperiment(id: "exp1", variantID: "v2", variantName: "B"))
    var session = begin(f)
    _ = session.send(.next)
    #expect(session.events.allSatisfy { $0.experimentID == "exp1" && $0.variantID == "v2" })
    #expect(session.events.map(\.seq) == Array(1...session.events.count))
  }
}
