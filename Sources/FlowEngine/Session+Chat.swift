import FlowExpression
import FlowFormat
import OrderedCollections

/// AppDNA's `interactive_chat` (research §2.12, document 001): the step parks for chat turns;
/// each user message may call the chat webhook, whose answer (or a mock, a script, the person)
/// adds the reply; the step's button submits the transcript once the chat is finished.
extension Session {
  /// The chat of the current step, when it is an `interactive_chat` step.
  public var currentChat: ChatState? { currentScreen.chat == nil ? nil : chats[currentScreenID] }

  /// The inputs that walk the current step's open chat to its turn limit, each turn answered
  /// by `ChatState.plainReply`: explorers and simulated users have nobody to chat with.
  public var chatAutopilot: [Input] {
    // No chat opened yet (most sessions): nothing to read (the screen's model is not copied).
    guard !chats.isEmpty, let config = currentScreen.chat, let chat = currentChat, !chat.isFinished(config) else {
      return []
    }
    let turn: [Input] =
      config.webhook == nil ? [.chat(.send("hello"))] : [.chat(.send("hello")), .webhookAnswered(ChatState.plainReply)]
    return Array(repeating: turn, count: config.maxTurns - chat.turns).flatMap { $0 }
  }

  /// Opens the step's chat the first time (its turn-0 messages and quick replies); a chat
  /// seen before is shown as it was. Either way `chat_step_viewed`.
  mutating func openChat(_ config: ChatConfig) {
    let id = currentScreenID
    if chats[id] == nil {
      var chat = ChatState(openedAt: virtualNow)
      chat.messages = config.openingMessages.map {
        ChatState.Message(role: "ai", content: $0.content, id: $0.id, time: virtualNow)
      }
      chat.quickReplies = offeredQuickReplies(config, atTurn: 0)
      chats[id] = chat
    }
    // Document 001's event; iOS 1.0.70 sends none.
    if !context.settings.iosQuirks { emitChat("chat_step_viewed", [:]) }
  }

  mutating func chat(_ input: ChatInput) {
    guard let config = currentScreen.chat, var chat = chats[currentScreenID] else {
      return reject("screen '\(currentScreenID)' is not a chat step")
    }
    let text: String
    switch input {
    case .rate(let stars):
      guard chat.ratingPrompted, chat.completion == nil else {
        return reject("no rating prompt is shown on '\(currentScreenID)'")
      }
      guard (1...5).contains(stars) else { return reject("a rating is 1 to 5 stars (got \(stars))") }
      chat.rating = stars
      chats[currentScreenID] = chat
      emitChat("chat_rating_submitted", ["rating": .number(Double(stars)), "turn": .number(Double(chat.turns))])
      return
    case .send(let typed):
      text = typed
    case .quickReply(let name):
      let wanted = name.lowercased()
      guard
        let reply = chat.quickReplies.first(where: { $0.id.lowercased() == wanted || $0.text.lowercased() == wanted })
      else {
        let offered = chat.quickReplies.map(\.id).joined(separator: ", ")
        return reject(
          "no quick reply '\(name)' on '\(currentScreenID)' (offered: \(offered.isEmpty ? "none" : offered))")
      }
      emitChat(
        "chat_quick_reply_tapped", ["quick_reply_id": .string(reply.id), "turn": .number(Double(chat.turns))])
      text = reply.text
    }
    guard chat.completion == nil, chat.turns < config.maxTurns else {
      return reject("the chat of '\(currentScreenID)' is finished; its button goes on")
    }
    guard !text.isEmpty else { return reject("a chat message cannot be empty") }
    chat.messages.append(ChatState.Message(role: "user", content: text, id: "msg_u\(chat.turns)", time: virtualNow))
    chat.turns += 1
    let turn = chat.turns
    // Document 001: static replies stay, a turn's own ones join (iOS 1.0.70: none after a send).
    chat.quickReplies = context.settings.iosQuirks ? [] : offeredQuickReplies(config, atTurn: turn)
    if tracing { record(.action, "chat \(currentScreenID) turn \(turn): \(text)") }
    emitChat("chat_message_sent", ["turn": .number(Double(turn)), "message_length": .number(Double(text.count))])
    if !config.hardLimit, config.maxTurns - turn == 1 { outbox.append(.notice("You have 1 message remaining")) }
    if config.ratingTurns.contains(turn), chat.rating == nil {
      chat.rating = 0
      chat.ratingPrompted = true
    }
    if let content = config.turnMessages[turn] {
      chat.messages.append(ChatState.Message(role: "ai", content: content, id: "action_\(turn)", time: virtualNow))
    }
    chats[currentScreenID] = chat
    guard let webhook = config.webhook else { return endTurn(config) }
    askChatWebhook(webhook, config, text)
  }

