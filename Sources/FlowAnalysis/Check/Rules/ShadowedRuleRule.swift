import FlowExpression
import FlowFormat

/// Branching rules that can never win because an earlier rule always wins first.
public struct ShadowedRuleRule: LintRule {
  public init() {}
  public let id = "check.shadowed-rule"
  public let summary = "a branching rule can never win: an earlier rule is unconditional or has the same condition"
  public let severity = Severity.warning
  public let triggeringExample = Example.flow(
    [
      Example.screen(
        "goal", "question",
        [
          Example.block(
            "goal_pick", "checklist",
            #""fieldName": "goal", "items": [{"id": "lose", "label": "Lose"}, {"id": "gain", "label": "Gain"}]"#)
        ],
        extra: #""rules": [{"goto": "general"}, {"when": "goal == 'lose'", "goto": "lose_plan"}]"#),
      Example.screen("lose_plan", "feature", [Example.button("go", action: #"{"type": "complete"}"#)]),
      Example.screen("general", "feature", [Example.button("go")]),
    ])
  public let cleanExample = Example.flow(
    [
      Example.screen(
        "goal", "question",
        [
          Example.block(
            "goal_pick", "checklist",
            #""fieldName": "goal", "items": [{"id": "lose", "label": "Lose"}, {"id": "gain", "label": "Gain"}]"#)
        ],
        extra: #""rules": [{"when": "goal == 'lose'", "goto": "lose_plan"}, {"goto": "general"}]"#),
      Example.screen("lose_plan", "feature", [Example.button("go", action: #"{"type": "complete"}"#)]),
      Example.screen("general", "feature", [Example.button("go")]),
    ])

  public func check(_ context: CheckContext) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    var rendered: [UInt8] = []
    for node in context.dense.nodes {  // the kept list: `graph.nodes` makes one, 0.2 MB on `lint-chain`
      let screen = context.graph.screen(node)
      let rules = screen.rules
      // A rule's condition is compared only with later ones: a screen with one conditional
      // rule (most of them) renders no canonical text at all.
      guard rules.count > 1 else { continue }
      // Nor does one conditional rule before a fallback (most screens with two): conditions
      // are compared only when two of them come before the first unconditional rule.
      var conditions = 0
      for rule in rules where !rule.passesOn {
        guard let condition = rule.when, !condition.isConstantTrue else { break }
        conditions += 1
      }
      var seen: [String: Int] = [:]
      seen.reserveCapacity(conditions)
      var unconditional: Int?
      for (index, rule) in rules.enumerated() where !rule.passesOn {
        let number = index + 1
        if let earlier = unconditional {
          diagnostics.append(
            context.diagnostic(
              self, "rule \(number) of screen '\(screen.id)' can never win: rule \(earlier) always holds",
              at: rule.location))
          continue
        }
        guard let condition = rule.when, !condition.isConstantTrue else {
          unconditional = number
          continue
        }
        guard conditions > 1 else { continue }
        // Rendered into one buffer kept for every condition; compared as a `String` (canonically
        // equal texts of other bytes are the same condition, as before).
        condition.expression.writeCanonical(to: &rendered)
        let key = String(decoding: rendered, as: UTF8.self)
        rendered.removeAll(keepingCapacity: true)
        if let earlier = seen[key] {
          diagnostics.append(
            context.diagnostic(
              self,
              "rule \(number) of screen '\(screen.id)' can never win: rule \(earlier) has the same condition '\(condition.source)'",
              at: rule.location,
              notes: [Diagnostic.Note("rule \(earlier) is here", at: rules[earlier - 1].location)]))
        } else {
          seen[key] = number
        }
      }
    }
    return diagnostics
  }
}
