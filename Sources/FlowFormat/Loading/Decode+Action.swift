import FlowExpression

extension DecodeContext {
  static let knownActionTypes = [
    "next", "previous", "back", "screen", "goto", "complete", "skip", "dismiss", "openUrl", "custom",
  ]

  mutating func decodeAction(_ value: JSONValue) -> Action? {
    guard let object = object(value) else { return nil }
    checkKeys(object, known: KnownKeys.action, owner: "an action")
    guard let type = requiredString(object, "type", in: "an action", at: value.location) else { return nil }
    switch type {
    case "next": return .next
    case "previous", "back": return .previous
    case "complete": return .complete
    case "skip": return .skip
    case "dismiss": return .dismiss
    case "screen", "goto":
      guard let target = requiredString(object, "screenId", in: "a '\(type)' action", at: value.location) else {
        return nil
      }
      screenReferences.append(
        reference(
          to: target, what: "a '\(type)' action", location: object.lookup("screenId")?.location, key: "screenId"))
      return .screen(target)
    case "openUrl":
      guard let url = requiredString(object, "url", in: "an 'openUrl' action", at: value.location) else { return nil }
      return .openURL(url)
    case "custom":
      guard let identifier = requiredString(object, "identifier", in: "a 'custom' action", at: value.location) else {
        return nil
      }
      checkBuiltIn(identifier, at: object.lookup("identifier")?.location)
      return .custom(
        CustomAction(
          identifier: identifier, awaitResult: bool(object, "awaitResult") ?? false,
          onSuccess: object.lookup("onSuccess").flatMap { v in at("onSuccess") { $0.decodeAction(v) } },
          onFailure: object.lookup("onFailure").flatMap { v in at("onFailure") { $0.decodeAction(v) } },
          onCancel: object.lookup("onCancel").flatMap { v in at("onCancel") { $0.decodeAction(v) } }))
    default:
      at("type") {
        $0.report(
          .warning, .Load.unknownActionType, "unknown action type '\(type)'; it runs as 'next'",
          at: object.lookup("type")?.location, notes: Self.didYouMean(type, Self.knownActionTypes))
      }
      return .unknown(type: type)
    }
  }

  mutating func decodeRules(_ value: JSONValue?) -> [Rule] {
    guard let value else { return [] }
    guard let items = value.arrayValue else {
      mismatch(value, expected: "an array of rules")
      return []
    }
    var rules: [Rule] = []
    rules.reserveCapacity(items.count)
    for (index, item) in items.enumerated() {
      at(.index(index)) { context in
        guard let object = context.object(item) else { return }
        context.checkKeys(object, known: KnownKeys.rule, owner: "a rule")
        guard let goto = context.requiredString(object, "goto", in: "a rule", at: item.location) else { return }
        let target = Target(goto)
        if case .screen(let id) = target {
          context.screenReferences.append(
            context.reference(
              to: id, what: "rule \(index + 1)", location: object.lookup("goto")?.location, key: "goto"))
        }
        var when: Condition?
        if let whenValue = object.lookup("when") {
          when = context.at("when") { $0.condition(whenValue) }
          if when == nil { return }
        }
        rules.append(Rule(when: when, goto: target, location: item.location))
      }
    }
    return rules
  }
}