  private mutating func askChatWebhook(_ webhook: Webhook, _ config: ChatConfig, _ text: String) {
    guard let chat = chats[currentScreenID] else { return }
    let quirks = context.settings.iosQuirks
    var headers: OrderedDictionary<String, String> = ["Content-Type": "application/json"]
    headers.merge(config.headers) { _, new in new }
    var body: OrderedDictionary<String, Value> = [
      "event": "chat_message", "flow_id": .string(currentFlowID), "step_id": .string(currentScreenID),
      "app_id": "", "user_id": .string(user.id),
      "conversation": .object([
        // Document 001: the user turns so far, this one included; iOS 1.0.70: its 0-based index.
        "turn": .number(Double(chat.turns - (quirks ? 1 : 0))), "user_message": .string(text),
        "max_turns": .number(Double(config.maxTurns)),
        "remaining_turns": .number(Double(max(0, config.maxTurns - chat.turns))), "messages": chat.requestMessages,
      ]),
    ]
    if !chat.context.isEmpty { body["context"] = .object(chat.context) }
    if quirks {
      // iOS 1.0.70 leaves the key out until a prompt is shown, then sends 0 until rated.
      if let rating = chat.rating { body["rating"] = .number(Double(rating)) }
    } else {
      // Document 001 sends `"rating": null`; a prompt shown but not answered is no rating.
      body["rating"] = chat.rating.flatMap { $0 > 0 ? .number(Double($0)) : nil } ?? .null
    }
    let call = WebhookCall(
      url: webhook.url, headers: headers, body: .object(body), timeoutMs: webhook.timeoutMs, attempts: 1,
      errorText: webhook.errorText)
    let mocks = context.settings.chatMocks
    if let mock = mocks["\(currentScreenID).\(chat.turns)"] ?? mocks[currentScreenID] ?? mocks[""] {
      return answerChat(mock, to: call)
    }
    guard context.settings.waitsForResults, webhook.hasValidURL else {
      // Explorers walk on as if the webhook answered nothing; an invalid URL fails the call.
      let response: WebhookResponse =
        webhook.hasValidURL ? .response(status: 200, body: "{}") : .network("'\(webhook.url)' is no http(s) URL")
      return answerChat(response, to: call)
    }
    var request = HookRequest(
      flowID: currentFlowID, screenID: currentScreenID, index: frame.screen, type: currentScreen.type, stepData: [:],
      responses: [:])
    request.webhook = call
    if tracing { record(.action, "chat webhook of \(currentScreenID): POST \(webhook.url)") }
    pending = PendingAction(
      identifier: ChatState.identifier, source: .hook(request), flowID: currentFlowID, screenID: currentScreenID)
    outbox.append(.hookRequested(request))
  }

  /// Folds the webhook's answer into the chat: a 2xx JSON reply adds its messages, quick
  /// replies and data and may complete the chat; anything else adds the error bubble. The turn
  /// is spent either way.
  mutating func answerChat(_ response: WebhookResponse, to call: WebhookCall) {
    pending = nil
    guard let config = currentScreen.chat, var chat = chats[currentScreenID] else { return }
    let turn = Value.number(Double(chat.turns))
    var failure: OrderedDictionary<String, Value>?
    switch response {
    case .response(let status, let body) where (200..<300).contains(status):
      guard case .object(let reply)? = Value(parsingJSON: body) else {
        failure = ["error": "invalid JSON response"]
        break
      }
      var count = 0
      if case .list(let items)? = reply["messages"] {
        for item in items {
          guard case .object(let message) = item, case .string(let content)? = message["content"] else { continue }
          chat.messages.append(
            ChatState.Message(role: "ai", content: content, id: "msg_a\(chat.turns)_\(count)", time: virtualNow))
          count += 1
        }
      }
      if case .list(let replies)? = reply["quick_replies"] {
        let given: [ChatConfig.QuickReply] = replies.compactMap { item in
          guard case .object(let r) = item, case .string(let id)? = r["id"], case .string(let text)? = r["text"]
          else { return nil }
          return ChatConfig.QuickReply(id: id, text: text)
        }
        chat.quickReplies =
          context.settings.iosQuirks ? given : Self.distinct(given + offeredQuickReplies(config, atTurn: chat.turns))
      }
      if case .object(let data)? = reply["data"] { chat.context.merge(data) { _, new in new } }
      chats[currentScreenID] = chat
      emitChat("chat_message_received", ["turn": turn, "message_count": .number(Double(count))])
      if reply["force_complete"] == true || reply["action"] == "reply_and_complete" {
        var closing: String?
        if case .string(let text)? = reply["completion_message"] { closing = text }
        return completeChat("ai_completed", closing: closing ?? config.completionMessage)
      }
    case .response(let status, let body):
      failure = ["http_status": .number(Double(status)), "response_body": .string(String(body.prefix(500)))]
    case .timeout:
      virtualNow = Limits.clamp(Limits.saturatingAdd(virtualNow, call.timeoutMs), to: Limits.clockMs)
      failure = ["error": "Request timed out"]
    case .network(let message):
      failure = ["error": .string(message)]
    }
    if let failure {
      chat.messages.append(
        ChatState.Message(
          role: "system", content: call.errorText ?? ChatConfig.defaultErrorText, id: "err_\(chat.turns)",
          time: virtualNow))
      chats[currentScreenID] = chat
      var properties: OrderedDictionary<String, Value> = ["turn": turn]
      properties.merge(failure) { _, new in new }
      emitChat("chat_webhook_error", properties)
    }
    endTurn(config)
  }

