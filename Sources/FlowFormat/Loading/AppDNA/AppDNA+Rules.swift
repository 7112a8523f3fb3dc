import FlowExpression

/// `next_step_rules` → screen rules: the SDK's choice between the StepConfig's and the step's
/// own list, conditions over the leaving step's answers (unknown types pass), and targets
/// that are steps or graph nodes (`end`, `analytics_event` with `next_target`, paywall and
/// other markers, which complete the flow).
extension DecodeContext {
  static let appdnaConditionTypes = [
    "always", "answer_equals", "answer_not_equals", "answer_contains", "not_empty", "empty",
    "previous_step_equals", "previous_step_in",
  ]

  mutating func decodeAppDNARules(
    object: JSONObject, config: JSONObject, configKey: String, step: AppDNAStepContext, blocks: [Block],
    fieldAliases: [String: String]
  ) -> [Rule] {
    let configRules = config.lookup("next_step_rules")?.arrayValue ?? []
    let rootRules = object.lookup("next_step_rules")?.arrayValue ?? []
    let configConditioned = configRules.contains {
      !($0.objectValue?.lookup("conditions")?.arrayValue?.isEmpty ?? true)
    }
    let rootConditioned = rootRules.contains {
      !($0.objectValue?.lookup("conditions")?.arrayValue?.isEmpty ?? true)
    }
    // The SDK: the config's rules when they hold a condition list and the step's do not; else
    // the step's when it has any; else the config's.
    let useConfig = (configConditioned && !rootConditioned) || rootRules.isEmpty
    let values = useConfig ? configRules : rootRules
    let path = useConfig ? "\(configKey).next_step_rules" : "next_step_rules"
    let aliases = Self.optionAliases(blocks)
    var rules: [Rule] = []
    at(path) { context in
      for (index, value) in values.enumerated() {
        context.at(.index(index)) { context in
          rules += context.appdnaRule(value, step: step, aliases: aliases, fieldAliases: fieldAliases)
        }
      }
    }
    // The SDK: on the last step, rules that route nowhere complete the flow with an event.
    if step.isLast, !values.isEmpty, !rules.contains(where: { $0.when == nil && !$0.passesOn }) {
      var fallback = Rule(when: nil, goto: .complete, location: values[values.count - 1].location)
      fallback.emits = "flow_completed_via_fallback"
      rules.append(fallback)
    }
    return rules
  }

  /// The rule; a paywall's comes with one before it for a subscribed user (`--trait
  /// subscribed=true` stands for the SDK's entitlement check).
  private mutating func appdnaRule(
    _ value: JSONValue, step: AppDNAStepContext, aliases: [String: [String: String]], fieldAliases: [String: String]
  ) -> [Rule] {
    guard let object = object(value) else { return [] }
    checkKeys(object, known: AppDNAKeys.rule, owner: "a rule")
    guard let targetValue = object.lookup("target_step_id") else {
      error(
        .AppDNA.missingTarget, "the rule has no 'target_step_id'; the SDK drops the whole flow for it",
        at: value.location)
      return []
    }
    guard let target = string(targetValue, "target_step_id"), !target.isEmpty else { return [] }
    guard let route = appdnaTarget(target, step: step, at: targetValue.location) else { return [] }
    var rule = Rule(when: nil, goto: route.goto, location: value.location)
    rule.then = route.then
    let node = step.graphNodes?.lookup(target)?.objectValue
    if !step.stepIDs.contains(target),
      target.hasPrefix("analytics_event_") || node?.lookup("type")?.stringValue == "analytics_event"
    {
      rule.emits = node?.lookup("event_name")?.stringValue ?? "onboarding_analytics"
      rule.emitsProperties = ["node_id": .string(target)]
      // Without a step to go on to, the SDK sends the event and tries the next rule.
      rule.passesOn = !(node?.lookup("next_target")?.stringValue.map(step.stepIDs.contains) ?? false)
    }
    let logicOr = object.lookup("logic")?.stringValue?.lowercased() == "or"
    var clauses: [Condition] = []
    let entries: [JSONValue]? =
      object.lookup("conditions")?.arrayValue ?? object.lookup("condition").map { [$0] }
    if let entries {
      at(object.lookup("conditions") != nil ? "conditions" : "condition") { context in
        for (index, entry) in entries.enumerated() {
          context.at(.index(index)) { context in
            clauses.append(
              context.appdnaRuleCondition(entry, aliases: aliases, fieldAliases: fieldAliases) ?? .always)
          }
        }
      }
    }
    rule.when = entries == nil ? nil : logicOr ? .any(clauses) : .all(clauses)
    guard let skip = route.subscribedSkip,
      let subscribed = appdnaCondition(field: "$user.subscribed", op: "equals", value: true, at: value.location)
    else { return [rule] }
    var skipRule = rule
    skipRule.when = .all([rule.when, subscribed].compactMap { $0 })
    skipRule.then = skip
    return [skipRule, rule]
  }

