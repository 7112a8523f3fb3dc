import FlowExpression
import FlowFormat

/// Screens no path from a start screen leads to.
public struct UnreachableScreenRule: LintRule {
  public init() {}
  public let id = "check.unreachable-screen"
  public let summary = "a screen can never be shown: no path from the start screen leads to it"
  public let severity = Severity.warning
  public let details =
    "Paths follow every edge: the order successor, `next`, rules, button / checklist / skip / onEnter actions and their onSuccess / onFailure / onCancel routes, native screen answers, sub-flow entry and return, and experiment variant flows. Every flow of a bundle is a root (it can be run with `--flow`)."
  public let triggeringExample = Example.flow([
    Example.screen("welcome", "welcome", [Example.button("go", action: #"{"type": "complete"}"#)]),
    Example.screen("orphan", "feature", [Example.button("go")]),
  ])
  public let cleanExample = Example.flow([
    Example.screen("welcome", "welcome", [Example.button("go")]),
    Example.screen("next_step", "feature", [Example.button("go")]),
  ])

  public func check(_ context: CheckContext) -> [Diagnostic] {
    let graph = context.graph
    // `FlowGraph.reachable()` on the dense graph: from every flow's start screen.
    let dense = context.dense
    let reachable = dense.reached(from: graph.starts.compactMap { $0.map(dense.number) })
    return dense.nodes.indices.filter { !reachable[$0] }.map { number in
      let node = dense.nodes[number]
      let flow = graph.flow(node)
      let screen = graph.screen(node)
      return context.diagnostic(
        self, "screen '\(screen.id)' can never be shown: no path from start screen '\(flow.startScreenID)' leads to it",
        at: screen.location)
    }
  }
}
