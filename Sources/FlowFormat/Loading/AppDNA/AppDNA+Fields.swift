import FlowExpression
import FlowPattern

/// Form fields (a legacy `form` step's `fields[]`, document 001's `form` block) → field blocks:
/// validation (required, unanchored `pattern` with `pattern_message`, `max_length`, number
/// min/max) and `depends_on` as the block's visibility.
extension DecodeContext {
  static let appdnaTextFieldKinds: [String: InputBlock.Kind] = [
    "text": .text, "textarea": .text, "email": .email, "phone": .phone, "url": .url, "password": .password,
    "number": .number, "date": .date, "time": .time, "datetime": .datetime, "color": .color, "signature": .text,
    "location": .location, "image_picker": .text, "range_slider": .range,
  ]
  static let appdnaFieldTypes =
    Array(appdnaTextFieldKinds.keys) + [
      "select", "segmented", "chips", "multiline_chips", "slider", "stepper", "rating", "toggle",
    ]
  static let appdnaDependsOperators = ["equals", "not_equals", "contains", "not_empty", "is_set", "empty", "gt", "lt"]

  mutating func decodeAppDNAFormFields(_ values: [JSONValue], stepID: String, firstOrder: Int) -> [Block] {
    var blocks: [Block] = []
    for (index, value) in values.enumerated() {
      at(.index(index)) { context in
        guard let object = context.object(value) else { return }
        context.checkKeys(object, known: AppDNAKeys.field, owner: "a form field")
        var id = context.string(object, "id") ?? ""
        if id.isEmpty {
          id = "\(stepID).field-\(index + 1)"
          context.warning(.AppDNA.generatedID, "the field has no 'id'; using '\(id)'", at: value.location)
        }
        let content = context.appdnaFieldContent(object, id: id, at: value.location)
        let visibleWhen = object.lookup("depends_on").flatMap { v in
          context.at("depends_on") { $0.appdnaDependsOn(v) }
        }
        blocks.append(
          Block(
            id: id, type: object.lookup("type")?.stringValue ?? "text", order: firstOrder + index, visible: true,
            visibleWhen: visibleWhen, content: content, location: value.location))
      }
    }
    return blocks
  }

  private mutating func appdnaFieldContent(
    _ object: JSONObject, id: String, at location: SourceLocation
  )
    -> BlockContent
  {
    var type = string(object, "type") ?? "text"
    if !Self.appdnaFieldTypes.contains(type) {
      report(
        .warning, .AppDNA.unknownType, "unknown field type '\(type)'; it is a text field (the SDK's rule)",
        at: object.lookup("type")?.location ?? location, notes: Self.didYouMean(type, Self.appdnaFieldTypes))
      type = "text"
    }
    let label = templateIn(object, "label")
    let required = appdnaBool(object, "required") ?? false
    let config = object.lookup("config").flatMap { v in at("config") { $0.object(v) } } ?? JSONObject(members: [])
    let number = { (context: inout DecodeContext, key: String) in context.appdnaMagnitude(config, key, in: "config") }
    if var kind = Self.appdnaTextFieldKinds[type] {
      // iOS 1.0.70 checks no email, phone or URL format, no number bounds and no text length.
      let quirks = options.iosQuirks
      if quirks, [.email, .phone, .url].contains(kind) { kind = .text }
      var pattern: Pattern?
      var message: String?
      if let validation = object.lookup("validation")?.objectValue {
        message = validation.lookup("pattern_message")?.stringValue ?? "Invalid format"
        if let source = validation.lookup("pattern") {
          pattern = at("validation") { $0.appdnaPattern(source) }
        }
      }
      var input = InputBlock(
        fieldName: id, label: label, placeholder: templateIn(object, "placeholder"), kind: kind, required: required,
        pattern: pattern, patternMessage: message, minLength: nil,
        maxLength: quirks && type != "password" && type != "url"
          ? nil : appdnaCount(config, "max_length", in: "config"),
        min: kind == .range
          ? number(&self, "min_value") ?? 0 : kind == .number && !quirks ? number(&self, "min_value") : nil,
        max: kind == .range
          ? number(&self, "max_value") ?? 100 : kind == .number && !quirks ? number(&self, "max_value") : nil,
        defaultValue: config.lookup("default_value").map(Value.init))
      if kind == .date || kind == .datetime { input.dateBounds = appdnaDateBounds(config, config: config) }
      return .input(input)
    }
    switch type {
    case "select", "segmented", "chips", "multiline_chips":
      let chips = type == "chips" || type == "multiline_chips"
      let items: [ChoiceBlock.Item]
      if chips {
        items = (config.lookup("suggestions")?.arrayValue ?? []).compactMap(\.stringValue).map {
          ChoiceBlock.Item(id: $0, label: TextTemplate(template: Template(parsing: $0), location: nil), value: $0)
        }
      } else {
        let options = array(object, "options") ?? []
        items = at("options") { $0.appdnaOptions(options, storesValue: false) }
      }
      return .choice(
        ChoiceBlock(
          fieldName: id, label: label, items: items,
          allowMultiple: chips || config.lookup("multi_select")?.boolValue == true,
          minSelections: nil,
          maxSelections: appdnaCount(config, "max_chips", in: "config")
            ?? appdnaCount(config, "max_selections", in: "config"),
          required: required, action: .next, autoAdvance: false))
    case "toggle":
      return .toggle(
        ToggleBlock(fieldName: id, label: label, defaultValue: config.lookup("default_value")?.boolValue ?? false))
    default:  // slider, stepper, rating
      let rating = type == "rating"
      let low = number(&self, "min_value") ?? (rating ? 1 : 0)
      let high = number(&self, "max_value") ?? number(&self, "max_stars") ?? (rating ? 5 : 100)
      let step = number(&self, "step") ?? (rating && config.lookup("allow_half")?.boolValue == true ? 0.5 : 1)
      return .slider(
        SliderBlock(
          fieldName: id, label: label, min: Swift.min(low, high), max: Swift.max(low, high), step: step > 0 ? step : 1,
          defaultValue: number(&self, "default_value") ?? Swift.min(low, high), valuePrefix: nil,
          valueSuffix: config.lookup("unit")?.stringValue))
    }
  }

