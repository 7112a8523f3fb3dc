import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections
import Testing

/// The engine's host hook (`Output.hookRequested` / `Input.hookAnswered`): a submitted screen
/// parks on it, each answer does what document 001's `StepAdvanceResult` says, and a parked
/// session takes nothing else that moves it.
@Suite struct HostHookTests {
  static let json = #"""
    {"id": "f", "version": 1, "steps": [
      {"id": "s1", "type": "custom", "config": {"content_blocks": [
        {"id": "code", "type": "input_text", "field_id": "code"}, {"id": "go", "type": "button"}]}},
      {"id": "s2", "type": "welcome"}, {"id": "s3", "type": "welcome"}]}
    """#

  static func start(_ config: SessionConfig) throws -> (Session, [Output]) {
    let document = try #require(FlowLoader.load(bytes: Array(json.utf8), file: "f.json").document)
    return try Session.start(document: document, config: config)
  }

  static var asking: SessionConfig {
    var config = SessionConfig(now: 0, waitsForResults: true)
    config.asksHooks = true
    return config
  }

  @Test(arguments: [
    (HookAnswer.proceed(data: nil), "s2", nil as Value?, "proceed"),
    (.proceed(data: ["ok": true]), "s2", .bool(true), "proceed_with_data"),
    (.block(message: "Invalid code"), "s1", nil, "block"),
    (.stay(message: nil), "s1", nil, "stay"),
    (.skipTo(screenID: "s3", data: nil), "s3", nil, "skip_to"),
    (.skipTo(screenID: "s3", data: ["ok": true]), "s3", .bool(true), "skip_to"),
    (.skipTo(screenID: "nowhere", data: nil), "s2", nil, "skip_to"),
    (.failed(reason: "timed out"), "s2", nil, "proceed"),
  ])
  func answers(_ answer: HookAnswer, _ screen: String, _ ok: Value?, _ result: String) throws {
    var (session, _) = try Self.start(Self.asking)
    _ = session.send(.set(field: "code", value: "X1"))
    let asked = session.send(.next)
    let request = try #require(asked.lazy.compactMap { if case .hookRequested(let r) = $0 { r } else { nil } }.first)
    #expect(request.screenID == "s1" && request.index == 0 && request.stepData == ["code": "X1"])
    guard case .awaiting = session.status else { throw HookTestFailure.notParked }
    let outputs = session.send(.hookAnswered(answer))
    #expect(session.currentScreen.id == screen)
    #expect(session.data("ok") == ok)
    let completed = session.events.last { $0.eventType == "onboarding_hook_completed" }
    #expect(completed?.property("result") == .string(result))
    if case .block(let message) = answer {
      #expect(outputs.contains(.actionFailed(identifier: HookRequest.beforeStepAdvance, message: message)))
      #expect(session.lastActionError == message)
    }
    #expect(session.status == .running)
  }

  @Test(arguments: [Input.next, .back, .set(field: "code", value: "Y"), .result(.success(nil))])
  func parkedSessionRefuses(_ input: Input) throws {
    var (session, _) = try Self.start(Self.asking)
    _ = session.send(.next)
    #expect(session.send(input).contains { if case .rejected = $0 { true } else { false } })
  }

  @Test func answerWithoutAHookIsRefused() throws {
    var (session, _) = try Self.start(Self.asking)
    #expect(
      session.send(.hookAnswered(.proceed(data: nil))).contains { if case .rejected = $0 { true } else { false } })
  }

  /// A mock answers at once; without one, a session that does not wait proceeds.
  @Test(arguments: [("", HookAnswer.skipTo(screenID: "s3", data: nil), "s3"), ("s1", .stay(message: "hi"), "s1")])
  func mocks(_ key: String, _ answer: HookAnswer, _ screen: String) throws {
    var config = Self.asking
    config.hookMocks[key] = answer
    var (session, _) = try Self.start(config)
    _ = session.send(.next)
    #expect(session.currentScreen.id == screen)
    config.hookMocks = [:]
    config.waitsForResults = false
    var (unanswered, _) = try Self.start(config)
    _ = unanswered.send(.next)
    #expect(unanswered.currentScreen.id == "s2")
  }

  @Test(arguments: [
    (Value.string("stay"), HookAnswer.stay(message: nil)), (.null, .proceed(data: nil)),
    (.object(["type": "skip_to", "step_id": "s3"]), .skipTo(screenID: "s3", data: nil)),
    (.object(["type": "skipToWithData", "stepId": "s3"]), .skipTo(screenID: "s3", data: [:])),
  ])
  func wireForms(_ value: Value, _ answer: HookAnswer) throws {
    #expect(try HookAnswer.parse(value).get() == answer)
    #expect(try HookAnswer.parse(answer.value).get() == answer)
  }

  enum HookTestFailure: Error { case notParked }
}
