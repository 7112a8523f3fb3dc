import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections

/// Per-key differences between expected and actual collected data.
enum DataDiff {
  /// `actual` with each secret that `expected` gives as the mask (a recorded secret) replaced by
  /// the mask when it holds a value: an expected mask matches any value of a secret field.
  static func maskMatched(
    _ actual: OrderedDictionary<String, Value>, expected: Value, _ secrets: SecretPolicy
  ) -> OrderedDictionary<String, Value> {
    guard case .object(let e) = expected else { return actual }
    var out = actual
    for (key, value) in e where SecretPolicy.isMask(value) && secrets.isSecret(key) {
      if let held = actual[key], secrets.shown(held, of: key) == value { out[key] = value }
    }
    return out
  }

  /// One line per differing key (`missing`, `expected … actual …`, and with `exact`,
  /// `unexpected`); empty when the data matches. Values are written as `shown` shows them
  /// (secrets masked, on both sides: an expected secret is one too).
  static func compare(expected: Value, actual: Value, exact: Bool, shown: SecretPolicy = .none) -> [String] {
    guard case .object(let e) = expected, case .object(let a) = actual else {
      let same = exact ? ValueMatch.equal(expected, actual) : ValueMatch.subset(expected, of: actual)
      return same ? [] : ["expected \(shown.data(expected).json), actual \(shown.data(actual).json)"]
    }
    func text(_ value: Value, _ key: String) -> String { shown.shown(value, of: key).json }
    var lines: [String] = []
    let width = (e.keys + (exact ? Array(a.keys) : [])).map(\.count).max() ?? 0
    func pad(_ key: String) -> String { key + ":" + String(repeating: " ", count: max(0, width - key.count) + 1) }
    for (key, value) in e {
      guard let actualValue = a[key] else {
        lines.append("\(pad(key))missing (expected \(text(value, key)))")
        continue
      }
      let same = exact ? ValueMatch.equal(value, actualValue) : ValueMatch.subset(value, of: actualValue)
      if !same {
        let (wanted, held) = (text(value, key), text(actualValue, key))
        let note = wanted == held ? " (secrets differ; --show-secrets shows them)" : ""
        lines.append("\(pad(key))expected \(wanted), actual \(held)\(note)")
      }
    }
    if exact {
      for (key, value) in a where e[key] == nil {
        lines.append("\(pad(key))unexpected (actual \(text(value, key)))")
      }
    }
    return lines
  }
}

/// `events:` and `not_events:` checks with readable failures.
enum EventCheck {
  static func matches(_ pattern: Expectation.EventPattern, _ event: Event) -> Bool {
    switch pattern {
    case .type(let name): event.eventType == name
    case .subset(let value): ValueMatch.subset(value, of: event.value)
    }
  }

  static func describe(_ pattern: Expectation.EventPattern) -> String {
    switch pattern {
    case .type(let name): name
    case .subset(let value): value.json
    }
  }

  static func describe(_ event: Event) -> String {
    var text = "#\(event.seq) \(event.eventType)"
    if let screen = event.screenID { text += " screen=\(screen)" }
    let interesting = [
      "button_id", "identifier", "status", "error", "reason", "next_screen_id", "experiment_id", "variant_id",
    ]
    for key in interesting {
      if let value = event.properties[key], value != .null {
        text += " \(key)=" + (value.stringValue ?? value.json)
      }
    }
    if let fields = event.properties["fields"] { text += " fields=\(fields.json)" }
    return text
  }

  /// The patterns must match events in order (other events may come between).
  static func subsequence(_ item: Expectation.Item<[Expectation.EventPattern]>, events: [Event]) throws {
    var position = 0
    var matchedAt: [Int] = []
    for pattern in item.value {
      guard let found = events[position...].firstIndex(where: { matches(pattern, $0) }) else { break }
      matchedAt.append(found)
      position = found + 1
    }
    guard matchedAt.count < item.value.count else { return }
    let failing = matchedAt.count
    var details = ["expected, in this order (other events may come between):"]
    for (i, pattern) in item.value.enumerated() {
      if i < matchedAt.count {
        details.append("  ✓ \(describe(pattern))   (#\(events[matchedAt[i]].seq))")
      } else if i == failing {
        let after = matchedAt.last.map { " after #\(events[$0].seq)" } ?? ""
        let anywhere = events.firstIndex { matches(pattern, $0) }
        let note = anywhere.map { " (it happened earlier, as #\(events[$0].seq))" } ?? ""
        details.append("  ✗ \(describe(pattern))   ← not found\(after)\(note)")
      } else {
        details.append("    \(describe(pattern))")
      }
    }
    details.append("actual events:")
    details += events.map { "  " + describe($0) }
    throw StepFailure(
      location: item.location,
      headline:
        "expected event \(describe(item.value[failing])) (\(failing + 1) of \(item.value.count)) did not happen",
      details: details)
  }

  static func none(_ item: Expectation.Item<[Expectation.EventPattern]>, events: [Event]) throws {
    for pattern in item.value {
      if let event = events.first(where: { matches(pattern, $0) }) {
        throw StepFailure(
          location: item.location,
          headline: "event \(describe(pattern)) was not expected, but happened",
          details: ["first occurrence: " + describe(event), "actual events:"] + events.map { "  " + describe($0) })
      }
    }
  }
}

extension Value {
  fileprivate var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }
}
