import FlowExpression
import FlowFormat
import OrderedCollections

/// What the user does in an AppDNA `interactive_chat` step (research §2.12).
public enum ChatInput: Hashable, Sendable {
  /// Send a typed message.
  case send(String)
  /// Tap a quick reply, named by id or text (case-insensitive).
  case quickReply(String)
  /// Tap a star while a rating prompt is shown.
  case rate(Int)

  /// The script form: `{send: TEXT}`, `{quick_reply: ID}` or `{rate: N}`.
  public var value: Value {
    switch self {
    case .send(let text): .object(["send": .string(text)])
    case .quickReply(let id): .object(["quick_reply": .string(id)])
    case .rate(let stars): .object(["rate": .number(Double(stars))])
    }
  }
}

/// One chat step's conversation, kept per step so going back shows it again.
public struct ChatState: Hashable, Sendable {
  /// What the pending chat webhook call is called (`PendingAction.identifier`).
  public static let identifier = "chat"
  /// A webhook answer that only says go on: a chat reply without messages, a step webhook's
  /// `proceed`.
  public static let plainReply = WebhookResponse.response(status: 200, body: #"{"action":"proceed"}"#)

  public struct Message: Hashable, Sendable {
    /// `user`, `ai`, or `system` (error bubbles; sent to the webhook as `ai`).
    public var role: String
    public var content: String
    public var id: String
    public var time: Int64
  }

  public internal(set) var messages: [Message] = []
  public internal(set) var turns = 0
  /// The quick replies offered now.
  public internal(set) var quickReplies: [ChatConfig.QuickReply] = []
  /// The webhook's accumulated `data` (sent back as `context`, submitted as `webhook_data`).
  public internal(set) var context: OrderedDictionary<String, Value> = [:]
  /// nil: no prompt shown yet; 0: shown, unanswered.
  public internal(set) var rating: Int?
  public internal(set) var ratingPrompted = false
  /// `ai_completed`, `max_turns` or `user_completed` once the chat has ended.
  public internal(set) var completion: String?
  var openedAt: Int64

  /// Whether the step's button (the completion CTA) may be tapped.
  public func isFinished(_ config: ChatConfig) -> Bool { completion != nil || turns >= config.maxTurns }

  /// The webhook's `messages`: every bubble, system ones as `ai`.
  var requestMessages: Value {
    .list(
      messages.map { message in
        .object([
          "role": .string(message.role == "user" ? "user" : "ai"), "content": .string(message.content),
          "id": .string(message.id), "timestamp": .string(ChatState.timestamp(message.time)),
        ])
      })
  }

  /// ISO-8601 UTC without a fraction, from the virtual clock.
  static func timestamp(_ ms: Int64) -> String {
    let full = CivilTime.iso8601(milliseconds: ms)
    guard let dot = full.lastIndex(of: ".") else { return full }
    return String(full[..<dot]) + "Z"
  }
}
