import FlowExpression
import FlowPattern

extension DecodeContext {
  static let knownBlockTypes: [String] = [
    "text", "image", "video", "lottie", "icon", "button", "input", "checklist", "quiz-question",
    "goal-selector", "slider", "toggle", "progress", "spacer", "divider", "feature-card",
    "scroll-container", "custom", "loading-indicator",
  ]

  /// `knownBlockTypes` for lookups: by length, not one string comparison per type (it showed in
  /// profiles of big flows). Looked up once per block: its index is what the block stores.
  static let knownBlockTypeSet = KeySet(knownBlockTypes)

  mutating func decodeBlock(_ value: JSONValue, index: Int) -> (Block, y: Double?)? {
    guard let object = object(value) else { return nil }
    checkKeys(object, known: KnownKeys.blockEnvelope, owner: "a block")
    let id = requiredString(object, "id", in: "block \(index + 1)", at: value.location)
    let type = requiredString(object, "type", in: "block '\(id ?? String(index + 1))'", at: value.location)
    guard let id, let type else { return nil }
    var y: Double?
    if let position = object.lookup("position")?.objectValue, case .number(let py, _)? = position.lookup("y")?.kind {
      y = py
    }
    let contentObject: JSONObject
    let contentLocation: SourceLocation
    if let contentValue = object.lookup("content") {
      guard let decoded = at("content", { $0.object(contentValue) }) else { return nil }
      contentObject = decoded
      contentLocation = contentValue.location
    } else {
      contentObject = JSONObject(members: [])
      contentLocation = value.location
    }
    let typeIndex = Self.knownBlockTypeSet.index(of: type)
    if typeIndex == nil {
      // At the type itself, the key to fix (issue 19), not at the block or its content.
      let typeLocation = object.lookup("type")?.location ?? value.location
      at("type") {
        $0.report(
          .warning, .Load.unknownBlockType, "unknown block type '\(type)'; it is shown as unsupported",
          at: typeLocation,
          notes: Self.didYouMean(type, Self.knownBlockTypes))
      }
    }
    let interpolating = interpolatingTemplates
    let content = at("content") {
      $0.decodeBlockContent(contentObject, type: type, isKnown: typeIndex != nil, blockID: id, at: contentLocation)
    }
    let plainTexts = interpolatingTemplates == interpolating
    let visibleWhen = object.lookup("visibleWhen").flatMap { v in at("visibleWhen") { $0.condition(v) } }
    return (
      Block(
        id: id, type: type, typeIndex: typeIndex, order: integer(object, "order") ?? index,
        visible: bool(object, "visible") ?? true, visibleWhen: visibleWhen,
        content: content, location: value.location, plainTexts: plainTexts),
      y
    )
  }

