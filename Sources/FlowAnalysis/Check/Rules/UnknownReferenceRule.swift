import FlowExpression
import FlowFormat

/// Unknown screen and flow ids in actions, rules, `next`, sub-flows and variants. The loader
/// reports these (`ref.unknown-screen`, `load.unknown-flow`); this rule documents them.
public struct UnknownReferenceRule: LoaderReportedRule {
  public init() {}
  public let id = "check.unknown-reference"
  public let summary = "a screen or flow id in an action, rule, next, sub-flow or variant does not exist"
  public let severity = Severity.error
  public let details =
    "Reported by the loader as `ref.unknown-screen` (screens) and `load.unknown-flow` (flows), with a \"did you mean\" note. At run time such a navigation is a no-op."
  public let diagnosticIDs = [DiagnosticID.Ref.unknownScreen.id, DiagnosticID.Load.unknownFlow.id]
  public let triggeringExample = Example.flow([
    Example.screen("welcome", "welcome", [Example.button("go", action: #"{"type": "screen", "screenId": "plna"}"#)]),
    Example.screen("plan", "celebration", [Example.button("done", "Done", action: #"{"type": "complete"}"#)]),
  ])
  public let cleanExample = Example.flow([
    Example.screen("welcome", "welcome", [Example.button("go", action: #"{"type": "screen", "screenId": "plan"}"#)]),
    Example.screen("plan", "celebration", [Example.button("done", "Done", action: #"{"type": "complete"}"#)]),
  ])
}
