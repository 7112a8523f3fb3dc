import FlowEngine
import FlowExpression
import FlowFormat
import Testing

@Suite struct NavigationTests {
  @Test func startEmitsStartedThenFirstScreen() {
    let (session, outputs) = begin(document(abc()))
    #expect(outputs.eventTypes == ["onboarding_started", "screen_viewed", "screen_first_viewed"])
    #expect(session.currentScreen.id == "a")
    #expect(session.path == ["a"])
    #expect(session.status == .running)
    #expect(outputs.last == .screenShown(flowID: "abc", screenID: "a"))
  }

  @Test func nextFromAToB() {
    var session = begin(abc())
    let outputs = session.send(.tap(.number(1)))
    #expect(outputs.eventTypes == ["button_tapped", "screen_completed", "screen_viewed", "screen_first_viewed"])
    let completed = outputs.events[1]
    #expect(completed.screenID == "a")
    #expect(completed.property("next_screen_id") == "b")
    #expect(completed.property("screen_name") == "A")
    #expect(outputs.events[0].property("button_id") == "primary")
    #expect(outputs.events[0].property("button_text") == "Continue")
    #expect(outputs.events[0].property("action") == "next")
    #expect(session.currentScreen.id == "b")
  }

  @Test func nextInputHasNoButtonTapped() {
    var session = begin(abc())
    #expect(session.send(.next).eventTypes == ["screen_completed", "screen_viewed", "screen_first_viewed"])
  }

  @Test func nextOnLastScreenCompletes() {
    var session = begin(abc())
    _ = session.send(.next)
    _ = session.send(.next)
    let outputs = session.send(.tap(.label("continue")))
    #expect(outputs.eventTypes == ["button_tapped", "screen_completed", "onboarding_completed"])
    #expect(outputs.events[1].property("next_screen_id") == .null)
    #expect(session.status == .completed)
    #expect(outputs.last == .ended(.completed))
    #expect(session.send(.next).rejection?.contains("has ended") == true)
  }

  @Test func backReturnsAndViewedAgainWithoutFirstViewed() {
    var session = begin(abc())
    _ = session.send(.next)
    let outputs = session.send(.back)
    #expect(outputs.eventTypes == ["screen_completed", "screen_viewed"])
    #expect(outputs.events[0].property("next_screen_id") == "a")
    #expect(session.currentScreen.id == "a")
    #expect(session.path == ["a", "b", "a"])
    #expect(session.history.isEmpty)
  }

  @Test func backOnFirstScreenIsASilentNoOp() {
    var session = begin(abc())
    let outputs = session.send(.back)
    #expect(outputs.isEmpty)
    #expect(session.currentScreen.id == "a")
  }

  @Test(arguments: [
    (FlowSettings(allowBack: false), false, "back is not allowed"),
    (FlowSettings(), true, "back is hidden"),
  ])
  func backForbidden(settings: FlowSettings, hideBack: Bool, message: String) {
    var second = legacy("b")
    second.hideBack = hideBack
    var session = begin(flow("f", [legacy("a"), second], settings: settings))
    _ = session.send(.next)
    let before = session
    #expect(session.send(.back).rejection?.contains(message) == true)
    #expect(session == before)
  }