  mutating func decodeBlockContent(
    _ object: JSONObject,
    type: String,
    isKnown: Bool,
    blockID: String,
    at location: SourceLocation
  ) -> BlockContent {
    // An unknown block type's keys are its own business: one warning about the type suffices.
    if isKnown {
      checkKeys(object, known: KnownKeys.blockContent, owner: "block content")
    }
    switch type {
    case "text":
      var spans: [TextBlock.Span] = []
      if let spanValues = array(object, "richText") {
        // At the count written, not grown by doubling (a 3-span text kept a fourth slot).
        spans.reserveCapacity(spanValues.count)
        at("richText") { context in
          for (index, spanValue) in spanValues.enumerated() {
            context.at(.index(index)) { context in
              guard let span = context.object(spanValue) else { return }
              context.checkKeys(span, known: KnownKeys.richTextSpan, owner: "a rich text span")
              guard let text = context.templateField(span, "text") else {
                context.error(
                  .Load.missingKey, "a rich text span is missing required key 'text'", at: spanValue.location)
                return
              }
              spans.append(
                .init(
                  text: text, bold: context.bool(span, "bold") ?? false, italic: context.bool(span, "italic") ?? false))
            }
          }
        }
      }
      return .text(TextBlock(text: templateField(object, "text"), variant: string(object, "variant"), richText: spans))
    case "image", "video", "lottie":
      return .media(kind: type, src: string(object, "src"), alt: string(object, "alt"))
    case "icon":
      return .icon(string(object, "icon") ?? "")
    case "button":
      return .button(
        ButtonBlock(
          text: templateField(object, "text") ?? Self.defaultButtonText,
          action: object.lookup("action").flatMap { v in at("action") { $0.decodeAction(v) } } ?? .next,
          variant: string(object, "variant"), preset: string(object, "preset"),
          analytics: at("analytics") { $0.decodeAnalytics(object.lookup("analytics")) }))
    case "input":
      return .input(decodeInput(object, blockID: blockID, at: location))
    case "checklist", "quiz-question", "goal-selector":
      return .choice(decodeChoice(object, type: type, blockID: blockID, at: location))
    case "slider":
      return .slider(decodeSlider(object, blockID: blockID, at: location))
    case "toggle":
      return .toggle(
        ToggleBlock(
          fieldName: fieldName(object, type: type, blockID: blockID, at: location),
          label: templateField(object, "label") ?? templateField(object, "fieldLabel"),
          defaultValue: bool(object, "defaultValue") ?? false))
    case "progress":
      return .progress(variant: string(object, "variant") ?? "bar")
    case "spacer":
      return .spacer
    case "divider":
      return .divider
    case "feature-card":
      return .featureCard(
        headline: templateField(object, "headline") ?? templateField(object, "text"),
        body: templateField(object, "body"))
    case "scroll-container":
      let children = array(object, "children").map { values in at("children") { $0.decodeBlocks(values) } } ?? []
      return .scrollContainer(children)
    case "custom":
      return .custom(identifier: string(object, "identifier"), props: object.lookup("props").map(Value.init) ?? .null)
    default:  // reported by `decodeBlock`, at the type
      return .unsupported
    }
  }

  /// A button's `analytics`: `category`, `object` and `verb` (strings) and `params` (an object),
  /// as document 003's `EventButton` takes them.
  mutating func decodeAnalytics(_ value: JSONValue?) -> Value? {
    guard let value else { return nil }
    guard let object = self.object(value) else { return nil }
    checkKeys(object, known: KnownKeys.analytics, owner: "button analytics")
    for key in ["category", "object", "verb"] {
      if let member = object.lookup(key) { _ = string(member, key) }
    }
    if let params = object.lookup("params"), params.objectValue == nil {
      at("params") { $0.mismatch(params, expected: "an object of parameters") }
    }
    return Value(value)
  }

  /// The key a collecting block's value is stored under: `fieldName`, else `fieldLabel` (the
  /// Sequence SDK's fallback), trimmed of spaces; else the block's id, as document 000 says
  /// ("each block has a unique id that becomes the key in the collected data object"), which
  /// `check` notes.
  mutating func fieldName(_ object: JSONObject, type: String, blockID: String, at location: SourceLocation) -> String {
    let raw = string(object, "fieldName") ?? string(object, "fieldLabel")
    if let trimmed = raw?.trimmingSpaces, !trimmed.isEmpty { return trimmed }
    report(
      .note, .Load.fieldFromBlockID,
      "\(type) block '\(blockID)' has no fieldName: its value is collected under its id '\(blockID)'",
      at: location, notes: [Diagnostic.Note("add \"fieldName\" to collect it under another name")])
    return blockID
  }

