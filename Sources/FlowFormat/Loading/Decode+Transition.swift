extension DecodeContext {
  /// The `transition` of `object` (a screen or a `transitions` entry): one of the nine values
  /// of document 000; another is a warning with a "did you mean" and counts as none.
  mutating func transition(_ object: JSONObject) -> ScreenTransition? {
    guard let raw = string(object, "transition") else { return nil }
    if let known = ScreenTransition(rawValue: raw) { return known }
    at("transition") {
      $0.report(
        .warning, .Load.unknownValue,
        "unknown transition '\(raw)'; transitions: \(ScreenTransition.allCases.map(\.rawValue).joined(separator: ", "))",
        at: object.lookup("transition")?.location,
        notes: Self.didYouMean(raw, ScreenTransition.allCases.map(\.rawValue)))
    }
    return nil
  }

  /// A flow's `transitions`: `{fromScreenId, toScreenId, transition}` entries whose screen ids
  /// are references of the flow.
  mutating func decodeTransitions(_ value: JSONValue?) -> [TransitionRule] {
    guard let value else { return [] }
    guard let items = value.arrayValue else {
      mismatch(value, expected: "an array of transitions")
      return []
    }
    var rules: [TransitionRule] = []
    for (index, item) in items.enumerated() {
      at(.index(index)) { context in
        guard let object = context.object(item) else { return }
        context.checkKeys(object, known: KnownKeys.transitionRule, owner: "a transition")
        let from = context.requiredString(object, "fromScreenId", in: "a transition", at: item.location)
        let to = context.requiredString(object, "toScreenId", in: "a transition", at: item.location)
        let transition = context.transition(object)
        if object.lookup("transition") == nil {
          context.error(.Load.missingKey, "a transition is missing required key 'transition'", at: item.location)
        }
        for (key, id) in [("fromScreenId", from), ("toScreenId", to)] {
          guard let id else { continue }
          context.screenReferences.append(
            context.reference(
              to: id, what: "transition \(index + 1)", location: object.lookup(key)?.location, key: key))
        }
        if let from, let to, let transition {
          rules.append(TransitionRule(fromScreenID: from, toScreenID: to, transition: transition))
        }
      }
    }
    return rules
  }
}
