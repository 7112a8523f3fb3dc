import FlowExpression
import FlowFormat

/// Conditions comparing a field with a value the field can never have.
public struct ImpossibleConditionRule: LintRule {
  public init() {}
  public let id = "check.impossible-condition"
  public let summary = "a condition compares a field with a value it can never have"
  public let severity = Severity.warning
  public let details =
    "Checked comparisons: a checklist field against a value none of its items has; a slider (or a number input with min/max) against a number outside its range or off its step; a number field against a non-numeric string. A field collected by several blocks is reported only when the comparison is impossible for every one of them."
  public let triggeringExample = Example.flow(
    [
      Example.screen(
        "hours", "question",
        [Example.block("hours_slider", "slider", #""fieldName": "hours", "min": 0, "max": 8"#), Example.button("go")],
        extra: #""rules": [{"when": "hours > 12", "goto": "wow"}]"#),
      Example.screen("plan", "feature", [Example.button("go", action: #"{"type": "complete"}"#)]),
      Example.screen("wow", "feature", [Example.button("go")]),
    ])
  public let cleanExample = Example.flow(
    [
      Example.screen(
        "hours", "question",
        [Example.block("hours_slider", "slider", #""fieldName": "hours", "min": 0, "max": 8"#), Example.button("go")],
        extra: #""rules": [{"when": "hours > 6", "goto": "wow"}]"#),
      Example.screen("plan", "feature", [Example.button("go", action: #"{"type": "complete"}"#)]),
      Example.screen("wow", "feature", [Example.button("go")]),
    ])

  public func check(_ context: CheckContext) -> [Diagnostic] {
    // The comparisons first, then the blocks of only the fields they compare (by name number).
    let facts = context.facts
    var comparisons: [(comparison: FieldComparison, field: Int, location: SourceLocation)] = []
    // One scratch array for every condition's comparisons, not an array per condition.
    var found: [FieldComparison] = []
    func inspect(_ condition: Condition, at location: SourceLocation) {
      condition.expression.appendFieldComparisons(to: &found, source: condition.source)
      for comparison in found {
        guard let field = facts.number(of: comparison.field) else { continue }
        comparisons.append((comparison, field, location))
      }
      found.removeAll(keepingCapacity: true)
    }
    for node in context.dense.nodes {
      let screen = context.graph.screen(node)
      for rule in screen.rules {
        if let condition = rule.when { inspect(condition, at: rule.location) }
      }
      for block in screen.content.flatBlocks {
        if let condition = block.visibleWhen { inspect(condition, at: block.location) }
      }
    }
    guard !comparisons.isEmpty else { return [] }
    var blocks = [[Block]](repeating: [], count: facts.names.count)
    var compared = [Bool](repeating: false, count: facts.names.count)
    for entry in comparisons { compared[entry.field] = true }
    for (number, node) in context.dense.nodes.enumerated() where !facts.blockFields[number].isEmpty {
      var fields = facts.blockFields[number].makeIterator()
      for block in context.graph.screen(node).content.flatBlocks where block.fieldName != nil {
        let field = fields.next()!
        if compared[field] { blocks[field].append(block) }
      }
    }
    var diagnostics: [Diagnostic] = []
    for (comparison, field, location) in comparisons {
      let collectors = blocks[field]
      // The first collector's reason, when every collector has one (no array of reasons).
      guard let first = collectors.first, let reason = Self.impossibility(comparison, first),
        collectors.dropFirst().allSatisfy({ Self.impossibility(comparison, $0) != nil })
      else { continue }
      diagnostics.append(
        context.diagnostic(
          self, "condition '\(comparison.text)' can never hold: \(reason)", at: location,
          notes: [Diagnostic.Note("'\(comparison.field)' is collected here", at: collectors[0].location)]))
    }
    return diagnostics
  }

  static func number(_ value: Value) -> Double? {
    switch value {
    case .number(let n): return n
    case .string(let s): return Double(s.trimmingSpaces)
    default: return nil
    }
  }

  static func format(_ d: Double) -> String { NumberFormatting.javaScriptString(d) }

  /// Why the comparison can never hold for values `block` collects, or nil when it can.
  static func impossibility(_ comparison: FieldComparison, _ block: Block) -> String? {
    let op = comparison.normalizedOp
    switch block.content.field {
    case .choice(let choice):
      let membership: Bool
      switch (op, comparison.shape) {
      case (.equal, _), (.contains, .fieldFirst), (.in, .literalFirst), (.in, .fieldFirst): membership = true
      default: membership = false
      }
      guard membership, !comparison.literals.isEmpty else { return nil }
      // Read in place: the item values and wanted texts as arrays were two allocations a check.
      for literal in comparison.literals {
        let wanted = literal.displayString
        if choice.items.contains(where: { $0.value == wanted }) { return nil }
      }
      return "'\(comparison.field)' is one of \(choice.items.map { "'\($0.value)'" }.joined(separator: ", "))"
    case .slider(let slider):
      return range(op, comparison, min: slider.min, max: slider.max, step: slider.step, what: "a slider")
    case .input(let input) where input.kind == .number:
      return range(op, comparison, min: input.min, max: input.max, step: nil, what: "a number input")
    case .input, .toggle, nil:
      return nil
    }
  }

  static func range(
    _ op: BinaryOperator, _ comparison: FieldComparison, min: Double?, max: Double?, step: Double?, what: String
  ) -> String? {
    guard comparison.literals.count == 1, let literal = comparison.literals.first else { return nil }
    switch op {
    case .equal, .less, .lessOrEqual, .greater, .greaterOrEqual: break
    default: return nil
    }
    guard let v = number(literal) else {
      if case .string(let text) = literal {
        return "'\(comparison.field)' is \(what), never equal to the text '\(text)'"
      }
      return nil
    }
    // The reason is written only when the comparison is impossible (numbers formatted late).
    var out: String {
      let bounds: String =
        switch (min, max) {
        case (let lo?, let hi?): "from \(format(lo)) to \(format(hi))"
        case (let lo?, nil): "at least \(format(lo))"
        case (nil, let hi?): "at most \(format(hi))"
        case (nil, nil): ""
        }
      return "'\(comparison.field)' is \(what) \(bounds)"
    }
    switch op {
    case .equal:
      if let lo = min, v < lo { return out }
      if let hi = max, v > hi { return out }
      if let step, step > 0, let lo = min {
        let steps = (v - lo) / step
        if abs(steps - steps.rounded()) > 1e-9 {
          return "'\(comparison.field)' moves in steps of \(format(step)) from \(format(lo))"
        }
      }
    case .greater: if let hi = max, v >= hi { return out }
    case .greaterOrEqual: if let hi = max, v > hi { return out }
    case .less: if let lo = min, v <= lo { return out }
    case .lessOrEqual: if let lo = min, v < lo { return out }
    default: break
    }
    return nil
  }
}