  mutating func decodeInput(_ object: JSONObject, blockID: String, at location: SourceLocation) -> InputBlock {
    var kind = InputBlock.Kind.text
    if let raw = string(object, "inputType") {
      if let known = InputBlock.Kind(rawValue: raw), InputBlock.Kind.sequenceKinds.contains(known) {
        kind = known
      } else {
        at("inputType") {
          $0.report(
            .warning, .Load.unknownValue, "unknown inputType '\(raw)'; treated as 'text'",
            at: object.lookup("inputType")?.location,
            notes: Self.didYouMean(raw, InputBlock.Kind.sequenceKinds.map(\.rawValue)))
        }
      }
    }
    var pattern: Pattern?
    if let source = string(object, "pattern") {
      let location = object.lookup("pattern")?.location
      switch self.pattern(source, at: location) {
      case .success(let compiled): pattern = compiled
      case .failure(let error):
        at("pattern") { $0.error(.Load.invalidRegex, "invalid regular expression '\(source)': \(error)", at: location) }
      }
    }
    return InputBlock(
      fieldName: fieldName(object, type: "input", blockID: blockID, at: location),
      label: templateField(object, "label") ?? templateField(object, "fieldLabel"),
      placeholder: templateField(object, "placeholder"), kind: kind,
      required: bool(object, "required") ?? false, pattern: pattern,
      patternMessage: string(object, "patternMessage"),
      minLength: integer(object, "minLength", within: Limits.count),
      maxLength: integer(object, "maxLength", within: Limits.count),
      min: number(object, "min", within: Self.magnitudes), max: number(object, "max", within: Self.magnitudes),
      defaultValue: object.lookup("defaultValue").map(Value.init), secret: bool(object, "secret"))
  }

  mutating func decodeChoice(
    _ object: JSONObject, type: String, blockID: String, at location: SourceLocation
  ) -> ChoiceBlock {
    var items: [ChoiceBlock.Item] = []
    if let itemValues = array(object, "items") {
      items.reserveCapacity(itemValues.count)
      at("items") { context in
        for (index, itemValue) in itemValues.enumerated() {
          context.at(.index(index)) { context in
            guard let item = context.object(itemValue) else { return }
            context.checkKeys(item, known: KnownKeys.item, owner: "a checklist item")
            let id = context.requiredString(item, "id", in: "a checklist item", at: itemValue.location)
            guard let id else { return }
            let label = context.templateField(item, "label")
            if label == nil, item.lookup("label") == nil {
              context.error(
                .Load.missingKey, "checklist item '\(id)' is missing required key 'label'", at: itemValue.location)
            }
            var collected = id
            if let raw = item.lookup("value") {
              switch raw.kind {
              case .string(let s): collected = s
              case .number(let d, _): collected = Value.number(d).displayString
              case .bool(let b): collected = String(b)
              default: context.at("value") { $0.mismatch(raw, expected: "a string") }
              }
            }
            items.append(.init(id: id, label: label ?? context.template(id, at: nil), value: collected))
          }
        }
      }
    } else if object.lookup("items") == nil {
      warning(.Load.missingKey, "a \(type) block has no 'items'", at: location)
    }
    return ChoiceBlock(
      fieldName: fieldName(object, type: type, blockID: blockID, at: location), label: templateField(object, "label"),
      items: items,
      allowMultiple: bool(object, "allowMultiple") ?? (type == "goal-selector"),
      minSelections: integer(object, "minSelections", within: Limits.count),
      maxSelections: integer(object, "maxSelections", within: Limits.count),
      required: bool(object, "required") ?? false,
      action: object.lookup("action").flatMap { v in at("action") { $0.decodeAction(v) } } ?? .next,
      autoAdvance: bool(object, "autoAdvance") ?? true)
  }

  /// Slider and number-input bounds, steps and defaults: `Limits.magnitude` either side of 0.
  static let magnitudes = -Limits.magnitude...Limits.magnitude

  mutating func decodeSlider(_ object: JSONObject, blockID: String, at location: SourceLocation) -> SliderBlock {
    let min = number(object, "min", within: Self.magnitudes) ?? 0
    let max = number(object, "max", within: Self.magnitudes) ?? 100
    var step = number(object, "step", within: Self.magnitudes) ?? 1
    if !(step > 0) {
      at("step") {
        $0.error(.Load.outOfRange, "slider step must be positive, found \(step)", at: object.lookup("step")?.location)
      }
      step = 1
    }
    return SliderBlock(
      fieldName: fieldName(object, type: "slider", blockID: blockID, at: location),
      label: templateField(object, "label") ?? templateField(object, "fieldLabel"),
      min: min, max: max, step: step, defaultValue: number(object, "defaultValue", within: Self.magnitudes) ?? min,
      valuePrefix: string(object, "valuePrefix"), valueSuffix: string(object, "valueSuffix"))
  }
}
