import FlowExpression
import FlowFormat
import OrderedCollections

extension Session {
  /// A validated, committed submission asks the host's hook before the screen is left: a mock
  /// answers at once, a session that waits for results parks on it, any other proceeds.
  mutating func askBeforeLeave(via: Via) -> Move {
    let screen = currentScreen
    var stepData: OrderedDictionary<String, Value> = [:]
    for block in screen.content.flatBlocks {
      if let field = block.fieldName, let value = fields[field] { stepData[field] = value }
    }
    let request = HookRequest(
      flowID: currentFlowID, screenID: screen.id, index: frame.screen, type: screen.type, stepData: stepData,
      responses: redactedResponses)
    // A delegate answers `onBeforeStepAdvance`; without one the step's server webhook is called.
    if !context.settings.asksHooks, let webhook = screen.webhook {
      return askWebhook(webhook, request, via: via)
    }
    let started = hookProperties("client")
    emit(.hookStarted, .object(started))
    let name = HookRequest.beforeStepAdvance
    if let mock = context.settings.hookMocks[screen.id] ?? context.settings.hookMocks[""] {
      if tracing { record(.action, "\(name) of \(screen.id) via \(via): mock answers \(mock.resultName)") }
      return answerHook(mock)
    }
    guard context.settings.waitsForResults else {
      return answerHook(.failed(reason: "nobody answers hooks in this run"))
    }
    if tracing { record(.action, "\(name) of \(screen.id) via \(via): waiting for the host's answer") }
    pending = PendingAction(identifier: name, source: .hook(request), flowID: currentFlowID, screenID: screen.id)
    outbox.append(.hookRequested(request))
    return .stay
  }

  /// Everything collected, secret fields left out (the delegate's `responses`).
  var redactedResponses: OrderedDictionary<String, Value> {
    var responses = data
    for block in currentFlow.screens.lazy.flatMap(\.content.flatBlocks) where block.isSecret {
      if let field = block.fieldName { responses.removeValue(forKey: field) }
    }
    return responses
  }

  /// `onBeforeStepRender`, asked before the screen entered is shown, when the host answers it
  /// (`SessionConfig.asksRenderHooks`): a mock answers at once, a session that waits for
  /// results parks on it (true), any other shows the screen as authored.
  mutating func askBeforeShow() -> Bool {
    guard context.settings.asksRenderHooks else { return false }
    let screen = currentScreen
    var request = HookRequest(
      flowID: currentFlowID, screenID: screen.id, index: frame.screen, type: screen.type, stepData: [:],
      responses: redactedResponses)
    request.kind = .beforeStepRender
    let name = HookRequest.beforeStepRender
    let mocks = context.settings.renderMocks
    if !mocks.isEmpty {
      // `--mock render…` stands for the host: a step it does not name gets no override.
      let mock = mocks[screen.id] ?? mocks[""] ?? .proceed(data: nil)
      if tracing { record(.action, "\(name) of \(screen.id): mock answers \(mock.resultName)") }
      applyRender(mock)
      return false
    }
    guard context.settings.waitsForResults else { return false }
    if tracing { record(.action, "\(name) of \(screen.id): waiting for the host's answer") }
    pending = PendingAction(identifier: name, source: .hook(request), flowID: currentFlowID, screenID: screen.id)
    outbox.append(.hookRequested(request))
    return true
  }

  /// The answer to a parked `onBeforeStepRender`, then the screen is shown.
  mutating func answerRender(_ answer: HookAnswer) -> Move {
    pending = nil
    applyRender(answer)
    return reveal()
  }

