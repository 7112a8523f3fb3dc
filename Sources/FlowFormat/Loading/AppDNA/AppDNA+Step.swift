import FlowExpression
import OrderedCollections

/// An AppDNA step → a block screen. Legacy steps (welcome, question, value_prop, custom, form)
/// are compiled into blocks too, so one renderer and one engine path serve both layouts.
extension DecodeContext {
  static let appdnaStepTypes = ["welcome", "question", "value_prop", "custom", "form", "interactive_chat"]

  mutating func decodeAppDNAStep(_ value: JSONValue, step: AppDNAStepContext) -> Screen? {
    guard let object = object(value) else { return nil }
    checkKeys(object, known: AppDNAKeys.step, owner: "a step")
    let id = step.stepID
    if object.lookup("id") == nil {
      warning(.AppDNA.generatedID, "the step has no 'id'; using '\(id)'", at: value.location)
    }
    var type = string(object, "type") ?? "custom"
    if !Self.appdnaStepTypes.contains(type) {
      let typeLocation = object.lookup("type")?.location ?? value.location
      report(
        .warning, .AppDNA.unknownType, "unknown step type '\(type)'; it shows as 'custom' (the SDK's rule)",
        at: typeLocation, notes: Self.didYouMean(type, Self.appdnaStepTypes))
      type = "custom"
    }
    // The effective StepConfig: `config` wins over `layout` (the SDK's rule).
    let configKey = object.lookup("config") != nil ? "config" : "layout"
    let configValue = object.lookup(configKey)
    let config = configValue.flatMap { v in at(configKey) { $0.object(v) } } ?? JSONObject(members: [])
    at(configKey) { $0.checkKeys(config, known: AppDNAKeys.stepConfig, owner: "a step's \(configKey)") }
    let layout = object.lookup("layout")?.objectValue
    var blockValues = at(configKey) { $0.array(config, "content_blocks") } ?? []
    var blocksKey = configKey
    if blockValues.isEmpty, let root = array(object, "content_blocks") {
      blockValues = root
      blocksKey = ""
    }
    var blocks: [Block]
    var skip = false
    var fieldAliases: [String: String] = [:]
    if !blockValues.isEmpty {
      blocks = at(blocksKey.isEmpty ? "content_blocks" : "\(blocksKey).content_blocks") { context in
        context.decodeAppDNABlocks(blockValues, stepID: id)
      }
      blocks = at(configKey) { $0.appdnaLocalized(blocks, config: config) }
    } else {
      (blocks, fieldAliases) = at(configKey) {
        $0.decodeAppDNALegacy(config, type: type, stepID: id, at: value.location)
      }
      skip = at(configKey) { $0.appdnaBool(config, "skip_enabled") } ?? false
    }
    var chat: ChatConfig?
    if type == "interactive_chat" {
      let chatValue = config.lookup("chat_config") ?? object.lookup("chat_config")
      chat =
        chatValue.flatMap { v in at(configKey) { $0.at("chat_config") { $0.decodeAppDNAChat(v) } } } ?? ChatConfig()
    }
    let permissionType = Self.appdnaPermissionType(
      (config.lookup("permission_type") ?? layout?.lookup("permission_type"))?.stringValue)
    let permission = Self.appdnaPermission(blocks, stepType: permissionType, step: step)
    blocks = permission.blocks
    let webhook = object.lookup("hook").flatMap { hook in at("hook") { $0.decodeAppDNAWebhook(hook, stepID: id) } }
    let rules = decodeAppDNARules(
      object: object, config: config, configKey: configKey, step: step,
      blocks: blocks, fieldAliases: fieldAliases)
    let kind = Screen.Kind(rawValue: type) ?? .custom
    let autoAdvance = Self.appdnaAutoAdvanceMs(blockValues)
    let hideProgress = appdnaBool(object, "hide_progress") ?? layout?.lookup("hide_progress")?.boolValue ?? false
    let hideBack = appdnaBool(object, "hide_back") ?? layout?.lookup("hide_back")?.boolValue ?? false
    var screen = Screen(
      id: id, name: id, kind: kind, type: type, order: step.index,
      content: ScreenContent(
        usesBlocks: true, blocks: blocks, buttonText: template("Continue", at: nil),
        skipText: skip ? template("Skip", at: nil) : nil, skipAction: skip ? .skip : nil),
      rules: rules, hideProgress: hideProgress, hideBack: hideBack, autoAdvanceMs: autoAdvance,
      location: value.location)
    screen.content.permissionType = permission.type
    screen.autoAdvanceValidates = true
    screen.webhook = webhook
    screen.chat = chat
    return screen
  }

