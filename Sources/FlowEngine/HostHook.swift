import FlowExpression
import FlowFormat
import OrderedCollections

/// What a session asks its host before a submitted screen is left (AppDNA's
/// `onBeforeStepAdvance`, document 001): the screen and its data. The session waits in
/// `.awaiting` until `.hookAnswered` answers it.
public struct HookRequest: Hashable, Sendable {
  /// Which host function is asked.
  public enum Kind: Hashable, Sendable {
    /// `onBeforeStepAdvance`: a submitted screen is about to be left.
    case beforeStepAdvance
    /// `onBeforeStepRender`: a screen is about to be shown; the answer may override its texts
    /// and pre-fill its fields (`HookAnswer.render`).
    case beforeStepRender
  }

  /// The host function asked (`onBeforeStepAdvance`).
  public static let beforeStepAdvance = "onBeforeStepAdvance"
  /// The host function asked before a screen is shown.
  public static let beforeStepRender = "onBeforeStepRender"
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
  public var kind: Kind = .beforeStepAdvance

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
    if kind == .beforeStepRender {
      return .object([
        "hook": "before_step_render", "flow_id": .string(flowID), "step_id": .string(screenID),
        "step_index": .number(Double(index)), "step_type": .string(type), "responses": .object(responses),
      ])
    }
    return .object([
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
  /// `onBeforeStepRender`'s answer: a `StepConfigOverride` (document 001).
  case render(StepOverride)

  /// `proceed`, `proceed_with_data`, `block`, `stay`, `skip_to` (what `onboarding_hook_completed`'s
  /// `result` and the trace say).
  public var resultName: String {
    switch self {
    case .proceed(let data): data == nil ? "proceed" : "proceed_with_data"
    case .block: "block"
    case .stay: "stay"
    case .skipTo: "skip_to"
    case .failed: "proceed"
    case .render: "override"
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
    case .render(let override): return override.value
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
    // The wrappers' "no handler" sentinel; an object without a type is a render override.
    if object["__appdna_unhandled"] == .bool(true) { return .success(.proceed(data: nil)) }
    if object["type"] == nil { return StepOverride.parse(object).map(HookAnswer.render) }
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

/// What `onBeforeStepRender` may change of a step (document 001's `StepConfigOverride`): its
/// title, subtitle and button text, and values its fields start with when they have none.
public struct StepOverride: Hashable, Sendable {
  public var title: String?
  public var subtitle: String?
  public var ctaText: String?
  public var fieldDefaults: OrderedDictionary<String, Value> = [:]

  public init(title: String? = nil, subtitle: String? = nil, ctaText: String? = nil) {
    self.title = title
    self.subtitle = subtitle
    self.ctaText = ctaText
  }

  /// The wire form (the wrappers' `{"title", "subtitle", "ctaText", "fieldDefaults"}`).
  public var value: Value {
    var object: OrderedDictionary<String, Value> = [:]
    if let title { object["title"] = .string(title) }
    if let subtitle { object["subtitle"] = .string(subtitle) }
    if let ctaText { object["ctaText"] = .string(ctaText) }
    if !fieldDefaults.isEmpty { object["fieldDefaults"] = .object(fieldDefaults) }
    return .object(object)
  }

  /// Reads the wire form; `cta_text` and `field_defaults` too. `layoutOverrides` is accepted
  /// and ignored, as on iOS.
  static func parse(_ object: OrderedDictionary<String, Value>) -> Result<StepOverride, HookAnswerError> {
    let known: Set<String> = [
      "title", "subtitle", "ctaText", "cta_text", "fieldDefaults", "field_defaults", "layoutOverrides",
    ]
    if let unknown = object.keys.first(where: { !known.contains($0) }) {
      return .failure(
        HookAnswerError(
          "'\(unknown)' is neither a hook result's \"type\" nor an override's title, subtitle, ctaText or fieldDefaults"
        ))
    }
    func text(_ keys: String...) -> Result<String?, HookAnswerError> {
      for key in keys {
        switch object[key] {
        case nil, .null?: continue
        case .string(let text)?: return .success(text)
        default: return .failure(HookAnswerError("an override's \"\(key)\" is a string"))
        }
      }
      return .success(nil)
    }
    var override = StepOverride()
    do {
      override.title = try text("title").get()
      override.subtitle = try text("subtitle").get()
      override.ctaText = try text("ctaText", "cta_text").get()
    } catch {
      return .failure(error)
    }
    switch object["fieldDefaults"] ?? object["field_defaults"] {
    case nil, .null?: break
    case .object(let defaults)?: override.fieldDefaults = defaults
    default: return .failure(HookAnswerError("an override's \"fieldDefaults\" is an object of field values"))
    }
    return .success(override)
  }
}

/// Why a value is no hook result.
public struct HookAnswerError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

extension StepOverride {
  /// `blocks` with the override's texts: the title on the first `title` block, the subtitle on
  /// the first `subtitle` block (an AppDNA legacy step's, or document 001's block types), as
  /// plain text; the button text is applied to the numbered controls (`Session.actions`).
  func applied(to blocks: [Block]) -> [Block] {
    var blocks = blocks
    for (type, text) in [("title", title), ("subtitle", subtitle)] {
      guard let text, let index = blocks.firstIndex(where: { $0.type == type }),
        case .text(var block) = blocks[index].content
      else { continue }
      let literal = String(text.flatMap { $0 == "{" ? ["\\", "{"] : [$0] })
      block.text = TextTemplate(template: Template(parsing: literal), location: nil)
      blocks[index].content = .text(block)
    }
    return blocks
  }

  /// The button `ctaText` names: an AppDNA legacy step's call to action.
  static func isButton(_ block: Block) -> Bool { block.type == "cta" }
}