  /// Keeps an override for the current screen (the SDK keeps the last one per step) and
  /// pre-fills its fields that have no value; any other answer leaves the screen as it is.
  mutating func applyRender(_ answer: HookAnswer) {
    let name = HookRequest.beforeStepRender
    guard case .render(let override) = answer else {
      if tracing {
        let why = if case .failed(let reason) = answer { "failed (\(reason))" } else { "answered no override" }
        record(.action, "\(name) of \(currentScreenID) \(why) → shown as authored")
      }
      return
    }
    overrides[currentScreenID] = override
    let fieldNames = Set(currentScreen.content.flatBlocks.compactMap(\.fieldName))
    var filled: [String] = []
    for (key, value) in override.fieldDefaults where fieldNames.contains(key) && fields[key] == nil {
      fields[key] = value
      filled.append(key)
    }
    if tracing {
      let changed = [("title", override.title), ("subtitle", override.subtitle), ("ctaText", override.ctaText)]
        .compactMap { $0.1 == nil ? nil : $0.0 }
      record(
        .action, "\(name) of \(currentScreenID) answered override",
        details: (changed.isEmpty ? [] : ["overrides: " + changed.joined(separator: ", ")])
          + (filled.isEmpty ? [] : ["pre-filled: " + filled.joined(separator: ", ")]))
    }
  }

  /// `onboarding_hook_completed`, the answer's data merged, then where the answer leads.
  mutating func answerHook(_ answer: HookAnswer, hookType: String = "client", durationMs: Int64 = 0) -> Move {
    if case .render = answer {
      return answerHook(.failed(reason: "an override answers onBeforeStepRender, not this hook"), hookType: hookType)
    }
    pending = nil
    var properties = hookProperties(hookType)
    properties["result"] = .string(answer.resultName)
    properties["duration_ms"] = .number(Double(durationMs))
    emit(.hookCompleted, .object(properties))
    let name = hookType == "server" ? HookRequest.serverWebhook : HookRequest.beforeStepAdvance
    var merged: [String] = []
    switch answer {
    case .proceed(let extra?), .skipTo(_, let extra?):
      for (key, value) in extra {
        fields[key] = value
        validationErrors.removeValue(forKey: key)
        merged.append(key)
      }
    default: break
    }
    let mergedNote = merged.isEmpty ? [] : ["merged data: " + merged.joined(separator: ", ")]
    switch answer {
    case .proceed:
      if tracing { record(.action, "\(name) answered \(answer.resultName) → advance", details: mergedNote) }
      return forwardMove(via: .hook(answer.resultName))
    case .failed(let reason):
      if tracing { record(.action, "\(name) failed (\(reason)) → proceeds normally") }
      return forwardMove(via: .hook("failed"))
    case .render:
      return .stay  // answered above
    case .block(let message):
      let shown = message.isEmpty ? "blocked by \(name)" : message
      // Traced as a leave that stays, so `:why` tells it.
      if tracing {
        record(.leave, "leaving \(currentScreenID) via \(name)", details: ["answered block → stay and show '\(shown)'"])
      }
      lastActionError = shown
      outbox.append(.actionFailed(identifier: name, message: shown))
      return .stay
    case .stay(let message):
      if tracing { record(.leave, "leaving \(currentScreenID) via \(name)", details: ["answered stay → stay"]) }
      if let message, !message.isEmpty { outbox.append(.notice(message)) }
      return .stay
    case .skipTo(let id, _):
      guard let index = context.screenIndex(of: id, inFlow: frame.flow) else {
        if tracing {
          record(
            .action, "\(name) answered skip_to '\(id)': no such step in flow '\(currentFlowID)' → advance",
            details: mergedNote)
        }
        return forwardMove(via: .hook(answer.resultName))
      }
      if tracing {
        record(
          .leave, "leaving \(currentScreenID) via \(name)", details: mergedNote + ["skip_to → \(id)"], destination: id)
      }
      return .to(Frame(flow: frame.flow, screen: index))
    }
  }

  /// `flow_id`, `step_id` and `hook_type` of the hook events.
  func hookProperties(_ type: String) -> OrderedDictionary<String, Value> {
    ["flow_id": .string(currentFlowID), "step_id": .string(currentScreenID), "hook_type": .string(type)]
  }
}
