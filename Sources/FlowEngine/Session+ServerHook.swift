import FlowExpression
import FlowFormat
import OrderedCollections

extension Session {
  /// A step's server webhook (research §2.6), asked when no delegate answers hooks: the first
  /// attempt is requested (or answered by a mock); `answerWebhook` folds each attempt.
  mutating func askWebhook(_ webhook: Webhook, _ request: HookRequest, via: Via) -> Move {
    var request = request
    var started = hookProperties("server")
    started["webhook_url"] = .string(webhook.url)
    emit(.hookStarted, .object(started))
    let name = HookRequest.serverWebhook
    guard webhook.hasValidURL else {
      if tracing { record(.action, "\(name) of \(currentScreenID) via \(via): '\(webhook.url)' is no http(s) URL") }
      return answerHook(.block(message: webhook.errorText ?? "Invalid webhook URL."), hookType: "server")
    }
    var headers: OrderedDictionary<String, String> = ["Content-Type": "application/json"]
    for (header, template) in webhook.headers { headers[header] = render(template) }
    // `app_id` is the SDK's configured app key; a simulator has none.
    let body: Value = .object([
      "flow_id": .string(request.flowID), "step_id": .string(request.screenID),
      "step_index": .number(Double(request.index)), "step_type": .string(request.type),
      "step_data": .object(request.stepData), "responses": .object(request.responses),
      "user_id": .string(user.id), "app_id": "",
    ])
    request.webhook = WebhookCall(
      url: webhook.url, headers: headers, body: body, timeoutMs: webhook.timeoutMs, attempts: 1 + webhook.retries,
      errorText: webhook.errorText)
    if tracing { record(.action, "\(name) of \(currentScreenID) via \(via): POST \(webhook.url)") }
    return requestWebhook(request)
  }

  /// Asks for the attempt `request.webhook` describes: a mock answers at once, a session that
  /// waits for results parks on it, any other proceeds (explorers walk on as if it said so).
  private mutating func requestWebhook(_ request: HookRequest) -> Move {
    guard let call = request.webhook else { return .stay }
    if let mock = context.settings.webhookMocks[request.screenID] ?? context.settings.webhookMocks[""] {
      return answerWebhook(mock, to: call, request)
    }
    guard context.settings.waitsForResults else {
      if tracing { record(.action, "nobody answers webhooks in this run → proceed") }
      return answerHook(.proceed(data: nil), hookType: "server")
    }
    pending = PendingAction(
      identifier: HookRequest.serverWebhook, source: .hook(request), flowID: currentFlowID, screenID: request.screenID)
    outbox.append(.hookRequested(request))
    return .stay
  }

  /// Folds one attempt: a 2xx answer is read as the step's result; a failure is retried after
  /// the backoff while attempts are left, else it blocks the step (the SDK's behaviour: a server
  /// hook is the one hook that does not proceed when it fails). Timed-out attempts and backoffs
  /// move the virtual clock.
  mutating func answerWebhook(_ response: WebhookResponse, to call: WebhookCall, _ request: HookRequest) -> Move {
    var call = call
    if case .response(let status, let body) = response, (200..<300).contains(status) {
      let answer = ServerHookAnswer.answer(body: body, errorText: call.errorText)
      if tracing { record(.action, "\(HookRequest.serverWebhook) answered HTTP \(status) (attempt \(call.attempt))") }
      return answerHook(answer, hookType: "server", durationMs: call.elapsedMs)
    }
    let failure: (type: String, message: String)
    switch response {
    case .timeout:
      failure = ("timeout", "Request timed out")
      call.elapsedMs = Limits.saturatingAdd(call.elapsedMs, call.timeoutMs)
      passTime(call.timeoutMs)
    case .network(let message): failure = ("network", message)
    case .response(let status, _): failure = ("network", "HTTP \(status)")
    }
    if tracing {
      record(
        .action, "\(HookRequest.serverWebhook) attempt \(call.attempt) of \(call.attempts) failed: \(failure.message)")
    }
    guard call.attempt >= call.attempts else {
      var retry = hookProperties("server")
      retry.removeValue(forKey: "hook_type")
      retry["attempt_number"] = .number(Double(call.attempt))
      emit(.hookRetry, .object(retry))
      call.elapsedMs = Limits.saturatingAdd(call.elapsedMs, call.backoffMs)
      passTime(call.backoffMs)
      call.attempt += 1
      var next = request
      next.webhook = call
      return requestWebhook(next)
    }
    return failWebhook(call, type: failure.type, message: failure.message)
  }

  /// The webhook gave up: `onboarding_hook_error`, then the step blocks with `error_text` or the
  /// SDK's message for a timeout or a network error.
  mutating func failWebhook(_ call: WebhookCall, type: String, message: String) -> Move {
    var error = hookProperties("server")
    error["error_type"] = .string(type)
    error["error_message"] = .string(message)
    emit(.hookError, .object(error))
    let fallback =
      type == "timeout" ? "Request timed out. Please try again." : "Network error. Please check your connection."
    return answerHook(.block(message: call.errorText ?? fallback), hookType: "server", durationMs: call.elapsedMs)
  }

  /// Virtual time spent waiting on the webhook: no timer of the step fires meanwhile.
  private mutating func passTime(_ ms: Int64) {
    virtualNow = Limits.clamp(Limits.saturatingAdd(virtualNow, ms), to: Limits.clockMs)
  }
}