  /// An AppDNA `validation.pattern`: searched anywhere in the value (the SDK's unanchored
  /// `range(of:options:.regularExpression)`). A pattern that does not compile is an error.
  private mutating func appdnaPattern(_ value: JSONValue) -> Pattern? {
    guard let source = string(value, "pattern") else { return nil }
    do {
      return try Pattern(source, anchoring: .anywhere)
    } catch {
      at("pattern") {
        $0.error(
          .Load.invalidRegex, "invalid regular expression in 'pattern': \(error.message) (every value would fail)",
          at: value.location)
      }
      return nil
    }
  }

  /// `depends_on {field_id, operator, value}` → a visibility condition on the same screen's
  /// field (live, as in the SDK). An unknown operator leaves the field visible.
  private mutating func appdnaDependsOn(_ value: JSONValue) -> Condition? {
    guard let object = object(value), let field = object.lookup("field_id")?.stringValue else { return nil }
    let op = object.lookup("operator")?.stringValue ?? ""
    let operand = object.lookup("value").map(Value.init)
    guard Self.appdnaDependsOperators.contains(op) else {
      report(
        .warning, .AppDNA.unknownType, "unknown depends_on operator '\(op)'; the field stays visible (the SDK's rule)",
        at: object.lookup("operator")?.location ?? value.location,
        notes: Self.didYouMean(op, Self.appdnaDependsOperators))
      return nil
    }
    let structured = op == "not_empty" ? "not_empty" : op == "is_set" ? "not_empty" : op
    if options.iosQuirks, op == "gt" || op == "lt", case .number(let n)? = operand, n == n.rounded() {
      // iOS 1.0.70 casts the value `as? Double`: a whole JSON number fails, the field stays hidden.
      return .never
    }
    if StructuredOperator(rawValue: structured)?.takesValue == true, operand == nil {
      // A missing value hides the field except for not_equals (the SDK compares with nil).
      return op == "not_equals" ? nil : .never
    }
    return appdnaCondition(field: field, op: structured, value: operand, at: value.location)
  }

  /// A structured condition on a field, or nil after reporting why it cannot be built.
  mutating func appdnaCondition(
    field: String, op: String, value: Value?, at location: SourceLocation
  )
    -> Condition?
  {
    do {
      return try Condition.structured(field: field, op: op, value: value)
    } catch {
      self.error(.Load.badCondition, "cannot compile the condition on '\(field)': \(error.message)", at: location)
      return nil
    }
  }
}
