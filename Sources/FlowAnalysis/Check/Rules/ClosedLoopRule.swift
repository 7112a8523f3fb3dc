import FlowExpression
import FlowFormat

/// Sets of screens that lead only to each other.
public struct ClosedLoopRule: LintRule {
  public init() {}
  public let id = "check.closed-loop"
  public let summary = "screens lead only to each other: a loop with no exit and no completion"
  public let severity = Severity.error
  public let details =
    "A strongly connected set of two or more screens with no edge leaving it (no other screen, no completion, no dismiss button): once in, a user can only go round."
  public let triggeringExample = Example.flow([
    Example.screen("welcome", "welcome", [Example.button("go")]),
    Example.screen("ping", "feature", [Example.button("go")]),
    Example.screen("pong", "feature", [Example.button("go", action: #"{"type": "screen", "screenId": "ping"}"#)]),
  ])
  public let cleanExample = Example.flow([
    Example.screen("welcome", "welcome", [Example.button("go")]),
    Example.screen("ping", "feature", [Example.button("go")]),
    Example.screen(
      "pong", "feature",
      [
        Example.button("again", "Again", action: #"{"type": "screen", "screenId": "ping"}"#),
        Example.button("done", "Done", action: #"{"type": "complete"}"#),
      ]),
  ])

  public func check(_ context: CheckContext) -> [Diagnostic] {
    let graph = context.graph
    var diagnostics: [Diagnostic] = []
    let dense = context.dense
    let components = dense.stronglyConnectedComponents()
    for index in 0..<components.count where components[index].count > 1 {
      let component = components[index].map { dense.nodes[Int($0)] }
      let members = Set(component)
      let exits = component.contains { node in
        (graph.outgoing[node] ?? []).contains { edge in
          if case .screen(let next) = edge.to { return !members.contains(next) }
          return true
        }
      }
      guard !exits else { continue }
      let first = component[0]
      let names = component.map { context.name($0) }.joined(separator: ", ")
      diagnostics.append(
        context.diagnostic(
          self, "screens \(names) lead only to each other: no exit and no completion",
          at: graph.screen(first).location,
          notes: component.dropFirst().map {
            Diagnostic.Note("'\(context.name($0))' is in the loop", at: graph.screen($0).location)
          }))
    }
    return diagnostics
  }
}