  /// Where a rule goes: a step, the end of the flow (`end` nodes), a paywall that waits for
  /// the host's answer, or a marker that completes the flow with its key set; nil (the rule is
  /// skipped, as the SDK does) for anything else.
  private mutating func appdnaTarget(
    _ target: String, step: AppDNAStepContext, at location: SourceLocation
  ) -> (goto: Target, then: Action?, subscribedSkip: Action?)? {
    if step.stepIDs.contains(target) { return (.screen(target), nil, nil) }
    let node = step.graphNodes?.lookup(target)?.objectValue
    let nodeType = node?.lookup("type")?.stringValue
    if target.hasPrefix("analytics_event_") || nodeType == "analytics_event" {
      if let next = node?.lookup("next_target")?.stringValue, step.stepIDs.contains(next) {
        return (.screen(next), nil, nil)
      }
      return (.complete, nil, nil)  // passes on (`appdnaRule`)
    }
    if target.hasPrefix("paywall_trigger_") || nodeType == "paywall_trigger" {
      var visiting: Set<String> = []
      var skip: Action?
      let present = appdnaPaywall(target, step: step, visiting: &visiting, subscribedSkip: &skip, at: location)
      return (.complete, present, skip)
    }
    if target.hasPrefix("end_") || nodeType == "end" { return (.complete, nil, nil) }
    if let marker = Self.appdnaMarker(target) { return (.complete, marker, nil) }
    report(
      .warning, .AppDNA.unknownTarget, "no step or graph node '\(target)'; the rule is skipped (the SDK's rule)",
      at: location, notes: Self.didYouMean(target, step.stepIDs))
    return nil
  }

  /// `permission_<type>`, `screen_<id>`, `flow_<id>`: the flow completes with the SDK's marker
  /// key (`__permission_request`, `__screen_present`, `__sub_flow`) set to the rest of the id.
  static func appdnaMarker(_ target: String) -> Action? {
    let markers = [
      ("permission_", "__permission_request"), ("screen_", "__screen_present"), ("flow_", "__sub_flow"),
    ]
    guard let (prefix, key) = markers.first(where: { target.hasPrefix($0.0) }) else { return nil }
    return .sequence([.set(path: [key], value: .string(String(target.dropFirst(prefix.count)))), .complete])
  }

  /// One condition of a rule over the leaving step's answers; nil means it passes.
  private mutating func appdnaRuleCondition(
    _ value: JSONValue, aliases: [String: [String: String]], fieldAliases: [String: String]
  ) -> Condition? {
    if let text = value.stringValue { return text == "always" ? nil : .never }
    guard let object = value.objectValue else { return nil }
    let type = object.lookup("type")?.stringValue ?? ""
    let rawField = object.lookup("answer_key")?.stringValue ?? object.lookup("field")?.stringValue ?? ""
    let field = fieldAliases[rawField] ?? rawField
    let operand = object.lookup("value").map(Value.init)
    switch type {
    case "always":
      return nil
    case "answer_equals", "answer_not_equals", "answer_contains":
      guard let operand else { return nil }
      let op = ["answer_equals": "equals", "answer_not_equals": "not_equals"][type] ?? "contains"
      // The answer holds the option's stored value, so naming an option by its id means its value.
      var stored = operand
      if op != "not_equals", case .string(let text) = operand, let value = aliases[field]?[text] {
        stored = .string(value)
      }
      return appdnaCondition(field: field, op: op, value: stored, at: value.location)
    case "not_empty", "empty":
      return appdnaCondition(field: field, op: type, value: nil, at: value.location)
    case "previous_step_equals":
      return appdnaCondition(field: "$previous", op: "equals", value: operand ?? .null, at: value.location)
    case "previous_step_in":
      let ids: [Value] =
        object.lookup("previous_step_ids")?.arrayValue?.compactMap(\.stringValue).map(Value.string)
        ?? (object.lookup("value")?.stringValue ?? "").split(separator: ",").map {
          .string(String($0).trimmingWhitespace)
        }
      return appdnaCondition(field: "$previous", op: "in", value: .list(ids), at: value.location)
    default:
      report(
        .warning, .AppDNA.unknownType, "unknown condition type '\(type)'; it passes (the SDK's rule)",
        at: object.lookup("type")?.location ?? value.location, notes: Self.didYouMean(type, Self.appdnaConditionTypes))
      return nil
    }
  }

