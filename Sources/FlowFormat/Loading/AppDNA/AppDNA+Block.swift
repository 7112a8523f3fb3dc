import FlowExpression
import FlowPattern

/// AppDNA content blocks → model blocks: each family by its SDK name and by document 001's
/// name (`title`, `subtitle`, `option_list`, `form`).
extension DecodeContext {
  static let appdnaTextTypes: [String: String] = [
    "title": "h1", "subtitle": "body", "text": "body", "rich_text": "body",
  ]
  static let appdnaMediaTypes: [String: String] = [
    "image": "image_url", "video": "video_url", "lottie": "lottie_url", "rive": "rive_url",
    "pulsing_avatar": "image_url",
  ]
  static let appdnaInputKinds: [String: InputBlock.Kind] = [
    "input_text": .text, "input_textarea": .text, "input_email": .email, "input_phone": .phone,
    "input_url": .url, "input_number": .number, "input_password": .password, "input_date": .date,
    "input_time": .time, "input_datetime": .datetime, "input_color": .color, "input_signature": .text,
    "input_location": .location, "otp_input": .text, "input_range_slider": .range, "date_wheel_picker": .date,
  ]
  static let appdnaChoiceTypes: Set<String> = ["input_select", "option_list", "input_segmented", "input_chips"]
  static let appdnaNumberTypes: Set<String> = [
    "input_slider", "input_stepper", "wheel_picker", "input_rating", "rating",
  ]
  static let appdnaContainerTypes: Set<String> = ["stack", "row", "carousel"]
  /// Decorative or interaction-driven blocks flowrun shows as a placeholder line.
  static let appdnaPlaceholderTypes: Set<String> = [
    "section_background", "media_gallery", "warning_banner", "speech_bubble", "feedback_panel", "summary_screen",
    "settings_footer", "password_strength", "press_hold_confirm", "health_connect", "memory_match",
    "calendar_month", "input_image_picker",
  ]
  static var appdnaBlockTypes: [String] {
    Array(appdnaTextTypes.keys) + Array(appdnaMediaTypes.keys) + Array(appdnaInputKinds.keys)
      + Array(appdnaChoiceTypes) + Array(appdnaNumberTypes) + Array(appdnaContainerTypes)
      + Array(appdnaPlaceholderTypes)
      + [
        "heading", "button", "form", "page_indicator", "progress_bar", "list", "badge", "icon", "divider",
        "spacer", "toggle", "input_toggle", "custom_view", "countdown_timer", "animated_loading",
      ] + appdnaTextLikeTypes
  }

  /// `nested`: the children of a stack, row or carousel. iOS 1.0.70's required gate reads
  /// top-level blocks only, so with `--ios-quirks` a nested block is never required.
  mutating func decodeAppDNABlocks(_ values: [JSONValue], stepID: String, nested: Bool = false) -> [Block] {
    var blocks: [Block] = []
    for (index, value) in values.enumerated() {
      at(.index(index)) { context in
        guard var block = context.decodeAppDNABlock(value, index: index, stepID: stepID) else { return }
        if nested, context.options.iosQuirks { block.content = Self.notRequired(block.content) }
        blocks.append(block)
      }
    }
    return blocks
  }

  private static func notRequired(_ content: BlockContent) -> BlockContent {
    switch content {
    case .input(var input):
      input.required = false
      return .input(input)
    case .choice(var choice):
      choice.required = false
      return .choice(choice)
    default: return content
    }
  }

  private mutating func decodeAppDNABlock(_ value: JSONValue, index: Int, stepID: String) -> Block? {
    guard let object = object(value) else { return nil }
    checkKeys(object, known: AppDNAKeys.block, owner: "a block")
    var id = string(object, "id") ?? ""
    if id.isEmpty {
      id = "\(stepID).block-\(index + 1)"
      warning(.AppDNA.generatedID, "the block has no 'id'; using '\(id)'", at: value.location)
    }
    let type = string(object, "type") ?? ""
    var content = decodeAppDNABlockContent(object, type: type, id: id, stepID: stepID, at: value.location)
    let bindings = object.lookup("bindings").flatMap { v in at("bindings") { $0.object(v) } }
    if let bindings { content = at("bindings") { $0.appdnaBound(content, bindings, block: object) } }
    if case .toggle = content, let description = templateIn(object, "toggle_description") {
      // The description is a caption under the toggle (localized as `block.<id>.description`).
      content = .scrollContainer([
        Block(
          id: id, type: type, order: 0, visible: true, visibleWhen: nil, content: content, location: value.location),
        Block(
          id: "\(id).description", type: "toggle_description", order: 1, visible: true, visibleWhen: nil,
          content: .text(TextBlock(text: description, variant: "caption", richText: [])), location: value.location),
      ])
    }
    let visibleWhen = object.lookup("visibility_condition").flatMap { v in
      at("visibility_condition") { $0.appdnaVisibility(v, bindings: bindings) }
    }
    return Block(
      id: id, type: type, order: index, visible: true, visibleWhen: visibleWhen, content: content,
      location: value.location)
  }

