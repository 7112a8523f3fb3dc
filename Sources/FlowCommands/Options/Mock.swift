import ArgumentParser
import FlowDriver
import FlowEngine

/// `--mock IDENTIFIER=success[:JSON] | failure[:TEXT] | cancelled`: answers an awaited action or
/// native screen at once. `--mock hook=ANSWER` (every step) and `--mock hook.STEP=ANSWER` answer
/// `onBeforeStepAdvance` (`proceed`, `block TEXT`, `stay`, `skipTo STEP` or result JSON);
/// `--mock render[.STEP]=JSON` answers `onBeforeStepRender` with an override;
/// `--mock webhook[.STEP]=ANSWER` answers every attempt at a server webhook (`STATUS [BODY]`,
/// `timeout`, `network [TEXT]`) without calling it; `--mock chat[.STEP]=ANSWER` answers every
/// call of a chat step's webhook the same way, `--mock chat.STEP.TURN=ANSWER` the call of turn
/// TURN (1-based: the user's TURNth message), before the step's other answer.
struct Mock: OptionValue {
  enum Answer: Equatable {
    case action(ActionResult)
    /// For the step named (`""`: every step).
    case hook(step: String, HookAnswer)
    /// `onBeforeStepRender`'s answer for the step named (`""`: every step).
    case render(step: String, HookAnswer)
    /// For the step named (`""`: every step).
    case webhook(step: String, WebhookResponse)
    /// A chat webhook's answer, for the step named (`""`: every chat step).
    case chat(step: String, WebhookResponse)
  }

  let identifier: String
  let answer: Answer

  init(identifier: String, result: ActionResult) {
    self.identifier = identifier
    self.answer = .action(result)
  }

  init(identifier: String, answer: Answer) {
    self.identifier = identifier
    self.answer = answer
  }

  static func parse(_ text: String) -> Result<Mock, ValidationError> {
    func refused(_ reason: String) -> Result<Mock, ValidationError> {
      .failure(ValidationError("--mock '\(text)': \(reason)"))
    }
    let usage = "expected IDENTIFIER=success[:JSON], IDENTIFIER=failure[:TEXT] or IDENTIFIER=cancelled"
    guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { return refused(usage) }
    let identifier = String(text[..<equals])
    let spec = text[text.index(after: equals)...]
    for kind in ["hook", "render"] where identifier == kind || identifier.hasPrefix(kind + ".") {
      let step = String(identifier.dropFirst(kind.count + 1))
      switch InputLanguage.hookAnswer(String(spec)) {
      case .success(let answer):
        return .success(
          Mock(identifier: identifier, answer: kind == "hook" ? .hook(step: step, answer) : .render(step: step, answer))
        )
      case .failure(let error): return refused(error.message)
      }
    }
    for kind in ["webhook", "chat"] where identifier == kind || identifier.hasPrefix(kind + ".") {
      let step = String(identifier.dropFirst(kind.count + 1))
      switch InputLanguage.webhookAnswer(String(spec)) {
      case .success(let response):
        let answer: Answer = kind == "chat" ? .chat(step: step, response) : .webhook(step: step, response)
        return .success(Mock(identifier: identifier, answer: answer))
      case .failure(let error): return refused(error.message)
      }
    }
    let status = spec.prefix { $0 != ":" }
    let payload: String? = status.count < spec.count ? String(spec.dropFirst(status.count + 1)) : nil
    switch status {
    case "success":
      guard let payload, !payload.isEmpty else { return .success(Mock(identifier: identifier, result: .success(nil))) }
      switch JSONBridge.parse(payload) {
      case .success(let value): return .success(Mock(identifier: identifier, result: .success(value)))
      case .failure(let error): return refused("the data after 'success:' is not JSON: \(error.message)")
      }
    case "failure":
      return .success(Mock(identifier: identifier, result: .failure(payload.flatMap { $0.isEmpty ? nil : $0 })))
    case "cancelled":
      guard payload == nil else { return refused("'cancelled' takes nothing after it") }
      return .success(Mock(identifier: identifier, result: .cancelled))
    default:
      if payload == nil, let result = ActionResult.outcome(named: String(status)) {
        return .success(Mock(identifier: identifier, result: result))
      }
      return refused("unknown status '\(status)'; \(usage)")
    }
  }
}
