/// One explained decision of the session (session.md "Trace").
public struct Decision: Hashable, Sendable {
  public enum Kind: String, Hashable, Sendable {
    /// Leaving a screen forward: rules, `next` key, order, completion.
    case leave
    /// A validation outcome (blocked or passed).
    case validation
    /// Which outcome of an action ran and why (results, routing keys, defaults, open URLs).
    case action
    /// A screen's `onEnter` ran.
    case onEnter
    /// A filler screen advanced by itself.
    case autoAdvance
    /// Something that did nothing (unknown target, back on the first screen, ...).
    case noOp
    /// A debugging command (`goto`, `setVariable`).
    case debug
  }

  public var kind: Kind
  public var flowID: String
  public var screenID: String
  /// The first line, e.g. `leaving goal_screen via next`.
  public var headline: String
  /// The rules evaluated, in order (only for `.leave`).
  public var rules: [RuleOutcome]
  /// Further lines (indented by two spaces in `lines`).
  public var details: [String]
  /// The destination: a screen id, `$complete`, or nil when the session stayed.
  public var destination: String?
  public var isDebug: Bool { kind == .debug }

  public init(
    kind: Kind, flowID: String, screenID: String, headline: String, rules: [RuleOutcome] = [],
    details: [String] = [], destination: String? = nil
  ) {
    self.kind = kind
    self.flowID = flowID
    self.screenID = screenID
    self.headline = headline
    self.rules = rules
    self.details = details
    self.destination = destination
  }

  /// The text form of session.md:
  /// ```
  /// leaving goal_screen via next
  ///   rule 1  goal == 'lose' && age >= 18   goal='build' → false (first clause)
  ///   rule 2  goal equals 'build'            goal='build' → true  → muscle_plan
  /// ```
  public var lines: [String] {
    var out = [headline]
    let width = rules.map(\.source.count).max() ?? 0
    for rule in rules {
      let padding = String(repeating: " ", count: max(0, width - rule.source.count))
      var line = "  rule \(rule.number)  \(rule.source)\(padding)   \(rule.summary)"
      if rule.matched { line += "  → \(rule.target)" }
      out.append(line)
    }
    out.append(contentsOf: details.map { "  " + $0 })
    return out
  }
}

/// One rule evaluated when leaving a screen.
public struct RuleOutcome: Hashable, Sendable {
  /// 1-based position in the screen's `rules`.
  public var number: Int
  /// The condition's source text, or `(always)` for a rule without `when`.
  public var source: String
  /// Values read and the result: `goal='build' → false (first clause)`.
  public var summary: String
  public var matched: Bool
  /// The rule's `goto` (a screen id or `$complete`).
  public var target: String

  public init(number: Int, source: String, summary: String, matched: Bool, target: String) {
    self.number = number
    self.source = source
    self.summary = summary
    self.matched = matched
    self.target = target
  }
}
