import FlowExpression
import OrderedCollections

/// The AppDNA blocks flowrun shows as text lines or plain controls: `timeline`,
/// `circular_gauge`, `star_background` (cosmetic: nothing), `pricing_card` (a choice of
/// plans) and `social_login` (one awaited sign-in action per enabled provider), and the
/// bounds of a range block.
extension DecodeContext {
  static let appdnaTextLikeTypes = ["timeline", "circular_gauge", "star_background", "pricing_card", "social_login"]

  mutating func appdnaTextLike(
    _ object: JSONObject, type: String, id: String, field: String, label: TextTemplate?, at location: SourceLocation
  ) -> BlockContent? {
    switch type {
    case "star_background":
      return .text(TextBlock(text: nil, variant: nil, richText: []))
    case "timeline":
      // ✓ completed, ● current, ○ upcoming (the SDK's three statuses).
      let lines = (array(object, "timeline_items") ?? []).compactMap(\.objectValue).map { item in
        let mark = ["completed": "✓", "current": "●"][item.lookup("status")?.stringValue ?? ""] ?? "○"
        let title = item.lookup("title")?.stringValue ?? ""
        let subtitle = item.lookup("subtitle")?.stringValue.map { " — " + $0 } ?? ""
        return "\(mark) " + Self.oneLine(title + subtitle)
      }
      return .text(
        TextBlock(text: appdnaTemplate(lines.joined(separator: "\n"), at: location), variant: "body", richText: []))
    case "circular_gauge":
      let js = NumberFormatting.javaScriptString
      let value = object.numberValue("gauge_value") ?? 0
      let max = object.numberValue("max_value") ?? 100
      let sublabel = object.lookup("sublabel")?.stringValue.map { " " + $0 } ?? ""
      return .text(
        TextBlock(
          text: appdnaTemplate("◔ \(js(value))/\(js(max))\(sublabel)", at: location), variant: "body", richText: []))
    case "pricing_card":
      let plans = (array(object, "pricing_plans") ?? []).enumerated().compactMap { index, value in
        value.objectValue.map { plan in
          let planID = plan.lookup("id")?.stringValue ?? "plan-\(index + 1)"
          let price = [plan.lookup("price")?.stringValue, plan.lookup("period")?.stringValue].compactMap { $0 }
          let badge = plan.lookup("badge")?.stringValue.map { " [\($0)]" } ?? ""
          let text =
            ([plan.lookup("name")?.stringValue ?? planID] + [price.joined(separator: " / ")])
            .filter { !$0.isEmpty }.joined(separator: " · ") + badge
          return ChoiceBlock.Item(id: planID, label: appdnaTemplate(text, at: value.location), value: planID)
        }
      }
      return .choice(
        ChoiceBlock(
          fieldName: field, label: label, items: plans, allowMultiple: false, minSelections: nil, maxSelections: nil,
          required: appdnaBool(object, "field_required") ?? false, action: .next, autoAdvance: false))
    case "social_login":
      let providers = (array(object, "providers") ?? []).enumerated().compactMap { index, value -> Block? in
        guard let provider = value.objectValue, provider.lookup("enabled")?.boolValue != false,
          let name = provider.lookup("type")?.stringValue
        else { return nil }
        let text = provider.lookup("label")?.stringValue ?? "Continue with \(Self.providerNames[name] ?? name)"
        // Signed in: the provider is recorded and the step submitted, as the SDK's
        // `{"provider", "action": "social_login"}` submission.
        let signIn = CustomAction(
          identifier: "social_login.\(name)", awaitResult: true,
          onSuccess: .sequence([.set(path: ["provider"], value: .string(name)), .next]))
        return Block(
          id: "\(id).\(name)", type: "social_login_provider", order: index, visible: true, visibleWhen: nil,
          content: .button(
            ButtonBlock(
              text: appdnaTemplate(text, at: value.location), action: .custom(signIn), variant: nil, preset: nil)),
          location: value.location)
      }
      // The provider lands in the step's data (`selection_data`, `responses`) as the SDK submits it.
      let recorded = Block(
        id: "\(id).provider", type: "social_login_provider_value", order: providers.count, visible: false,
        visibleWhen: nil,
        content: .input(
          InputBlock(
            fieldName: "provider", label: nil, placeholder: nil, kind: .text, required: false, pattern: nil,
            patternMessage: nil, minLength: nil, maxLength: nil, min: nil, max: nil, defaultValue: nil)),
        location: location)
      return .scrollContainer(providers + [recorded])
    default:
      return nil
    }
  }

  static let providerNames = [
    "apple": "Apple", "google": "Google", "email": "Email", "facebook": "Facebook", "github": "GitHub",
  ]

  /// A range block's bounds (`min_value`, `max_value_picker`/`max_value`, also in
  /// `field_config`; 0…100) and its value on show, `{min, max}` spanning them (the SDK's).
  mutating func appdnaRangeBlock(_ input: inout InputBlock, _ object: JSONObject, _ config: JSONObject) {
    let low = appdnaMagnitude(object, "min_value") ?? appdnaMagnitude(config, "min_value", in: "field_config") ?? 0
    let high =
      appdnaMagnitude(object, "max_value_picker") ?? appdnaMagnitude(object, "max_value")
      ?? appdnaMagnitude(config, "max_value", in: "field_config") ?? 100
    input.min = Swift.min(low, high)
    input.max = Swift.max(low, high)
    input.rangeKeys = ["min", "max"]
    input.defaultValue = .object(["min": .number(input.min ?? 0), "max": .number(input.max ?? 0)])
  }

  /// A date input's bounds: `min_date`/`max_date` (on the block, else in its config; a date or
  /// an ISO-8601 time whose date counts), `allow_past`/`allow_future` (default true) and
  /// `date_validation_message`. nil when nothing bounds it.
  mutating func appdnaDateBounds(_ object: JSONObject, config: JSONObject) -> DateBounds? {
    func date(_ key: String) -> String? {
      guard let value = object.lookup(key) ?? config.lookup(key), let text = value.stringValue else { return nil }
      guard let day = ValueShapes.stored(String(text.prefix(10)), kind: .date, iso: false, today: "") else {
        warning(.AppDNA.unknownType, "'\(key)' is no date (YYYY-MM-DD); it is ignored", at: value.location)
        return nil
      }
      return day
    }
    var bounds = DateBounds(earliest: date("min_date"), latest: date("max_date"))
    bounds.allowsPast = appdnaBool(object, "allow_past") ?? true
    bounds.allowsFuture = appdnaBool(object, "allow_future") ?? true
    bounds.message = object.lookup("date_validation_message")?.stringValue
    return bounds == DateBounds() ? nil : bounds
  }
}