  /// The quick replies offered once the user has sent `turn` messages: that turn's
  /// (`show_at_turn`, a `quick_reply_inject`), then the static ones (document 001: "always
  /// shown"). iOS 1.0.70 offers at open those with `show_at_turn` absent or 0, and injects none.
  private func offeredQuickReplies(_ config: ChatConfig, atTurn turn: Int) -> [ChatConfig.QuickReply] {
    guard !context.settings.iosQuirks else {
      return turn == 0 ? config.quickReplies + (config.turnQuickReplies[0] ?? []) : []
    }
    let ofTurn = (config.turnQuickReplies[turn] ?? []) + (config.injectedQuickReplies[turn] ?? [])
    return Self.distinct(ofTurn + config.quickReplies)
  }

  /// The replies with the first of each id.
  private static func distinct(_ replies: [ChatConfig.QuickReply]) -> [ChatConfig.QuickReply] {
    var seen = Set<String>()
    return replies.filter { seen.insert($0.id).inserted }
  }

  /// After a turn: a hard limit reached completes the chat (`max_turns`).
  private mutating func endTurn(_ config: ChatConfig) {
    guard let chat = chats[currentScreenID], chat.completion == nil, chat.turns >= config.maxTurns, config.hardLimit
    else { return }
    completeChat("max_turns", closing: config.completionMessage)
  }

  private mutating func completeChat(_ reason: String, closing: String?) {
    guard var chat = chats[currentScreenID] else { return }
    if let closing {
      chat.messages.append(ChatState.Message(role: "ai", content: closing, id: "completion", time: virtualNow))
    }
    chat.completion = reason
    chats[currentScreenID] = chat
    if tracing { record(.action, "chat \(currentScreenID) completed: \(reason)") }
    // iOS 1.0.70 names it `chat_completed` and sends nothing when the user ends the chat.
    let quirks = context.settings.iosQuirks
    guard !quirks || reason != "user_completed" else { return }
    emitChat(
      quirks ? "chat_completed" : "chat_step_completed",
      [
        "user_turn_count": .number(Double(chat.turns)), "total_messages": .number(Double(chat.messages.count)),
        "duration_ms": .number(Double(virtualNow - chat.openedAt)), "completion_reason": .string(reason),
      ])
  }

  /// The chat's submission (its button): the transcript becomes the step's data; a chat the
  /// user ends by the button completes as `user_completed`. False (rejected) while turns are left.
  mutating func submitChat() -> Bool {
    guard let config = currentScreen.chat, let chat = chats[currentScreenID] else { return true }
    guard chat.isFinished(config) else {
      reject(
        "the chat of '\(currentScreenID)' is not finished (\(chat.turns) of \(config.maxTurns) turns): "
          + ":chat TEXT sends a message")
      return false
    }
    if chat.completion == nil { completeChat("user_completed", closing: nil) }
    guard let done = chats[currentScreenID] else { return true }
    var transcript: OrderedDictionary<String, Value> = [
      "transcript": .list(
        done.messages.filter { $0.role != "system" }.map { message in
          .object([
            "role": .string(message.role), "content": .string(message.content), "id": .string(message.id),
            "timestamp": .string(ChatState.timestamp(message.time)),
          ])
        }),
      "user_turn_count": .number(Double(done.turns)), "total_message_count": .number(Double(done.messages.count)),
      "completion_reason": .string(transcriptReason(done.completion)),
      "duration_ms": .number(Double(virtualNow - done.openedAt)),
    ]
    if let rating = done.rating, rating > 0 || context.settings.iosQuirks {
      transcript["rating"] = .number(Double(rating))
    }
    if !done.context.isEmpty { transcript["webhook_data"] = .object(done.context) }
    fields[currentScreenID] = .object(transcript)
    return true
  }

  /// The transcript's `completion_reason`: the reason as it happened; iOS 1.0.70 says
  /// `max_turns` for any completion but the user's own.
  private func transcriptReason(_ completion: String?) -> String {
    guard let completion, completion != "user_completed" else { return "user_completed" }
    return context.settings.iosQuirks ? "max_turns" : completion
  }

  /// A chat event `{flow_id, step_id, …}` (document 001's names).
  private mutating func emitChat(_ name: String, _ properties: OrderedDictionary<String, Value>) {
    var object: OrderedDictionary<String, Value> = [
      "flow_id": .string(currentFlowID), "step_id": .string(currentScreenID),
    ]
    object.merge(properties) { _, new in new }
    emit(.flowEvent, .object(object), at: frame, named: name)
  }
}