  /// `chat_config` (research §2.12): turns, limit, opening messages and quick replies, turn
  /// actions, completion message and the chat webhook (headers sent verbatim, never retried).
  private mutating func decodeAppDNAChat(_ value: JSONValue) -> ChatConfig? {
    guard let object = object(value) else { return nil }
    var chat = ChatConfig()
    chat.maxTurns = integer(object, "max_user_turns", within: 1...1000) ?? ChatConfig.defaultMaxTurns
    chat.hardLimit = string(object, "turn_limit_behavior") != "soft"
    for item in array(object, "auto_messages") ?? [] {
      guard let message = item.objectValue, let id = string(message, "id"), let content = string(message, "content"),
        (message.integerValue("turn") ?? 0) == 0
      else { continue }
      chat.openingMessages.append(ChatConfig.Message(id: id, content: content))
    }
    for item in array(object, "quick_replies") ?? [] {
      guard let reply = item.objectValue, let id = string(reply, "id"), let text = string(reply, "text") else {
        continue
      }
      if let turn = reply.integerValue("show_at_turn") {
        chat.turnQuickReplies[turn, default: []].append(ChatConfig.QuickReply(id: id, text: text))
      } else {
        chat.quickReplies.append(ChatConfig.QuickReply(id: id, text: text))
      }
    }
    for item in array(object, "turn_actions") ?? [] {
      guard let action = item.objectValue, let turn = action.integerValue("turn") else { continue }
      let config = action.lookup("config")?.objectValue
      switch action.lookup("type")?.stringValue {
      case "rating_prompt": chat.ratingTurns.insert(turn)
      case "auto_message":
        if let content = config?.lookup("content")?.stringValue { chat.turnMessages[turn] = content }
      case "quick_reply_inject":
        // Document 001: turn actions "inject" at a turn; the replies are `config.quick_replies`.
        for reply in config?.lookup("quick_replies")?.arrayValue?.compactMap(\.objectValue) ?? [] {
          guard let id = reply.lookup("id")?.stringValue, let text = reply.lookup("text")?.stringValue else { continue }
          chat.injectedQuickReplies[turn, default: []].append(ChatConfig.QuickReply(id: id, text: text))
        }
      default: break
      }
    }
    chat.completionMessage = object.lookup("completion_message")?.objectValue?.lookup("content")?.stringValue
    if let hook = object.lookup("webhook"), var webhook = at("webhook", { $0.decodeAppDNAWebhook(hook, stepID: "") }) {
      // A chat call is never retried (research §2.12); its headers are sent as written.
      for member in hook.objectValue?.lookup("headers")?.objectValue?.members ?? [] {
        if let text = member.value.stringValue { chat.headers[member.key] = text }
      }
      webhook.retries = 0
      if hook.objectValue?.lookup("timeout_ms") == nil { webhook.timeoutMs = ChatConfig.defaultTimeoutMs }
      chat.webhook = webhook
    }
    return chat
  }

  /// A step's `hook` `{enabled, webhook_url, timeout_ms, retry_count, headers, error_text,
  /// loading_text}`; nil unless enabled.
  private mutating func decodeAppDNAWebhook(_ value: JSONValue, stepID: String) -> Webhook? {
    guard let object = object(value), appdnaBool(object, "enabled") == true else { return nil }
    checkKeys(object, known: AppDNAKeys.hook, owner: "a step's hook")
    var headers: OrderedDictionary<String, TextTemplate> = [:]
    if let headerObject = object.lookup("headers").flatMap({ v in at("headers") { $0.object(v) } }) {
      for member in headerObject.members {
        guard let text = at("headers", { $0.string(member.value, member.key) }) else { continue }
        headers[member.key] = appdnaTemplate(text, at: member.value.location)
      }
    }
    let webhook = Webhook(
      url: string(object, "webhook_url") ?? "", headers: headers,
      timeoutMs: integer(object, "timeout_ms", within: Self.appdnaWebhookTimeouts).map(Int64.init)
        ?? Webhook.defaultTimeoutMs,
      retries: min(integer(object, "retry_count", within: Self.appdnaWebhookRetries) ?? 0, Webhook.maxRetries),
      errorText: string(object, "error_text"))
    if !webhook.hasValidURL {
      warning(
        .AppDNA.invalidWebhook,
        "step '\(stepID)' has an enabled hook without an http(s) webhook_url: the SDK blocks the step with "
          + "'\(webhook.errorText ?? "Invalid webhook URL.")'",
        at: object.lookup("webhook_url")?.location ?? value.location)
    }
    return webhook
  }

