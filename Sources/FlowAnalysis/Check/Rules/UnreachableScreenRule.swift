import FlowExpression
import FlowFormat

/// Screens no path from a start screen leads to.
public struct UnreachableScreenRule: LintRule {
  public init() {}
  public let id = "check.unreachable-screen"
  public let summary = "a screen can never be shown: no path from the start screen leads to it"
  public let severity = Severity.warning
  public let details =
    "Paths follow every edge: the order successor, `next`, rules, button / checklist / skip / onEnter actions and their onSuccess / onFailure / onCancel routes, native screen answers, sub-flow entry and return, and experiment variant flows. Every flow of a bundle is a root (it can be run with `--flow`). Each unreachable screen is counted once: the screens that only unreachable screens lead to are named in a note of the first one that leads to them (a dead end early in a long flow is one warning, not one per later screen)."
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
    // A region's first screens: unreachable, and no other unreachable screen leads to them.
    var ledTo = [Bool](repeating: false, count: dense.count)
    for node in 0..<dense.count where !reachable[node] {
      for next in dense.successors(of: node) where next != node { ledTo[next] = true }
    }
    var listed = reachable
    var regions: [(first: Int, rest: [Int])] = []
    func region(from first: Int) {
      listed[first] = true
      var rest: [Int] = []
      var stack = [first]
      while let node = stack.popLast() {
        for next in dense.successors(of: node) where !listed[next] {
          listed[next] = true
          rest.append(next)
          stack.append(next)
        }
      }
      regions.append((first, rest.sorted()))
    }
    for node in 0..<dense.count where !reachable[node] && !ledTo[node] { region(from: node) }
    // What is left lies on loops that nothing outside them leads to: each from its first screen.
    for node in 0..<dense.count where !listed[node] { region(from: node) }
    regions.sort { $0.first < $1.first }
    return regions.map { first, rest in
      let node = dense.nodes[first]
      let screen = graph.screen(node)
      return context.diagnostic(
        self,
        "screen '\(screen.id)' can never be shown: no path from start screen '\(graph.flow(node).startScreenID)' leads to it",
        at: screen.location, notes: rest.isEmpty ? [] : [Diagnostic.Note(Self.following(rest, in: dense, graph))])
    }
  }

  /// The note naming the screens a region's first screen leads to: the first few, and a count.
  static func following(_ rest: [Int], in dense: DenseScreenGraph, _ graph: FlowGraph) -> String {
    let named = rest.prefix(3).map { "'\(graph.screen(dense.nodes[$0]).id)'" }.joined(separator: ", ")
    let more = rest.count - min(rest.count, 3)
    let count = UncollectedVariableRule.grouped(rest.count)
    return "it leads to \(count) more \(rest.count == 1 ? "screen" : "screens") no path reaches: \(named)"
      + (more > 0 ? " and \(UncollectedVariableRule.grouped(more)) more" : "")
  }
}