  private mutating func decodeAppDNABlockContent(
    _ object: JSONObject, type: String, id: String, stepID: String, at location: SourceLocation
  ) -> BlockContent {
    let field = string(object, "field_id") ?? id
    let label = templateIn(object, "field_label") ?? templateIn(object, "label")
    let required = appdnaBool(object, "field_required") ?? false
    let fieldConfig = object.lookup("field_config")?.objectValue ?? JSONObject(members: [])
    if let variant = Self.appdnaTextTypes[type] {
      let key = type == "rich_text" ? "markdown_content" : "text"
      return .text(TextBlock(text: templateIn(object, key), variant: variant, richText: []))
    }
    if let urlKey = Self.appdnaMediaTypes[type] {
      return .media(kind: type, src: object.lookup(urlKey)?.stringValue, alt: object.lookup("alt")?.stringValue)
    }
    if var kind = Self.appdnaInputKinds[type] {
      if type == "date_wheel_picker" {
        kind = ["time": .time, "datetime": .datetime][object.lookup("picker_mode")?.stringValue ?? ""] ?? .date
      }
      var input = InputBlock(
        fieldName: field, label: label, placeholder: templateIn(object, "field_placeholder"), kind: kind,
        required: required, pattern: nil, patternMessage: nil, minLength: nil,
        maxLength: appdnaCount(fieldConfig, "max_length", in: "field_config"), min: nil, max: nil,
        defaultValue: nil, secret: type == "otp_input" || kind == .password)
      // The SDK's date pickers store full ISO-8601 UTC strings.
      input.storesISO = [.date, .time, .datetime].contains(kind)
      if kind == .range { appdnaRangeBlock(&input, object, fieldConfig) }
      if kind == .date || kind == .datetime { input.dateBounds = appdnaDateBounds(object, config: fieldConfig) }
      return .input(input)
    }
    if let content = appdnaTextLike(object, type: type, id: id, field: field, label: label, at: location) {
      return content
    }
    if Self.appdnaChoiceTypes.contains(type) {
      let options = array(object, "field_options") ?? array(object, "options") ?? []
      let multi =
        type == "input_chips" || appdnaBool(object, "multi_select") == true
        || fieldConfig.lookup("multi_select")?.boolValue == true
        || object.lookup("selection_mode")?.stringValue == "multi"
      return .choice(
        ChoiceBlock(
          fieldName: field, label: label, items: appdnaOptions(options, storesValue: true), allowMultiple: multi,
          minSelections: nil, maxSelections: appdnaCount(fieldConfig, "max_selections", in: "field_config"),
          required: required, action: .next, autoAdvance: false))
    }
    if Self.appdnaNumberTypes.contains(type) {
      let number = { (context: inout DecodeContext, key: String, configKey: String) in
        context.appdnaMagnitude(object, key) ?? context.appdnaMagnitude(fieldConfig, configKey, in: "field_config")
      }
      let rating = type == "input_rating" || type == "rating"
      let min = number(&self, "min_value", "min_value") ?? (rating ? 1 : 0)
      let max =
        appdnaMagnitude(object, "max_value_picker") ?? number(&self, "max_value", "max_value")
        ?? (rating ? appdnaMagnitude(object, "max_stars") ?? 5 : 100)
      let half = rating && appdnaBool(object, "allow_half") == true
      let step = number(&self, "step_value", "step") ?? (half ? 0.5 : 1)
      let initial =
        number(&self, "default_picker_value", "default_value")
        ?? (rating ? appdnaMagnitude(object, "default_rating") : nil)
        ?? min
      return .slider(
        SliderBlock(
          fieldName: field, label: rating ? label ?? templateIn(object, "rating_label") : label,
          min: Swift.min(min, max), max: Swift.max(min, max),
          step: step > 0 ? step : 1, defaultValue: initial, valuePrefix: nil,
          valueSuffix: object.lookup("unit")?.stringValue))
    }
    if Self.appdnaContainerTypes.contains(type) {
      let children = array(object, "children") ?? array(object, "stack_children") ?? []
      let key = object.lookup("children") != nil ? "children" : "stack_children"
      return .scrollContainer(at(key) { $0.decodeAppDNABlocks(children, stepID: stepID, nested: true) })
    }
    switch type {
    case "heading":
      let level = object.numberValue("level") ?? 1
      return .text(
        TextBlock(text: templateIn(object, "text"), variant: level <= 1 ? "h1" : level == 2 ? "h2" : "h3", richText: [])
      )
    case "button":
      let action = Self.appdnaAction(
        object.lookup("action")?.stringValue ?? "next", value: object.lookup("action_value")?.stringValue)
      return .button(
        ButtonBlock(
          text: templateIn(object, "text") ?? template("Continue", at: nil), action: action,
          variant: object.lookup("variant")?.stringValue, preset: nil))
    case "form":
      let fields = array(object, "fields") ?? []
      return .scrollContainer(at("fields") { $0.decodeAppDNAFormFields(fields, stepID: stepID, firstOrder: 0) })
    case "toggle", "input_toggle":
      let name = type == "toggle" ? "toggle_\(id)" : field
      return .toggle(
        ToggleBlock(
          fieldName: name, label: templateIn(object, "toggle_label") ?? label,
          defaultValue: appdnaBool(object, "toggle_default") ?? false))
    case "page_indicator", "progress_bar": return .progress(variant: type == "page_indicator" ? "dots" : "bar")
    case "divider":
      guard let label = object.lookup("divider_text")?.stringValue, !label.isEmpty else { return .divider }
      return .text(
        TextBlock(text: appdnaTemplate(Self.dividerLine(label), at: location), variant: "caption", richText: []))
    case "spacer": return .spacer
    case "badge": return .text(TextBlock(text: templateIn(object, "badge_text"), variant: "label", richText: []))
    case "icon": return .icon(object.lookup("icon_emoji")?.stringValue ?? "•")
    case "list":
      // One line per item (`block.<id>.item.<i>` localizes line i), marked as `list_style` says.
      let items = (array(object, "items") ?? []).compactMap(\.stringValue)
      let style = object.lookup("list_style")?.stringValue
      let lines = items.enumerated().map { index, item in
        Self.listMark(style, index) + appdnaTemplate(Self.oneLine(item), at: location).template.source
      }
      let text = TextTemplate(
        template: Template(parsing: lines.joined(separator: "\n")), location: object.lookup("items")?.location)
      return .text(TextBlock(text: text, variant: "body", richText: []))
    case "countdown_timer", "animated_loading":
      // Shown as a placeholder line; the step's auto-advance carries their timing.
      checkAppDNADurations(object)
      return .media(kind: type, src: nil, alt: object.lookup("loading_text")?.stringValue)
    case "custom_view":
      return .custom(
        identifier: object.lookup("view_key")?.stringValue,
        props: object.lookup("custom_config").map(Value.init) ?? .null)
    default:
      if Self.appdnaPlaceholderTypes.contains(type) {
        warning(.AppDNA.notRunYet, "block type '\(type)' is shown as a placeholder; it does not run yet", at: location)
        return .media(kind: type, src: nil, alt: nil)
      }
      report(
        .warning, .AppDNA.unknownType, "unknown block type '\(type)'; it renders nothing (the SDK's rule)",
        at: object.lookup("type")?.location ?? location, notes: Self.didYouMean(type, Self.appdnaBlockTypes))
      return .unsupported
    }
  }

