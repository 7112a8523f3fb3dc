import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections

/// Per-key differences between expected and actual collected data.
enum DataDiff {
  /// One line per differing key (`missing`, `expected … actual …`, and with `exact`,
  /// `unexpected`); empty when the data matches.
  static func compare(expected: Value, actual: Value, exact: Bool) -> [String] {
    guard case .object(let e) = expected, case .object(let a) = actual else {
      let same = exact ? ValueMatch.equal(expected, actual) : ValueMatch.subset(expected, of: actual)
      return same ? [] : ["expected \(expected.json), actual \(actual.json)"]
    }
    var lines: [String] = []
    let width = (e.keys + (exact ? Array(a.keys) : [])).map(\.count).max() ?? 0
    func pad(_ key: String) -> String { key + ":" + String(repeating: " ", count: max(0, width - key.count) + 1) }
    for (key, value) in e {
      guard let actualValue = a[key] else {
        lines.append("\(pad(key))missing (expected \(value.json))")
        continue
      }
      let same = exact ? ValueMatch.equal(value, actualValue) : ValueMatch.subset(value, of: actualValue)
      if !same {
        lines.append("\(pad(key))expected \(value.json), actual \(actualValue.json)")
      }
    }
    if exact {
      for (key, value) in a where e[key] == nil {
        lines.append("\(pad(key))unexpected (actual \(value.json))")
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
    let interesting = ["button_id", "identifier", "status", "error", "reason", "next_screen_id", "experiment_id", "variant_id"]
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
      headline: "expected event \(describe(item.value[failing])) (\(failing + 1) of \(item.value.count)) did not happen",
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

/// A short line diff for snapshots.
enum TextDiff {
  static func lines(expected: String, actual: String, limit: Int = 20) -> [String] {
    let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var out: [String] = []
    var shown = 0
    for i in 0..<max(a.count, b.count) where shown < limit {
      let left = i < a.count ? String(a[i]) : nil
      let right = i < b.count ? String(b[i]) : nil
      if left != right {
        if let left { out.append("-\(i + 1): \(left)") }
        if let right { out.append("+\(i + 1): \(right)") }
        shown += 1
      }
    }
    return out
  }
}
