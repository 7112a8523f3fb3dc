import FlowExpression
import OrderedCollections

/// What a session asks its host before a submitted screen is left (AppDNA's
/// `onBeforeStepAdvance`, document 001): the screen and its data. The session waits in
/// `.awaiting` until `.hookAnswered` answers it.
public struct HookRequest: Hashable, Sendable {
  /// The host function asked (`onBeforeStepAdvance`).
  public static let beforeStepAdvance = "onBeforeStepAdvance"
  /// What a step's server webhook is called in traces and errors.
  public static let serverWebhook = "webhook"

  public var flowID: String
  public var screenID: String
  /// 0-based position of the screen in its flow.
  public var index: Int
  /// The screen's type (`Screen.type`).
  public var type: String
  /// The screen's field values as entered, secrets included (the delegate's `stepData`).
  public var stepData: OrderedDictionary<String, Value>
  /// Everything collected so far, secret fields left out (the delegate's `responses`).
  public var responses: OrderedDictionary<String, Value>
  /// Set when the step's server webhook is asked instead of the host (no delegate): the call
  /// to make, answered by `.webhookAnswered`.
  public var webhook: WebhookCall?

  public init(
    flowID: String, screenID: String, index: Int, type: String, stepData: OrderedDictionary<String, Value>,
    responses: OrderedDictionary<String, Value>
  ) {
    self.flowID = flowID
    self.screenID = screenID
    self.index = index
    self.type = type
    self.stepData = stepData
    self.responses = responses
  }

  /// The JSON a hook command reads on stdin (docs/dialects/appdna.md, "Hooks").
  public var value: Value {
    .object([
      "hook": "before_step_advance", "flow_id": .string(flowID), "from_step_id": .string(screenID),
      "step_index": .number(Double(index)), "step_type": .string(type), "step_data": .object(stepData),
      "responses": .object(responses),
    ])
  }
}

/// The host's answer to a `HookRequest` (document 001's `StepAdvanceResult`).
public enum HookAnswer: Hashable, Sendable {
  /// Go on as without a hook, merging `data` into the collected data first.
  case proceed(data: OrderedDictionary<String, Value>?)
  /// Stay and show `message` as an error.
  case block(message: String)
  /// Stay; a non-empty message is shown as a notice.
  case stay(message: String?)
  /// Go to a screen of the current flow (merging `data` first); an unknown id goes on as
  /// `proceed`.
  case skipTo(screenID: String, data: OrderedDictionary<String, Value>?)
  /// The hook threw, timed out or answered nonsense: the session proceeds normally (document
  /// 001) and the trace says why.
  case failed(reason: String)

  /// `proceed`, `proceed_with_data`, `block`, `stay`, `skip_to` (what `onboarding_hook_completed`'s
  /// `result` and the trace say).
  public var resultName: String {
    switch self {
    case .proceed(let data): data == nil ? "proceed" : "proceed_with_data"
    case .block: "block"
    case .stay: "stay"
    case .skipTo: "skip_to"
    case .failed: "proceed"
    }
  }

  /// The wire form `parse` reads back (a failed hook is written as the `proceed` it ran as).
  public var value: Value {
    switch self {
    case .proceed(nil), .failed: return "proceed"
    case .proceed(let data?): return .object(["type": "proceedWithData", "data": .object(data)])
    case .block(let message): return .object(["type": "block", "message": .string(message)])
    case .stay(nil): return "stay"
    case .stay(let message?): return .object(["type": "stay", "message": .string(message)])
    case .skipTo(let id, nil): return .object(["type": "skipTo", "stepId": .string(id)])
    case .skipTo(let id, let data?):
      return .object(["type": "skipToWithData", "stepId": .string(id), "data": .object(data)])
    }
  }

  /// Reads the wire form: `{"type": "proceed" | "proceedWithData" | "block" | "stay" | "skipTo" |
  /// "skipToWithData", "data"?: {…}, "message"?: "…", "stepId"?: "…"}` (snake-case type names and
  /// `step_id` too), a bare type name as a string, or `null` (proceed); a failure saying why
  /// for anything else.
  public static func parse(_ value: Value) -> Result<HookAnswer, HookAnswerError> {
    let object: OrderedDictionary<String, Value>
    switch value {
    case .null: return .success(.proceed(data: nil))
    case .string(let name): object = ["type": .string(name)]
    case .object(let fields): object = fields
    default: return .failure(HookAnswerError("a hook result is an object such as {\"type\": \"proceed\"}"))
    }
    guard case .string(let type)? = object["type"] else {
      return .failure(HookAnswerError("a hook result needs a string \"type\" (\(typeNames))"))
    }
    var data: OrderedDictionary<String, Value>?
    switch object["data"] {
    case nil, .null?: data = nil
    case .object(let fields)?: data = fields
    default: return .failure(HookAnswerError("\"data\" of a hook result must be an object"))
    }
    func text(_ key: String) -> String? { if case .string(let s)? = object[key] { s } else { nil } }
    switch type {
    case "proceed":
      return .success(.proceed(data: data))
    case "proceedWithData", "proceed_with_data":
      return .success(.proceed(data: data ?? [:]))
    case "block":
      return .success(.block(message: text("message") ?? ""))
    case "stay":
      return .success(.stay(message: text("message")))
    case "skipTo", "skip_to", "skipToWithData", "skip_to_with_data":
      guard let id = text("stepId") ?? text("step_id"), !id.isEmpty else {
        return .failure(HookAnswerError("a \(type) hook result needs \"stepId\", the step to go to"))
      }
      return .success(.skipTo(screenID: id, data: data ?? (type.contains("ith") ? [:] : nil)))
    default:
      return .failure(HookAnswerError("unknown hook result type '\(type)' (\(typeNames))"))
    }
  }

  static let typeNames = "proceed, proceedWithData, block, stay, skipTo or skipToWithData"
}

/// Why a value is no hook result.
public struct HookAnswerError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
