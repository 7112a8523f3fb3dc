import FlowExpression
import FlowFormat

/// Sub-flows that run each other: the loader reports the cycle (`load.subflow-cycle`).
public struct SubflowCycleRule: LoaderReportedRule {
  public init() {}
  public let id = "check.subflow-cycle"
  public let summary = "sub-flows run each other in a cycle"
  public let severity = Severity.error
  public let details = "Reported by the loader as `load.subflow-cycle`, naming the cycle (`a → b → a`)."
  public let diagnosticIDs = [DiagnosticID.Load.subflowCycle.id]
  public let triggeringExample = Example.bundle([
    ("main", [#"{"id": "run_b", "name": "B", "type": "flow", "flow": "b", "content": {}}"#]),
    ("b", [#"{"id": "run_main", "name": "Main", "type": "flow", "flow": "main", "content": {}}"#]),
  ])
  public let cleanExample = Example.bundle([
    ("main", [#"{"id": "run_b", "name": "B", "type": "flow", "flow": "b", "content": {}}"#]),
    ("b", [Example.screen("hello", "welcome", [Example.button("go")])]),
  ])
}