  static func dividerLine(_ label: String) -> String { "── \(oneLine(label)) ──" }

  static func listMark(_ style: String?, _ index: Int) -> String {
    switch style {
    case "numbered": "\(index + 1). "
    case "check": "✓ "
    default: "• "
    }
  }

  static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).joined(separator: " ")
  }

  /// A button's action. Auth, plan and other host actions submit the step as `next` does (the
  /// SDK's "submit" path); `permission` asks the host (`appdnaPermission`).
  private static func appdnaAction(_ name: String, value: String?) -> Action {
    switch name {
    case "next": return .next
    case "skip": return .skip
    case "back": return .previous
    case "dismiss", "close": return .dismiss
    case "link": return value.map(Action.openURL) ?? .next
    // The step's permission pipeline replaces it (`appdnaPermission`); without one, it submits.
    case "permission": return .custom(CustomAction(identifier: "permission." + (value ?? "")))
    default: return .next
    }
  }

  /// `field_options[]` / `options[]`: the stored value is `value ?? id` for blocks, the option
  /// id for legacy questions and form fields.
  mutating func appdnaOptions(_ values: [JSONValue], storesValue: Bool) -> [ChoiceBlock.Item] {
    values.enumerated().compactMap { index, value in
      guard let option = value.objectValue else { return nil }
      let id = option.lookup("id")?.stringValue ?? option.lookup("value")?.stringValue ?? "option-\(index + 1)"
      let stored = storesValue ? option.lookup("value")?.stringValue ?? id : id
      let label = option.lookup("label")?.stringValue ?? option.lookup("text")?.stringValue ?? id
      return ChoiceBlock.Item(id: id, label: appdnaTemplate(label, at: value.location), value: stored)
    }
  }

  /// The template under `key` in AppDNA syntax, if present and a string.
  mutating func templateIn(_ object: JSONObject, _ key: String) -> TextTemplate? {
    guard let value = object.lookup(key), let text = string(value, key) else { return nil }
    return appdnaTemplate(text, at: value.location)
  }
}
