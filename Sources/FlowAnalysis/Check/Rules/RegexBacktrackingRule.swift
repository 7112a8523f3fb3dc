import FlowFormat
import FlowPattern

/// Patterns whose repeated groups can share out a text in many ways: checking an answer that
/// almost matches takes exponential time, and flowrun gives up on it.
public struct RegexBacktrackingRule: LintRule {
  public init() {}
  public let id = "check.regex-backtracking"
  public let summary = "a pattern can take exponential time on an answer that almost matches"
  public let severity = Severity.warning
  public let details = """
    Reported for input `pattern`s and `matches` conditions, at the repeated group inside the pattern: a group repeated \
    (`*`, `+`, `{n,}`, `{n,m}` with m ≥ 2) that holds either a repetition whose text can also begin what follows it \
    (nested quantifiers: `(a+)+`, `(a*)*`, `(\\w+\\s?)+`) or two alternatives that can match the same text \
    (`(a|a)*`, `(\\w|\\d)+`). A text can then be split between the repetitions in exponentially many ways, and a \
    backtracking engine tries them all before it fails: flowrun stops at its limits and rejects the answer with \
    `pattern too complex to check` (docs/semantics.md), the app's engine may freeze. Rewrite the group so that each \
    text is matched one way only, e.g. `(\\w+\\s)*\\w+` instead of `(\\w+\\s?)+`. Possessive quantifiers, atomic \
    groups and lookarounds are not looked into; patterns using recursion, conditionals or `(?x)` are not analysed.
    """
  public let triggeringExample = Example.flow([
    Example.screen(
      "name", "form",
      [Example.block("name_input", "input", #""fieldName": "name", "pattern": "^(\\w+\\s?)+$""#), Example.button("go")])
  ])
  public let cleanExample = Example.flow([
    Example.screen(
      "name", "form",
      [
        Example.block("name_input", "input", #""fieldName": "name", "pattern": "^(\\w+\\s)*\\w+$""#),
        Example.button("go"),
      ])
  ])

  public func check(_ context: CheckContext) -> [Diagnostic] {
    // A pattern repeated on many inputs is analysed once.
    var analysed: [String: (syntax: PatternSyntax, risks: [BacktrackingRisk])?] = [:]
    var diagnostics: [Diagnostic] = []
    for site in context.patterns {
      let source = site.pattern.source
      if analysed[source] == nil { analysed[source] = .some(PatternSyntax(source).map { ($0, $0.backtrackingRisks) }) }
      guard let (syntax, risks) = analysed[source] ?? nil else { continue }
      let text = syntax.text
      for risk in risks {
        let why =
          switch risk.reason {
          case .nestedRepetition: "'\(text(risk.part))' inside it can also match the start of what follows it"
          case .overlappingAlternatives: "its alternatives '\(text(risk.part))' can match the same text"
          }
        diagnostics.append(
          context.diagnostic(
            self,
            "pattern '\(source)' can take exponential time: the repeated group '\(text(risk.group))' can split a text between its repetitions in many ways (\(why))",
            at: site.location(ofScalar: risk.group.lowerBound, in: context.source), inValueAt: site.location,
            notes: [
              Diagnostic.Note(
                "an answer that almost matches is rejected with 'pattern too complex to check'; make each repetition match a text one way only, e.g. '(\\w+\\s)*\\w+' instead of '(\\w+\\s?)+'"
              )
            ]))
      }
    }
    return diagnostics
  }
}
