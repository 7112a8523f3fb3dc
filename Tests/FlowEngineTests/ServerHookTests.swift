import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections
import Testing

/// A step's server webhook (research §2.6): asked when no delegate is present, each attempt
/// parks the session on `HookRequest.webhook`, and the engine folds the answers: the SDK's body
/// parsing, retries with backoff on the virtual clock, the final block.
@Suite struct ServerHookTests {
  static func flow(hook: String) -> String {
    """
    {"id": "f", "version": 1, "steps": [
      {"id": "s1", "type": "custom", "hook": \(hook), "config": {"content_blocks": [
        {"id": "email", "type": "input_email", "field_id": "email"},
        {"id": "pw", "type": "input_password", "field_id": "pw"}, {"id": "go", "type": "button"}]}},
      {"id": "s2", "type": "welcome"}, {"id": "s3", "type": "welcome"}]}
    """
  }

  static let validating = #"""
    {"enabled": true, "webhook_url": "https://api.example.com/validate", "timeout_ms": 2000, "retry_count": 1,
     "error_text": "Try again", "headers": {"X-User": "{{user.id}}", "Authorization": "Bearer abc"}}
    """#

  static func start(hook: String = validating, _ change: (inout SessionConfig) -> Void = { _ in }) throws -> Session {
    let loaded = FlowLoader.load(bytes: Array(flow(hook: hook).utf8), file: "f.json")
    var config = SessionConfig(userID: "u1", now: 0, waitsForResults: true)
    change(&config)
    var (session, _) = try Session.start(document: try #require(loaded.document), config: config)
    _ = session.send(.set(field: "email", value: "a@b.co"))
    _ = session.send(.set(field: "pw", value: "hunter2"))
    return session
  }

  static func call(in outputs: [Output]) -> WebhookCall? {
    outputs.lazy.compactMap { if case .hookRequested(let request) = $0 { request.webhook } else { nil } }.first
  }

  @Test func requestCarriesTheSDKBodyAndHeaders() throws {
    var session = try Self.start()
    let call = try #require(Self.call(in: session.send(.next)))
    #expect(call.url == "https://api.example.com/validate" && call.timeoutMs == 2000)
    #expect(call.attempt == 1 && call.attempts == 2)
    #expect(Array(call.headers.keys) == ["Content-Type", "X-User", "Authorization"])
    #expect(call.headers["Content-Type"] == "application/json" && call.headers["X-User"] == "u1")
    #expect(call.headers["Authorization"] == "Bearer abc")
    let body: Value = .object([
      "flow_id": "f", "step_id": "s1", "step_index": 0, "step_type": "custom",
      "step_data": .object(["email": "a@b.co", "pw": "hunter2"]), "responses": .object(["email": "a@b.co"]),
      "user_id": "u1", "app_id": "",
    ])
    #expect(call.body == body)
    let started = session.events.last { $0.eventType == "onboarding_hook_started" }
    #expect(started?.property("hook_type") == "server")
    #expect(started?.property("webhook_url") == "https://api.example.com/validate")
  }

  /// The SDK's reading of a 2xx body (T:SDKSeamsTests:60-89 and S:Ren:2190-2250).
  @Test(arguments: [
    (#"{"action":"proceed","data":{"score":42}}"#, "s2", "proceed_with_data", nil as String?),
    (#"{"action":"proceed"}"#, "s2", "proceed", nil),
    (#"{"action":"proceed_with_data"}"#, "s2", "proceed_with_data", nil),
    (#"{"action":"skip_to"}"#, "s2", "proceed", nil),
    (#"{"action":"skip_to","target_step_id":"s3"}"#, "s3", "skip_to", nil),
    (#"{"action":"block","message":"Email already in use"}"#, "s1", "block", "Email already in use"),
    (#"{"action":"block"}"#, "s1", "block", "Try again"),
    (#"{"action":"stay","message":"Check your inbox"}"#, "s1", "stay", nil),
    (#"{"action":"celebrate"}"#, "s2", "proceed", nil),
    ("<html>oops</html>", "s1", "block", "Try again"),
    (#"{"result":"ok"}"#, "s1", "block", "Try again"),
  ])
  func successBodies(_ body: String, _ screen: String, _ result: String, _ error: String?) throws {
    var session = try Self.start()
    _ = session.send(.next)
    _ = session.send(.webhookAnswered(.response(status: 200, body: body)))
    #expect(session.currentScreen.id == screen)
    #expect(session.lastActionError == error)
    let completed = session.events.last { $0.eventType == "onboarding_hook_completed" }
    #expect(completed?.property("result") == .string(result))
    #expect(completed?.property("hook_type") == "server" && completed?.property("duration_ms") == 0)
    if result == "proceed_with_data", body.contains("42") { #expect(session.data("score") == 42) }
  }

  /// Every failure is retried (at most 3 times) after 1 s, 2 s, 4 s; a timed-out attempt costs
  /// its timeout; then `onboarding_hook_error` and the block (S:Ren:796-830).
  @Test(arguments: [
    (
      #"{"enabled": true, "webhook_url": "https://x.example/h", "timeout_ms": 1000, "retry_count": 5}"#,
      WebhookResponse.timeout, 4, "timeout", "Request timed out", "Request timed out. Please try again.", Int64(11_000)
    ),
    (
      #"{"enabled": true, "webhook_url": "https://x.example/h"}"#, .response(status: 503, body: "down"), 1,
      "network", "HTTP 503", "Network error. Please check your connection.", 0
    ),
    (
      #"{"enabled": true, "webhook_url": "https://x.example/h", "retry_count": 2, "error_text": "Later"}"#,
      .network("connection refused"), 3, "network", "connection refused", "Later", 3_000
    ),
  ])
  func failuresRetryThenBlock(
    _ hook: String, _ failure: WebhookResponse, _ attempts: Int, _ type: String, _ message: String, _ shown: String,
    _ duration: Int64
  ) throws {
    var session = try Self.start(hook: hook)
    var outputs = session.send(.next)
    var made = 0
    while let call = Self.call(in: outputs) {
      made += 1
      #expect(call.attempt == made)
      outputs = session.send(.webhookAnswered(failure))
    }
    #expect(made == attempts)
    let retries = session.events.filter { $0.eventType == "onboarding_hook_retry" }
    #expect(retries.map { $0.property("attempt_number") } == (1..<attempts).map { .number(Double($0)) })
    let error = try #require(session.events.last { $0.eventType == "onboarding_hook_error" })
    #expect(error.property("error_type") == .string(type) && error.property("error_message") == .string(message))
    #expect(session.lastActionError == shown && session.currentScreen.id == "s1")
    let completed = session.events.last { $0.eventType == "onboarding_hook_completed" }
    #expect(completed?.property("result") == "block")
    #expect(completed?.property("duration_ms") == .number(Double(duration)))
    #expect(session.virtualNow == duration)
    #expect(!session.events.contains { $0.eventType == "onboarding_step_completed" })
  }

  @Test func aMockAnswersEveryAttempt() throws {
    var session = try Self.start { $0.webhookMocks["s1"] = .timeout }
    #expect(Self.call(in: session.send(.next)) == nil)
    #expect(session.events.filter { $0.eventType == "onboarding_hook_retry" }.count == 1)
    #expect(session.lastActionError == "Try again" && session.virtualNow == 2000 + 1000 + 2000)
  }

  @Test func aDelegateIsAskedInsteadOfTheServer() throws {
    var session = try Self.start { $0.asksHooks = true }
    let request = try #require(
      session.send(.next).lazy.compactMap { if case .hookRequested(let r) = $0 { r } else { nil } }.first)
    #expect(request.webhook == nil)
    #expect(session.events.last { $0.eventType == "onboarding_hook_started" }?.property("hook_type") == "client")
  }

  @Test func anInvalidURLBlocksWithoutARequest() throws {
    var session = try Self.start(hook: #"{"enabled": true, "webhook_url": "not a url"}"#)
    #expect(Self.call(in: session.send(.next)) == nil)
    #expect(session.lastActionError == "Invalid webhook URL." && session.currentScreen.id == "s1")
    #expect(!session.events.contains { $0.eventType == "onboarding_hook_error" })
  }

  @Test func aWebhookNobodyAnswersFailsAsNetworkError() throws {
    var session = try Self.start()
    _ = session.send(.next)
    #expect(
      session.send(.hookAnswered(.proceed(data: nil))).contains { if case .rejected = $0 { true } else { false } })
    _ = session.send(.hookAnswered(.failed(reason: "the script does not answer it")))
    let error = session.events.last { $0.eventType == "onboarding_hook_error" }
    #expect(error?.property("error_message") == "unanswered webhook: the script does not answer it")
    #expect(session.lastActionError == "Try again")
  }

  @Test func aDisabledHookIsNotCalled() throws {
    var session = try Self.start(hook: #"{"enabled": "false", "webhook_url": "https://x.example/h"}"#)
    #expect(Self.call(in: session.send(.next)) == nil)
    #expect(session.currentScreen.id == "s2")
  }

  @Test(arguments: [
    WebhookResponse.response(status: 200, body: #"{"action":"proceed"}"#), .response(status: 500, body: "boom"),
    .timeout, .network("refused"),
  ])
  func wireForms(_ response: WebhookResponse) {
    #expect(WebhookResponse.parse(response.value) == response)
  }
}
