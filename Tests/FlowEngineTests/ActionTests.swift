import FlowEngine
import FlowExpression
import FlowFormat
import Testing

@Suite struct ActionTests {
  func actionFlow(_ custom: CustomAction) -> Flow {
    flow("f", [screen("a", [input("n"), button("go", "Go", .custom(custom))]), legacy("b"), legacy("c")])
  }

  @Test func notAwaitedStays() {
    var session = begin(actionFlow(CustomAction(identifier: "system.review")))
    let outputs = session.send(.tap(.label("Go")))
    #expect(outputs.eventTypes == ["button_tapped", "action_requested"])
    #expect(outputs.events[1].property("await_result") == false)
    #expect(session.currentScreen.id == "a")
    #expect(session.status == .running)
  }

  @Test func unhandledInNonInteractiveRunFails() {
    var session = begin(actionFlow(CustomAction(identifier: "auth.apple", awaitResult: true)))
    let outputs = session.send(.tap(.label("Go")))
    #expect(outputs.eventTypes == ["button_tapped", "action_requested", "action_result"])
    #expect(outputs.events[2].property("status") == "failure")
    #expect(outputs.events[2].property("error") == "unhandled action: auth.apple")
    #expect(session.lastActionError == "unhandled action: auth.apple")
    #expect(outputs.contains(.actionFailed(identifier: "auth.apple", message: "unhandled action: auth.apple")))
    #expect(session.currentScreen.id == "a")
  }

  @Test(arguments: [
    (
      ActionResult.success(["granted": false]), "b",
      [
        "button_tapped", "action_requested", "action_result", "screen_completed", "screen_viewed",
        "screen_first_viewed",
      ]
    ),
    (ActionResult.failure("timeout"), "a", ["button_tapped", "action_requested", "action_result"]),
    (ActionResult.cancelled, "a", ["button_tapped", "action_requested", "action_result"]),
  ])
  func mockedDefaults(result: ActionResult, screenID: String, events: [String]) {
    let config = SessionConfig(now: jan2026, mocks: ["permission.notifications": result])
    var session = begin(
      document(actionFlow(CustomAction(identifier: "permission.notifications", awaitResult: true))), config
    ).0
    let outputs = session.send(.tap(.number(1)))
    #expect(outputs.eventTypes == events)
    #expect(session.currentScreen.id == screenID)
    if case .success = result { #expect(session.data("granted") == false) }
    if case .failure = result { #expect(session.lastActionError == "timeout") }
  }

  @Test func interactiveWaitsThenRoutes() {
    let custom = CustomAction(
      identifier: "auth.google", awaitResult: true, onSuccess: .screen("c"), onFailure: .skip, onCancel: .dismiss)
    let config = SessionConfig(now: jan2026, waitsForResults: true)
    var session = begin(document(actionFlow(custom)), config).0
    #expect(session.send(.result(.cancelled)).rejection?.contains("nothing is waiting") == true)
    let outputs = session.send(.tap(.number(1)))
    #expect(outputs.last == .awaitingResult(identifier: "auth.google"))
    guard case .awaiting(let pending) = session.status else {
      Issue.record("not awaiting")
      return
    }
    #expect(pending.identifier == "auth.google")
    // Other inputs are rejected while waiting and change nothing.
    let before = session
    for input in [Input.next, .back, .tap(.number(1)), .set(field: "n", value: "x"), .goto(screenID: "b")] {
      #expect(session.send(input).rejection?.contains("waiting for the result of 'auth.google'") == true)
    }
    #expect(session == before)
    var success = session
    #expect(
      success.send(.result(.success(["email": "a@b.co"]))).eventTypes == [
        "action_result", "screen_completed", "screen_viewed", "screen_first_viewed",
      ])
    #expect(success.currentScreen.id == "c")
    #expect(success.data("email") == "a@b.co")
    var failure = session
    #expect(
      failure.send(.result(.failure(nil))).eventTypes == [
        "action_result", "screen_skipped", "screen_completed", "screen_viewed", "screen_first_viewed",
      ])
    #expect(failure.currentScreen.id == "b")
    var cancel = session
    #expect(
      cancel.send(.result(.cancelled)).eventTypes == ["action_result", "screen_dropped_off", "onboarding_dismissed"])
    var quit = session
    _ = quit.send(.quit(reason: .endOfInput))
    #expect(quit.status == .quit(.endOfInput))
    #expect(quit.pending?.identifier == "auth.google")
  }

  @Test func onSuccessNextValidates() {
    let go = button("go", "Go", .custom(CustomAction(identifier: "x", awaitResult: true)))
    let f = flow("f", [screen("a", [input("n", required: true), go]), legacy("b")])
    let config = SessionConfig(now: jan2026, mocks: ["x": .success(nil)])
    var session = begin(document(f), config).0
    let outputs = session.send(.tap(.number(1)))
    #expect(outputs.eventTypes == ["button_tapped", "action_requested", "action_result", "validation_failed"])
    #expect(outputs.events[2].property("data") == .null)
    #expect(session.currentScreen.id == "a")
  }

  @Test func nativeScreenWaitsForResultOrNavigation() {
    let f = flow("f", [legacy("a"), legacy("cam", kind: .native, identifier: "camera_screen"), legacy("c")])
    var session = begin(f)
    #expect(session.actions.isEmpty == false)
    let outputs = session.send(.next)
    #expect(outputs.last == .awaitingResult(identifier: "camera_screen"))
    #expect(session.actions.isEmpty)
    var failed = session
    #expect(failed.send(.result(.failure("denied"))).eventTypes == ["action_result"])
    #expect(failed.currentScreen.id == "cam")
    #expect(failed.pending != nil)
    var cancelled = session
    _ = cancelled.send(.result(.cancelled))
    #expect(cancelled.currentScreen.id == "cam")
    var ok = session
    _ = ok.send(.result(.success(nil)))
    #expect(ok.currentScreen.id == "c")
    #expect(ok.pending == nil)
    var next = session
    _ = next.send(.next)
    #expect(next.currentScreen.id == "c")
    var done = session
    _ = done.send(.complete)
    #expect(done.status == .completed)
    var jump = session
    _ = jump.send(.goto(screenID: "a"))
    #expect(jump.currentScreen.id == "a")
  }

  @Test func nativeScreenMock() {
    let f = flow("f", [legacy("cam", kind: .native, identifier: "camera_screen"), legacy("c")])
    let config = SessionConfig(now: jan2026, mocks: ["camera_screen": .success(["photo": true])])
    let (session, outputs) = begin(document(f), config)
    #expect(session.currentScreen.id == "c")
    #expect(session.data("photo") == true)
    #expect(outputs.eventTypes.contains("action_result"))
  }
}
