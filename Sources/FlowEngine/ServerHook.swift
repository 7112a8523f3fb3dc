import FlowExpression
import FlowFormat
import OrderedCollections

/// One attempt at a step's server webhook (research §2.6): the POST the driver makes, carried
/// by `HookRequest.webhook`. The engine decides retries and what the answer means; the driver
/// only makes the call (or answers it offline) and sends `.webhookAnswered`.
public struct WebhookCall: Hashable, Sendable {
  public var url: String
  /// `Content-Type: application/json`, then the step's headers with their templates rendered.
  public var headers: OrderedDictionary<String, String>
  /// `{flow_id, step_id, step_index, step_type, step_data, responses, user_id, app_id}`.
  public var body: Value
  public var timeoutMs: Int64
  /// 1-based.
  public var attempt: Int
  /// 1 + the retries.
  public var attempts: Int
  /// Virtual milliseconds spent on this webhook so far (timed-out attempts and backoffs).
  public var elapsedMs: Int64
  /// The step's `error_text`.
  public var errorText: String?

  public init(
    url: String, headers: OrderedDictionary<String, String>, body: Value, timeoutMs: Int64, attempt: Int = 1,
    attempts: Int, elapsedMs: Int64 = 0, errorText: String? = nil
  ) {
    self.url = url
    self.headers = headers
    self.body = body
    self.timeoutMs = timeoutMs
    self.attempt = attempt
    self.attempts = attempts
    self.elapsedMs = elapsedMs
    self.errorText = errorText
  }

  /// The wait before retry `attempt` + 1: 1 s, 2 s, 4 s (the SDK's backoff).
  var backoffMs: Int64 { 1000 << Int64(min(attempt - 1, 20)) }
}

/// How one attempt at a webhook ended.
public enum WebhookResponse: Hashable, Sendable {
  /// The server answered (any status; 2xx bodies are read as the step's result).
  case response(status: Int, body: String)
  /// No answer within the attempt's timeout.
  case timeout
  /// No answer: the connection failed (the message says why).
  case network(String)

  /// The answer a script records and `--mock webhook` reads: `{"http": STATUS, "body": …}`,
  /// `{"timeout": true}` or `{"network": "…"}` (a body that is JSON is written as JSON).
  public var value: Value {
    switch self {
    case .response(let status, let body):
      let parsed = Value(parsingJSON: body)
      return .object(["http": .number(Double(status)), "body": parsed ?? .string(body)])
    case .timeout: return .object(["timeout": true])
    case .network(let message): return .object(["network": .string(message)])
    }
  }

  /// Reads `value`'s forms back; nil for anything else.
  public static func parse(_ value: Value) -> WebhookResponse? {
    guard case .object(let object) = value else { return nil }
    if case .number(let status)? = object["http"], status.rounded() == status, (100...599).contains(status) {
      let body: String
      switch object["body"] {
      case nil, .null?: body = ""
      case .string(let text)?: body = text
      case let other?: body = other.json
      }
      return .response(status: Int(status), body: body)
    }
    if object["timeout"] == true { return .timeout }
    if case .string(let message)? = object["network"] { return .network(message) }
    return nil
  }

  /// Whether `value` is meant as a webhook answer rather than a hook result.
  public static func isWebhookAnswer(_ value: Value) -> Bool {
    guard case .object(let object) = value else { return false }
    return object["http"] != nil || object["timeout"] != nil || object["network"] != nil
  }
}

/// What a webhook's 2xx body means (the SDK's parsing, research §2.6).
enum ServerHookAnswer {
  static func answer(body: String, errorText: String?) -> HookAnswer {
    guard case .object(let object)? = Value(parsingJSON: body), case .string(let action)? = object["action"] else {
      return .block(message: errorText ?? "Invalid server response.")
    }
    var data: OrderedDictionary<String, Value>?
    if case .object(let fields)? = object["data"] { data = fields }
    func text(_ key: String) -> String? { if case .string(let s)? = object[key] { s } else { nil } }
    switch action {
    case "proceed_with_data": return .proceed(data: data ?? [:])
    case "block": return .block(message: text("message") ?? errorText ?? "Request blocked by server.")
    case "stay": return .stay(message: text("message"))
    case "skip_to":
      guard let target = text("target_step_id") else { return .proceed(data: nil) }
      return .skipTo(screenID: target, data: data)
    default: return .proceed(data: data)
    }
  }
}