  /// When a `countdown_timer` (`on_expire_action: "auto_advance"`, after `duration_seconds`)
  /// or an `animated_loading` (`auto_advance: true`, after its items' durations plus 500 ms, or
  /// `total_duration_ms` rounded up to 50 ms) submits the step, as the SDK times them; the
  /// earliest of a step's, at any depth.
  static func appdnaAutoAdvanceMs(_ blocks: [JSONValue]) -> Double? {
    var earliest: Double?
    for block in blocks {
      guard let object = block.objectValue else { continue }
      var due: Double?
      switch object.lookup("type")?.stringValue {
      case "countdown_timer" where object.lookup("on_expire_action")?.stringValue == "auto_advance":
        let seconds = object.numberValue("duration_seconds") ?? 60
        due = seconds > 0 ? seconds * 1000 : 1000
      case "animated_loading" where object.lookup("auto_advance")?.boolValue == true:
        if let items = object.lookup("loading_items")?.arrayValue, !items.isEmpty {
          due = items.reduce(500) { $0 + ($1.objectValue?.numberValue("duration_ms") ?? 1000) }
        } else {
          due = ((object.numberValue("total_duration_ms") ?? 0) / 50).rounded(.up) * 50
        }
      default:
        let children = object.lookup("children")?.arrayValue ?? object.lookup("stack_children")?.arrayValue ?? []
        due = appdnaAutoAdvanceMs(children)
      }
      if let due, due <= Double(Limits.durationMs.upperBound) { earliest = min(earliest ?? due, due) }
    }
    return earliest
  }

  /// The legacy layout of a step without blocks, as blocks, and the field names its rules and
  /// templates reach under another name (a question's `selected` is the step's own field).
  private mutating func decodeAppDNALegacy(
    _ config: JSONObject, type: String, stepID: String, at stepLocation: SourceLocation
  ) -> ([Block], [String: String]) {
    var blocks: [Block] = []
    var aliases: [String: String] = [:]
    func add(_ content: BlockContent, _ kind: String, at location: SourceLocation?) {
      blocks.append(
        Block(
          id: "\(stepID).\(kind)", type: kind, order: blocks.count, visible: true, visibleWhen: nil,
          content: content, location: location ?? stepLocation))
    }
    if let title = config.lookup("title"), let text = string(title, "title") {
      add(
        .text(TextBlock(text: appdnaTemplate(text, at: title.location), variant: "h1", richText: [])), "title",
        at: title.location)
    }
    if let subtitle = config.lookup("subtitle"), let text = string(subtitle, "subtitle") {
      add(
        .text(TextBlock(text: appdnaTemplate(text, at: subtitle.location), variant: "body", richText: [])),
        "subtitle", at: subtitle.location)
    }
    if let image = config.lookup("image_url"), let url = string(image, "image_url") {
      add(.media(kind: "image", src: url, alt: nil), "image", at: image.location)
    }
    switch type {
    case "question":
      let options = array(config, "options") ?? []
      let multi = string(config, "selection_mode") == "multi"
      let items = at("options") { $0.appdnaOptions(options, storesValue: false) }
      aliases["selected"] = stepID
      add(
        .choice(
          ChoiceBlock(
            fieldName: stepID, label: nil, items: items, allowMultiple: multi, minSelections: nil,
            maxSelections: nil, required: true, action: .next, autoAdvance: false)),
        "options", at: config.lookup("options")?.location)
    case "value_prop":
      for (index, item) in (array(config, "items") ?? []).enumerated() {
        guard let itemObject = item.objectValue else { continue }
        let parts = ["title", "subtitle"].compactMap { itemObject.lookup($0)?.stringValue }
        let line = ([itemObject.lookup("icon")?.stringValue].compactMap { $0 } + parts).joined(separator: " ")
        add(
          .text(TextBlock(text: appdnaTemplate(line, at: item.location), variant: "body", richText: [])),
          "item-\(index + 1)", at: item.location)
      }
    case "form":
      let fields = array(config, "fields") ?? []
      blocks += at("fields") { $0.decodeAppDNAFormFields(fields, stepID: stepID, firstOrder: blocks.count) }
    default:
      break
    }
    // A chat's button is its completion CTA (`chat_config.completion_cta_text ?? cta_text`).
    let chatCTA =
      type == "interactive_chat" ? config.lookup("chat_config")?.objectValue?.lookup("completion_cta_text") : nil
    let cta = (chatCTA ?? config.lookup("cta_text")).flatMap { v in string(v, "cta_text").map { (v, $0) } }
    let ctaText = cta?.1 ?? (type == "welcome" ? "Get Started" : "Continue")
    add(
      .button(
        ButtonBlock(text: appdnaTemplate(ctaText, at: cta?.0.location), action: .next, variant: nil, preset: nil)),
      "cta", at: cta?.0.location)
    return (blocks, aliases)
  }
}