  /// `text` as a regular expression that matches exactly it.
  static func regexLiteral(_ text: String) -> String {
    text.reduce(into: "") { out, character in
      if "\\^$.|?*+()[]{}".contains(character) { out.append("\\") }
      out.append(character)
    }
  }

  /// For each field of a step's choices, option id → stored value (rules may name either).
  private static func optionAliases(_ blocks: [Block]) -> [String: [String: String]] {
    var aliases: [String: [String: String]] = [:]
    for block in blocks.flatMap({ $0.content.children ?? [$0] }) {
      guard case .choice(let choice) = block.content, let field = choice.fieldName else { continue }
      for item in choice.items where item.id != item.value {
        aliases[field, default: [:]][item.id] = item.value
      }
    }
    return aliases
  }

  /// `visibility_condition` → the block's condition (the SDK's `when_*` types and document
  /// 001's four rules). nil: always visible.
  /// `binding_not_empty` names one of the block's `bindings` (`binding`) or a dot-path (`variable`).
  /// With `--ios-quirks`, as iOS 1.0.70 renders blocks: every dot-path reads an empty context
  /// (missing), and document 001's four rule types are unknown (visible).
  mutating func appdnaVisibility(_ value: JSONValue, bindings: JSONObject? = nil) -> Condition? {
    guard let object = object(value) else { return nil }
    let type = object.lookup("type")?.stringValue ?? "always"
    let quirks = options.iosQuirks
    if quirks, !type.hasPrefix("when_") { return nil }
    let bound = object.lookup("binding")?.stringValue.flatMap { bindings?.lookup($0)?.stringValue }
    let variable =
      quirks
      ? nil
      : (type == "binding_not_empty" ? bound : nil).flatMap { Self.appdnaName($0) }
        ?? object.lookup("variable")?.stringValue.flatMap { Self.appdnaName($0) }
    let operand = object.lookup("value").map(Value.init)
    let ops = [
      "when_equals": "equals", "when_not_equals": "not_equals", "when_not_empty": "not_empty",
      "when_empty": "empty", "when_gt": "gt", "when_lt": "lt",
    ]
    if let op = ops[type] {
      guard let variable else { return op == "empty" || op == "not_equals" ? nil : .never }
      return appdnaCondition(
        field: variable, op: op, value: op.hasSuffix("empty") ? nil : operand ?? .null, at: value.location)
    }
    switch type {
    case "always", "expression":
      return nil
    case "answer_equals":
      let key = object.lookup("answer_key")?.stringValue.map { $0.split(separator: ".").last.map(String.init) ?? $0 }
      guard let field = key ?? variable, let operand else { return nil }
      return appdnaCondition(field: field, op: "equals", value: operand, at: value.location)
    case "binding_not_empty":
      guard let variable else { return .never }
      return appdnaCondition(field: variable, op: "not_empty", value: nil, at: value.location)
    case "platform_is", "locale_matches":
      let values =
        (object.lookup("values")?.arrayValue?.compactMap(\.stringValue) ?? [])
        + [object.lookup("value")?.stringValue].compactMap { $0 }
      guard type == "locale_matches" else {
        return appdnaCondition(
          field: "$platform", op: "in", value: .list(values.map { .string($0.lowercased()) }), at: value.location)
      }
      // `fr` matches every `fr_*` locale; `fr_FR` (or `fr-FR`) only itself; case and `-`/`_` aside.
      let alternatives = values.map { locale in
        let parts = locale.split(whereSeparator: { $0 == "_" || $0 == "-" }).map { Self.regexLiteral(String($0)) }
        return parts.count == 1 ? parts[0] + "([_-].*)?" : parts.joined(separator: "[_-]")
      }
      guard !alternatives.isEmpty else { return .never }
      let pattern = "(?i)(" + alternatives.joined(separator: "|") + ")"
      return appdnaCondition(field: "$locale", op: "matches", value: .string(pattern), at: value.location)
    default:
      report(
        .warning, .AppDNA.unknownType, "unknown visibility condition '\(type)'; the block stays visible",
        at: object.lookup("type")?.location ?? value.location,
        notes: Self.didYouMean(
          type, Array(ops.keys).sorted() + ["answer_equals", "binding_not_empty", "platform_is", "locale_matches"]))
      return nil
    }
  }
}