  @Test func rulesFirstMatchWinsAndTraceExplains() {
    let f = flow(
      "f",
      [
        screen(
          "goal_screen", [input("goal"), input("age", kind: .number)],
          rules: [
            rule("goal == 'lose' && age >= 18", "weight_plan"), rule("goal == 'build'", "muscle_plan"),
            rule(nil, "general"),
          ]),
        legacy("weight_plan"), legacy("muscle_plan"), legacy("general"),
      ])
    var session = begin(f)
    _ = session.send(.set(field: "goal", value: "build"))
    _ = session.send(.next)
    #expect(session.currentScreen.id == "muscle_plan")
    let decision = try! #require(session.lastBranchDecision)
    #expect(decision.lines[0] == "leaving goal_screen via next")
    #expect(decision.lines[1].hasPrefix("  rule 1  goal == 'lose' && age >= 18   goal='build'"))
    #expect(decision.lines[1].hasSuffix("→ false (first clause)"))
    #expect(
      decision.lines[2] == "  rule 2  goal == 'build'" + String(repeating: " ", count: 15)
        + "goal='build' → true  → muscle_plan")
    #expect(decision.rules.count == 2)
  }

  @Test(arguments: [
    ("x", "general"), ("lose", "$complete"),
  ])
  func fallbackRuleAndComplete(goal: String, expected: String) {
    let f = flow(
      "f",
      [
        screen("q", [input("goal")], rules: [rule("goal == 'lose'", "$complete"), rule(nil, "general")]),
        legacy("general"),
      ])
    var session = begin(f)
    _ = session.send(.set(field: "goal", value: .string(goal)))
    _ = session.send(.next)
    if expected == "$complete" {
      #expect(session.status == .completed)
    } else {
      #expect(session.currentScreen.id == expected)
    }
  }

  @Test func nextKeyAndOrder() {
    let f = flow("f", [screen("a", [button("go", "Go")], next: "c"), legacy("b"), legacy("c")])
    var session = begin(f)
    _ = session.send(.tap(.blockID("go")))
    #expect(session.currentScreen.id == "c")
    #expect(session.lastBranchDecision?.details == ["next key → c"])
  }

  @Test func unknownTargetStaysAndTraceSaysWhy() {
    let f = flow(
      "f",
      [
        screen("a", [button("go", "Go", .screen("nowhere")), button("r", "R")], rules: [rule(nil, "ghost")]),
        legacy("b"),
      ])
    var session = begin(f)
    let outputs = session.send(.tap(.label("Go")))
    #expect(outputs.eventTypes == ["button_tapped"])
    #expect(session.currentScreen.id == "a")
    #expect(session.lastDecision?.lines.last?.contains("does not exist") == true)
    _ = session.send(.tap(.label("R")))
    #expect(session.currentScreen.id == "a")
    #expect(session.lastDecision?.lines.last == "  screen 'ghost' does not exist in flow 'f' → staying")
  }

  @Test func unknownActionRunsAsNext() {
    var session = begin(flow("f", [screen("a", [button("x", "X", .unknown(type: "teleport"))]), legacy("b")]))
    _ = session.send(.tap(.number(1)))
    #expect(session.currentScreen.id == "b")
  }

  @Test func openURLStaysWithTrace() {
    var session = begin(
      flow("f", [screen("a", [button("x", "Terms", .openURL("https://x.test/terms"))]), legacy("b")]))
    let outputs = session.send(.tap(.number(1)))
    #expect(outputs.eventTypes == ["button_tapped"])
    #expect(outputs.events[0].property("action") == "openUrl")
    #expect(session.currentScreen.id == "a")
    #expect(session.lastDecision?.headline.contains("https://x.test/terms") == true)
  }

  @Test func completeActionValidates() {
    var session = begin(
      flow("f", [screen("a", [input("name", required: true), button("d", "Done", .complete)]), legacy("b")]))
    #expect(session.send(.tap(.label("done"))).eventTypes == ["button_tapped", "validation_failed"])
    _ = session.send(.set(field: "name", value: "Alex"))
    #expect(
      session.send(.tap(.label("done"))).eventTypes == ["button_tapped", "screen_completed", "onboarding_completed"])
    #expect(session.status == .completed)
  }

  @Test func skipWithoutSkipActionLeavesForwardWithoutValidation() {
    var session = begin(flow("f", [screen("a", [input("name", required: true)], skipText: "Skip"), legacy("b")]))
    #expect(session.actions.map(\.label) == ["Skip"])
    let outputs = session.send(.tap(.label("skip")))
    #expect(
      outputs.eventTypes == [
        "button_tapped", "screen_skipped", "screen_completed", "screen_viewed", "screen_first_viewed",
      ])
    #expect(outputs.events[0].property("button_id") == "skip")
    #expect(session.currentScreen.id == "b")
  }

  @Test func skipWithSkipAction() {
    let f = flow("f", [legacy("a", skipText: "Later", skipAction: .screen("c")), legacy("b"), legacy("c")])
    var session = begin(f)
    #expect(session.actions.map(\.label) == ["Continue", "Later"])
    let outputs = session.send(.skip)
    #expect(outputs.eventTypes == ["screen_skipped", "screen_completed", "screen_viewed", "screen_first_viewed"])
    #expect(session.currentScreen.id == "c")
  }

  @Test func skipWithoutControlIsRejected() {
    var session = begin(abc())
    let before = session
    #expect(session.send(.skip).rejection == "screen 'a' has no skip control")
    #expect(session == before)
  }

  @Test func dismissByButtonAndInput() {
    var session = begin(flow("f", [screen("a", [button("x", "Close", .dismiss)]), legacy("b")]))
    let outputs = session.send(.tap(.label("Close")))
    #expect(outputs.eventTypes == ["button_tapped", "screen_dropped_off", "onboarding_dismissed"])
    #expect(outputs.events[1].property("reason") == "dismissed")
    #expect(outputs.events[2].property("last_screen_id") == "a")
    #expect(outputs.events[2].property("last_screen_index") == 0)
    #expect(session.status == .dismissed)

    var other = begin(abc())
    #expect(other.send(.dismiss).eventTypes == ["screen_dropped_off", "onboarding_dismissed"])
  }

  @Test func dismissNotAllowed() {
    var session = begin(abc(settings: FlowSettings(dismissAllowed: false)))
    let before = session
    #expect(session.send(.dismiss).rejection?.contains("dismissAllowed") == true)
    #expect(session == before)
  }

  @Test(arguments: [DropOffReason.quit, .endOfInput])
  func quit(reason: DropOffReason) {
    var session = begin(abc())
    let outputs = session.send(.quit(reason: reason))
    #expect(outputs.eventTypes == ["screen_dropped_off"])
    #expect(outputs.events[0].property("reason") == .string(reason.rawValue))
    #expect(session.status == .quit(reason))
  }

  @Test func debugGotoJumpsWithoutValidationAndIsTraced() {
    var session = begin(flow("f", [screen("a", [input("n", required: true)]), legacy("b"), legacy("c")]))
    let outputs = session.send(.goto(screenID: "c"))
    #expect(outputs.eventTypes == ["screen_completed", "screen_viewed", "screen_first_viewed"])
    #expect(session.currentScreen.id == "c")
    #expect(session.trace.contains { $0.isDebug && $0.headline.contains("goto c") })
    #expect(session.send(.goto(screenID: "zz")).rejection?.contains("no screen 'zz'") == true)
  }

  @Test func tapRejectionsNameTheButtons() {
    var session = begin(flow("welcome", [legacy("welcome", skipText: "Skip"), legacy("b")]))
    let before = session
    #expect(
      session.send(.tap(.label("Foo"))).rejection == "no button 'Foo' on screen 'welcome' (buttons: Continue, Skip)")
    #expect(session.send(.tap(.number(3))).rejection == "no button 3 on screen 'welcome' (buttons: Continue, Skip)")
    #expect(session.send(.tap(.blockID("x"))).rejection != nil)
    #expect(session == before)
  }

  @Test func buttonNumberingFollowsVisibleButtonsThenSkip() {
    let s = screen(
      "a",
      [
        text("t", "Hi"), button("b1", "One"), input("mode"), button("hidden", "Hidden", when: "mode == 'x'"),
        button("b2", "Two"),
      ], skipText: "Skip")
    var session = begin(flow("f", [s, legacy("b")]))
    #expect(session.actions.map(\.number) == [1, 2, 3])
    #expect(session.actions.map(\.label) == ["One", "Two", "Skip"])
    _ = session.send(.set(field: "mode", value: "x"))
    #expect(session.actions.map(\.label) == ["One", "Hidden", "Two", "Skip"])
    #expect(session.actions[1].blockID == "hidden")
  }
}
