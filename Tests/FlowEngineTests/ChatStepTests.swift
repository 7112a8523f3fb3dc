import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections
import Testing

/// AppDNA `interactive_chat` (research §2.12, document 001, design §4 V1-V8): the step parks
/// for turns, each send with a webhook parks on the chat call, the engine folds the replies.
@Suite struct ChatStepTests {
  static func flow(_ chatConfig: String) -> String {
    """
    {"id": "f", "version": 1, "steps": [
      {"id": "chat", "type": "interactive_chat", "config": {"title": "Coach", "chat_config": \(chatConfig)}},
      {"id": "after", "type": "welcome"}]}
    """
  }

  static let webhook = #"""
    "webhook": {"enabled": true, "webhook_url": "https://ai.example.com/chat",
                "headers": {"Authorization": "Bearer abc", "X-User": "{{user.id}}"}}
    """#

  static func start(_ chatConfig: String, _ change: (inout SessionConfig) -> Void = { _ in }) throws -> Session {
    let loaded = FlowLoader.load(bytes: Array(flow(chatConfig).utf8), file: "f.json")
    #expect(!loaded.diagnostics.contains { $0.id == "appdna.not-run-yet" })
    var config = SessionConfig(userID: "u1", now: 0, waitsForResults: true)
    change(&config)
    return try Session.start(document: try #require(loaded.document), config: config).0
  }

  static func call(in outputs: [Output]) -> WebhookCall? {
    outputs.lazy.compactMap { if case .hookRequested(let request) = $0 { request.webhook } else { nil } }.first
  }

  static func names(_ session: Session) -> [String] {
    session.events.map(\.eventType).filter { $0.hasPrefix("chat_") }
  }

  /// V1, V8: the second request carries turn 2 of 5, the first reply's data as `context`, a null
  /// rating, and the headers as written; the first request has no `context`.
  @Test func requestBodiesFollowTheDocument() throws {
    var session = try Self.start(#"{"max_user_turns": 5, \#(Self.webhook)}"#)
    let first = try #require(Self.call(in: session.send(.chat(.send("Hi there")))))
    guard case .object(let body1) = first.body else { throw Failure("no body") }
    #expect(body1["context"] == nil && body1["rating"] == .null && body1["event"] == "chat_message")
    #expect(first.headers["Authorization"] == "Bearer abc" && first.headers["X-User"] == "{{user.id}}")
    #expect(first.timeoutMs == ChatConfig.defaultTimeoutMs && first.attempts == 1)
    _ = session.send(
      .webhookAnswered(.response(status: 200, body: #"{"data":{"threadId":"thread_UXJWTKpSvBRWpGEhHLXqnA6O"}}"#)))
    let second = try #require(Self.call(in: session.send(.chat(.send("My second message")))))
    guard case .object(let body2) = second.body, case .object(let conversation)? = body2["conversation"] else {
      throw Failure("no conversation")
    }
    #expect(conversation["turn"] == 2 && conversation["max_turns"] == 5 && conversation["remaining_turns"] == 3)
    #expect(conversation["user_message"] == "My second message")
    #expect(body2["context"] == .object(["threadId": "thread_UXJWTKpSvBRWpGEhHLXqnA6O"]))
    #expect(body2["rating"] == .null)
  }

  /// V2, V3, V5, V6 and a timeout: what each answer adds and which event it sends.
  @Test(arguments: [
    (
      WebhookResponse.response(status: 200, body: #"{"action":"reply","messages":[{"content":"Tell me more."}]}"#),
      ["Tell me more."], "chat_message_received", nil as String?
    ),
    (.response(status: 200, body: #"{"reply":"hi"}"#), [], "chat_message_received", nil),
    (.response(status: 500, body: "boom"), [ChatConfig.defaultErrorText], "chat_webhook_error", nil),
    (.timeout, [ChatConfig.defaultErrorText], "chat_webhook_error", nil),
    (
      .response(status: 200, body: #"{"messages":[{"content":"Done!"}],"force_complete":true}"#),
      ["Done!", "Bye"], "chat_step_completed", "ai_completed"
    ),
    (
      .response(status: 200, body: #"{"action":"reply_and_complete","completion_message":"See you"}"#),
      ["See you"], "chat_step_completed", "ai_completed"
    ),
  ])
  func answers(_ response: WebhookResponse, _ added: [String], _ event: String, _ completion: String?) throws {
    var session = try Self.start(#"{"max_user_turns": 5, "completion_message": {"content": "Bye"}, \#(Self.webhook)}"#)
    _ = session.send(.chat(.send("Hello")))
    _ = session.send(.webhookAnswered(response))
    let chat = try #require(session.currentChat)
    #expect(chat.messages.dropFirst().map(\.content) == added)
    #expect(Self.names(session).last == event)
    #expect(chat.completion == completion)
    #expect(session.pending == nil)
    if case .response(500, _) = response {
      let error = session.events.last { $0.eventType == "chat_webhook_error" }
      #expect(error?.property("http_status") == 500 && error?.property("response_body") == "boom")
    }
  }

  /// V7: a hard limit completes at the last turn (`max_turns`), also without a webhook; the
  /// button then submits the transcript and goes on.
  @Test func hardLimitCompletesAndTheButtonSubmitsTheTranscript() throws {
    var session = try Self.start(#"{"max_user_turns": 1, "auto_messages": [{"id": "a0", "turn": 0, "content": "Hi"}]}"#)
    #expect(session.send(.next).contains { if case .rejected = $0 { true } else { false } })
    _ = session.send(.chat(.send("Just one")))
    #expect(Self.names(session) == ["chat_step_viewed", "chat_message_sent", "chat_step_completed"])
    #expect(session.send(.chat(.send("another"))).contains { if case .rejected = $0 { true } else { false } })
    _ = session.send(.next)
    #expect(session.currentScreen.id == "after")
    guard case .object(let data)? = session.data("chat") else { throw Failure("no transcript") }
    #expect(data["completion_reason"] == "max_turns" && data["user_turn_count"] == 1)
    #expect(data["total_message_count"] == 2)
  }

  /// A soft limit leaves the chat open at the last turn; the button ends it (`user_completed`).
  @Test func softLimitIsEndedByTheButton() throws {
    var session = try Self.start(#"{"max_user_turns": 2, "turn_limit_behavior": "soft"}"#)
    let notice = session.send(.chat(.send("one")))
    #expect(notice.contains(.notice("You have 1 message remaining")))
    _ = session.send(.chat(.send("two")))
    #expect(session.currentChat?.completion == nil)
    _ = session.send(.next)
    #expect(session.currentScreen.id == "after")
    let completed = session.events.last { $0.eventType == "chat_step_completed" }
    #expect(completed?.property("completion_reason") == "user_completed")
  }

  /// Quick replies by id or text, the rating prompt of a turn action, a mock answering every call.
  @Test func quickRepliesRatingAndMock() throws {
    var session = try Self.start(
      #"{"quick_replies": [{"id": "q1", "text": "Yes please"}], "turn_actions": [{"turn": 1, "type": "rating_prompt"}], \#(Self.webhook)}"#
    ) { $0.chatMocks["chat"] = .response(status: 200, body: #"{"messages":[{"content":"ok"}]}"#) }
    _ = session.send(.chat(.quickReply("yes please")))
    #expect(session.pending == nil)
    _ = session.send(.chat(.rate(4)))
    #expect(
      Self.names(session) == [
        "chat_step_viewed", "chat_quick_reply_tapped", "chat_message_sent", "chat_message_received",
        "chat_rating_submitted",
      ])
    #expect(session.currentChat?.messages.map(\.content) == ["Yes please", "ok"])
    // A static quick reply stays offered (document 001: "always shown").
    #expect(session.currentChat?.quickReplies.map(\.id) == ["q1"])
  }

  struct Failure: Error {
    let message: String
    init(_ message: String) { self.message = message }
  }
}
