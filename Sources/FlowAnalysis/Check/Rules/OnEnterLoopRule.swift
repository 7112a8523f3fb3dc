import FlowExpression
import FlowFormat

/// Screens whose `onEnter` actions send the session round and round without showing anything.
public struct OnEnterLoopRule: LintRule {
  public init() {}
  public let id = "check.onenter-loop"
  public let summary = "onEnter actions route screens to each other forever"
  public let severity = Severity.error
  public let details =
    "An `onEnter` runs before its screen is shown; when it always leaves (a `screen` action, or `next` with no conditional rule in the way) and the screens it leads to do the same back to the first one, no screen is ever shown: every session that gets there fails with the step budget. Sub-flow screens entering their sub-flow count as such a leave; cycles of sub-flows alone are `check.subflow-cycle`."
  public let triggeringExample = Example.flow([
    Example.screen("welcome", "welcome", [Example.button("go")]),
    Example.screen(
      "ping", "feature", [Example.button("go")], extra: #""onEnter": {"type": "screen", "screenId": "pong"}"#),
    Example.screen(
      "pong", "feature", [Example.button("go")], extra: #""onEnter": {"type": "screen", "screenId": "ping"}"#),
  ])
  public let cleanExample = Example.flow([
    Example.screen("welcome", "welcome", [Example.button("go")]),
    Example.screen(
      "ping", "feature", [Example.button("go")], extra: #""onEnter": {"type": "screen", "screenId": "pong"}"#),
    Example.screen("pong", "feature", [Example.button("go")]),
  ])

  public func check(_ context: CheckContext) -> [Diagnostic] {
    let graph = context.graph
    // On dense node numbers: arrays instead of dictionaries by `ScreenNode`.
    let dense = context.dense
    let successor = dense.nodes.map { node in
      Self.unconditionalEntry(node, graph).map { (next: dense.number($0.next), onEnter: $0.onEnter) }
    }
    // Every node has at most one successor: follow each chain once, colouring as it goes.
    var state = [UInt8](repeating: 0, count: dense.count)  // 1 on the current chain, 2 done
    var diagnostics: [Diagnostic] = []
    var chain: [Int] = []
    for start in dense.nodes.indices where state[start] == 0 {
      chain.removeAll(keepingCapacity: true)
      var node: Int? = start
      while let current = node, state[current] == 0 {
        state[current] = 1
        chain.append(current)
        node = successor[current]?.next
      }
      if let current = node, state[current] == 1, let first = chain.firstIndex(of: current) {
        let cycle = chain[first...]
        if cycle.contains(where: { successor[$0]?.onEnter == true }) {
          diagnostics.append(report(cycle.map { dense.nodes[$0] }, context))
        }
      }
      for member in chain { state[member] = 2 }
    }
    return diagnostics
  }

  private func report(_ cycle: [ScreenNode], _ context: CheckContext) -> Diagnostic {
    // Named from its first screen in document order, so the message does not depend on where
    // the walk came in.
    let start = cycle.indices.min { cycle[$0] < cycle[$1] } ?? 0
    let ordered = Array(cycle[start...] + cycle[..<start])
    let graph = context.graph
    return context.diagnostic(
      self,
      "onEnter actions route \(context.describe(ordered + [ordered[0]])) forever: none of these screens is ever shown",
      at: graph.screen(ordered[0]).location,
      notes: ordered.dropFirst().map {
        Diagnostic.Note("'\(context.name($0))' is in the loop", at: graph.screen($0).location)
      }
    )
  }

  /// Where entering `node` certainly goes without showing it: a sub-flow screen into its
  /// sub-flow, else an `onEnter` that always leaves for another screen of the flow.
  static func unconditionalEntry(_ node: ScreenNode, _ graph: FlowGraph) -> (next: ScreenNode, onEnter: Bool)? {
    let screen = graph.screen(node)
    if screen.kind == .flow {
      // A sub-flow screen enters its sub-flow (its onEnter is not run); one whose sub-flow is
      // missing is shown as a plain screen.
      let entry = (graph.outgoing[node] ?? []).first { if case .subflow = $0.kind { true } else { false } }
      if let entry, case .screen(let next) = entry.to { return (next, false) }
      return nil
    }
    guard let onEnter = screen.onEnter, let next = target(of: onEnter, node, graph) else { return nil }
    return (next, true)
  }

  static func target(of action: Action, _ node: ScreenNode, _ graph: FlowGraph) -> ScreenNode? {
    let flow = graph.flow(node)
    switch action {
    case .screen(let id):
      return flow.index(of: id).map { ScreenNode(flow: node.flow, screen: $0) }
    case .next, .unknown:
      return forward(node, graph)
    case .skip:
      if let skipAction = graph.screen(node).content.skipAction, skipAction != .skip {
        return target(of: skipAction, node, graph)
      }
      return forward(node, graph)
    default:
      return nil  // stays, goes back, ends, or waits for a result: not a certain loop
    }
  }

  /// Leaving forward when no condition can change it: the first rule when it has no `when`,
  /// else (no rules) the `next` key or the following screen.
  static func forward(_ node: ScreenNode, _ graph: FlowGraph) -> ScreenNode? {
    let screen = graph.screen(node)
    if let rule = screen.rules.first, rule.when != nil, rule.when?.isConstantTrue != true { return nil }
    guard let first = graph.leaveEdges(node, screen, graph.flow(node)).first, case .screen(let next) = first.to else {
      return nil
    }
    return next
  }
}
