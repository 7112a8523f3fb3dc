import FlowFormat

/// A change between two versions of a flow or bundle, told on the model: a flow or screen
/// added or removed, a field gained, lost or changed, a rule, an action or a text changed.
public struct FlowChange: Hashable, Sendable {
  public var flow: String
  /// The screen it concerns (nil: the flow itself).
  public var screen: String?
  /// What changed, one line: "gained field `age` (number, required)".
  public var text: String

  /// "`about_you` gained field `age`": the line `run --watch` and `diff` show.
  public var line: String {
    (screen.map { "`\($0)` " } ?? "flow `\(flow)`: ") + text
  }
}

extension FlowChange {
  /// The changes from `old` to `new`, flow by flow (bundle flows matched by id), screen by
  /// screen (matched by id), in the new version's order.
  public static func between(_ old: FlowDocument, _ new: FlowDocument) -> [FlowChange] {
    var changes: [FlowChange] = []
    let oldFlows = Dictionary(old.flows.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let newIDs = Set(new.flows.map(\.id))
    for flow in old.flows where !newIDs.contains(flow.id) {
      changes.append(FlowChange(flow: flow.id, screen: nil, text: "removed"))
    }
    for flow in new.flows {
      guard let before = oldFlows[flow.id] else {
        changes.append(FlowChange(flow: flow.id, screen: nil, text: "added"))
        continue
      }
      changes += between(before, flow)
    }
    if old.entryFlowID != new.entryFlowID {
      changes.append(
        FlowChange(flow: new.entryFlowID, screen: nil, text: "is now the entry flow (was `\(old.entryFlowID)`)"))
    }
    return changes
  }

  static func between(_ old: Flow, _ new: Flow) -> [FlowChange] {
    var changes: [FlowChange] = []
    func flowChange(_ text: String) { changes.append(FlowChange(flow: new.id, screen: nil, text: text)) }
    for (name, a, b) in [
      ("allowBack", old.settings.allowBack, new.settings.allowBack),
      ("showProgress", old.settings.showProgress, new.settings.showProgress),
      ("dismissAllowed", old.settings.dismissAllowed, new.settings.dismissAllowed),
    ] where a != b {
      flowChange("settings.\(name) \(a) → \(b)")
    }
    let oldOrder = old.screens.map(\.id)
    let newOrder = new.screens.map(\.id)
    let oldScreens = Dictionary(old.screens.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let newSet = Set(newOrder)
    for id in oldOrder where !newSet.contains(id) {
      changes.append(FlowChange(flow: new.id, screen: id, text: "removed"))
    }
    if oldOrder.filter(newSet.contains) != newOrder.filter(Set(oldOrder).contains) {
      flowChange("screen order \(oldOrder.joined(separator: ", ")) → \(newOrder.joined(separator: ", "))")
    }
    if old.startScreenID != new.startScreenID {
      flowChange("starts at `\(new.startScreenID)` (was `\(old.startScreenID)`)")
    }
    for screen in new.screens {
      guard let before = oldScreens[screen.id] else {
        changes.append(FlowChange(flow: new.id, screen: screen.id, text: "added"))
        continue
      }
      for text in between(ScreenSummary(before), ScreenSummary(screen)) {
        changes.append(FlowChange(flow: new.id, screen: screen.id, text: text))
      }
    }
    return changes
  }

  static func between(_ old: ScreenSummary, _ new: ScreenSummary) -> [String] {
    guard old != new else { return [] }
    var lines: [String] = []
    if old.type != new.type { lines.append("type now \(new.type) (was \(old.type))") }
    for field in old.fieldOrder where new.fields[field] == nil {
      lines.append("lost field `\(field)`")
    }
    for field in new.fieldOrder {
      guard let now = new.fields[field] else { continue }
      if let before = old.fields[field] {
        if before != now { lines.append("field `\(field)` now \(now) (was \(before))") }
      } else {
        lines.append("gained field `\(field)` (\(now))")
      }
    }
    lines += listChanges("rule", old.rules, new.rules)
    lines += listChanges("action", old.actions, new.actions)
    lines += listChanges("text", old.texts, new.texts)
    return lines
  }

  /// Items of two lists that changed: in place when both have the same length (`rule 2
  /// changed`), else what was lost and gained.
  static func listChanges(_ noun: String, _ old: [String], _ new: [String]) -> [String] {
    guard old != new else { return [] }
    if old.count == new.count {
      return zip(old, new).enumerated().compactMap { index, pair in
        pair.0 == pair.1 ? nil : "\(noun) \(index + 1) now \(pair.1) (was \(pair.0))"
      }
    }
    let removed = old.filter { !new.contains($0) }.map { "lost \(noun) \($0)" }
    let added = new.filter { !old.contains($0) }.map { "gained \(noun) \($0)" }
    return removed + added
  }
}
