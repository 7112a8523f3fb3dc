import OrderedCollections

/// An AppDNA `interactive_chat` step's `chat_config` (research §2.12): what the session needs
/// to hold the conversation; the cosmetic keys (persona, style, delays) are not kept.
public struct ChatConfig: Hashable, Sendable {
  public struct Message: Hashable, Sendable {
    public var id: String
    public var content: String
    public init(id: String, content: String) {
      self.id = id
      self.content = content
    }
  }

  public struct QuickReply: Hashable, Sendable {
    public var id: String
    public var text: String
    public init(id: String, text: String) {
      self.id = id
      self.text = text
    }
  }

  /// The SDK's default `max_user_turns`.
  public static let defaultMaxTurns = 5
  /// The SDK's default chat webhook timeout (15 s; a chat call is never retried).
  public static let defaultTimeoutMs: Int64 = 15_000
  /// The bubble a failed call shows when the webhook has no `error_text`.
  public static let defaultErrorText = "Sorry, something went wrong. Please try again."

  public var maxTurns: Int
  /// `turn_limit_behavior` `hard` (the default): the last turn completes the chat.
  public var hardLimit: Bool
  /// `auto_messages` with `turn == 0`, played when the step opens (later ones never play).
  public var openingMessages: [Message]
  /// Quick replies without `show_at_turn`: document 001's "static buttons always shown".
  public var quickReplies: [QuickReply]
  /// Quick replies with `show_at_turn` n, offered once the user has sent n messages (0: at open).
  public var turnQuickReplies: [Int: [QuickReply]] = [:]
  /// A `quick_reply_inject` turn action's `config.quick_replies`, by turn (iOS 1.0.70 ignores them).
  public var injectedQuickReplies: [Int: [QuickReply]] = [:]
  /// `completion_message.content`.
  public var completionMessage: String?
  /// Turns whose turn action is a `rating_prompt`.
  public var ratingTurns: Set<Int>
  /// `auto_message` turn actions: turn → content.
  public var turnMessages: [Int: String]
  /// The chat webhook, when enabled (its URL, timeout, `error_text`).
  public var webhook: Webhook?
  /// The webhook's custom headers as written (a chat's are not templates, research §2.12).
  public var headers: OrderedDictionary<String, String> = [:]

  public init(
    maxTurns: Int = ChatConfig.defaultMaxTurns, hardLimit: Bool = true, openingMessages: [Message] = [],
    quickReplies: [QuickReply] = [], completionMessage: String? = nil, ratingTurns: Set<Int> = [],
    turnMessages: [Int: String] = [:], webhook: Webhook? = nil
  ) {
    self.maxTurns = maxTurns
    self.hardLimit = hardLimit
    self.openingMessages = openingMessages
    self.quickReplies = quickReplies
    self.completionMessage = completionMessage
    self.ratingTurns = ratingTurns
    self.turnMessages = turnMessages
    self.webhook = webhook
  }
}
