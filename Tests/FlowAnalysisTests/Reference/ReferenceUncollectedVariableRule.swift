import FlowExpression
import FlowFormat

@testable import FlowAnalysis

/// The uncollected-variable rule as it was before it moved to dense numbers and one dataflow
/// (commit 27315e9 semantics): per name, a backward search from the readers, then a
/// breadth-first search on hashed `ScreenNode`s. Slow but plain; the equivalence tests compare
/// the rule with it.
struct ReferenceUncollectedVariableRule: LintRule {
  init() {}
  let id = "check.uncollected-variable"
  let summary = "a template or condition reads a field that is not collected on some path to it"
  let severity = Severity.warning
  let triggeringExample = ""
  let cleanExample = ""

  func check(_ context: CheckContext) -> [Diagnostic] {
    let graph = context.graph
    let document = context.document
    // Fields each flow collects, sub-flows included.
    var flowFields: [Int: Set<String>] = [:]
    func fields(ofFlow index: Int, _ visiting: Set<Int>) -> Set<String> {
      if let known = flowFields[index] { return known }
      var result = Set<String>()
      for screen in document.flows[index].screens {
        result.formUnion(screen.collectedFields)
        if let child = screen.subflow, let childIndex = document.flows.firstIndex(where: { $0.id == child }),
          !visiting.contains(childIndex)
        {
          result.formUnion(fields(ofFlow: childIndex, visiting.union([index])))
        }
      }
      flowFields[index] = result
      return result
    }
    var collects: [ScreenNode: Set<String>] = [:]
    var reads: [String: [(ScreenNode, NameRead)]] = [:]
    var allCollected = Set<String>()
    for node in graph.nodes {
      let screen = graph.screen(node)
      var set = screen.collectedFields
      if let child = screen.subflow, let childIndex = document.flows.firstIndex(where: { $0.id == child }) {
        set.formUnion(fields(ofFlow: childIndex, [node.flow]))
      }
      collects[node] = set
      allCollected.formUnion(set)
      // One read per name and screen: the first that needs a value, else the first.
      var first: [String: NameRead] = [:]
      var order: [String] = []
      for (name, read) in screen.nameReads {
        if let known = first[name] {
          if known.handlesMissing && !read.handlesMissing { first[name] = read }
        } else {
          first[name] = read
          order.append(name)
        }
      }
      for name in order { reads[name, default: []].append((node, first[name]!)) }
    }
    let roots = graph.rootFlows.compactMap { graph.starts[$0] }
    let rootSet = Set(roots)
    var predecessors: [ScreenNode: [ScreenNode]] = [:]
    for edge in graph.edges {
      if case .screen(let to) = edge.to { predecessors[to, default: []].append(edge.from) }
    }
    // Screens after which result data may have arrived: an awaited action's success data and a
    // native screen's answer are merged into the collected data, under names no block declares.
    var suppliesFlow: [Int: Bool] = [:]
    func flowSupplies(_ index: Int, _ visiting: Set<Int>) -> Bool {
      if let known = suppliesFlow[index] { return known }
      let result = document.flows[index].screens.contains { screen in
        if Self.suppliesResults(screen) { return true }
        guard let child = screen.subflow, let childIndex = document.flows.firstIndex(where: { $0.id == child }),
          !visiting.contains(childIndex)
        else { return false }
        return flowSupplies(childIndex, visiting.union([index]))
      }
      suppliesFlow[index] = result
      return result
    }
    func supplies(_ node: ScreenNode) -> Bool {
      let screen = graph.screen(node)
      if Self.suppliesResults(screen) { return true }
      guard let child = screen.subflow, let childIndex = document.flows.firstIndex(where: { $0.id == child }) else {
        return false
      }
      return flowSupplies(childIndex, [node.flow])
    }
    var diagnostics: [Diagnostic] = []
    for name in reads.keys.sorted() {
      let readers = reads[name]!
      guard allCollected.contains(name) else {
        // No block collects the name. It is result data only where every path to the read
        // passes an awaited action or native screen (or the screen's own `onEnter` awaits one);
        // a read that some path reaches without one is a typo or a forgotten field.
        for (node, read) in readers {
          let screen = graph.screen(node)
          let reachable = Self.reachesRoot(
            from: [node], roots: rootSet, predecessors: predecessors, blocked: { _ in false })
          let bare = Self.reachesRoot(from: [node], roots: rootSet, predecessors: predecessors, blocked: supplies)
          // Result data one or two edits away from a collected field is far likelier a typo.
          let guess = closestMatch(to: name, in: allCollected.sorted())
          if reachable && (!bare || Self.awaits(screen.onEnter)) && guess == nil { continue }
          var notes = [Diagnostic.Note("read by \(read.what(on: screen))")]
          if let guess { notes.append(Diagnostic.Note("did you mean '\(guess)'?")) }
          var diagnostic = context.diagnostic(
            self, "screen '\(screen.id)' reads '\(name)', which no screen collects", at: read.location, notes: notes)
          // A misspelt name reads as missing on every run: an error, not a risk (issue #19).
          if guess != nil { diagnostic.severity = .error }
          diagnostics.append(diagnostic)
        }
        continue
      }
      // Cheap test first: walk backwards from the readers, stopping at collectors; only when a
      // start screen is reached is there a path to name (then search forwards for it).
      let readerNodes = readers.filter { !$0.1.handlesMissing }.map(\.0).filter { collects[$0]?.contains(name) != true }
      guard !readerNodes.isEmpty,
        Self.reachesRoot(
          from: readerNodes, roots: rootSet, predecessors: predecessors,
          blocked: { collects[$0]?.contains(name) == true })
      else {
        continue
      }
      let collectors = graph.nodes.filter { collects[$0]?.contains(name) == true }
      let tree = Self.bfs(graph, roots: roots) { collects[$0]?.contains(name) == true }
      for (node, read) in readers
      where !read.handlesMissing && collects[node]?.contains(name) != true && tree[node] != nil {
        var path = [node]
        var cursor = node
        while let up = tree[cursor], let previous = up {
          path.append(previous)
          cursor = previous
        }
        path.reverse()
        let collectorNames = collectors.prefix(3).map { "'\(context.name($0))'" }.joined(separator: ", ")
        diagnostics.append(
          context.diagnostic(
            self, "screen '\(graph.screen(node).id)' reads '\(name)', which is not collected on every path to it",
            at: read.location,
            notes: [
              Diagnostic.Note(
                "\(Self.describe(path, context)) reads '\(name)' (\(read.what(on: graph.screen(node)))), which is only collected on \(collectorNames)"
              )
            ]))
      }
    }
    return diagnostics
  }

  /// The whole path, or past 21 screens its first and last 10 with the number between.
  static func describe(_ path: [ScreenNode], _ context: CheckContext) -> String {
    guard path.count > 21 else { return context.describe(path) }
    let middle = NumberFormatting.grouped(Double(path.count - 20))
    return context.describe(Array(path.prefix(10))) + " → … \(middle) screens … → "
      + context.describe(Array(path.suffix(10)))
  }

  /// Whether a root can reach one of `readers` without entering a blocked screen (searched
  /// backwards from the readers).
  static func reachesRoot(
    from readers: [ScreenNode], roots: Set<ScreenNode>, predecessors: [ScreenNode: [ScreenNode]],
    blocked: (ScreenNode) -> Bool
  ) -> Bool {
    var seen = Set(readers)
    var stack = readers
    while let node = stack.popLast() {
      if roots.contains(node) { return true }
      for previous in predecessors[node] ?? [] where !blocked(previous) && seen.insert(previous).inserted {
        stack.append(previous)
      }
    }
    return false
  }

  /// Breadth-first tree from `roots` through screens `blocked` does not stop at (a blocked
  /// screen is never entered).
  static func bfs(_ graph: FlowGraph, roots: [ScreenNode], blocked: (ScreenNode) -> Bool) -> [ScreenNode: ScreenNode?] {
    var parent: [ScreenNode: ScreenNode?] = [:]
    var queue: [ScreenNode] = []
    for root in roots where parent[root] == nil {
      parent[root] = .some(nil)
      queue.append(root)
    }
    var head = 0
    while head < queue.count {
      let node = queue[head]
      head += 1
      if blocked(node) { continue }
      for edge in graph.outgoing[node] ?? [] {
        guard case .screen(let next) = edge.to, parent[next] == nil else { continue }
        parent[next] = .some(node)
        queue.append(next)
      }
    }
    return parent
  }

  /// Whether result data may arrive at or after `screen`: a native screen, or an awaited action.
  static func suppliesResults(_ screen: Screen) -> Bool {
    screen.kind == .native || hasAwaitedAction(screen)
  }

  static func awaits(_ action: Action?) -> Bool {
    if case .custom(let custom)? = action { return custom.awaitResult }
    return false
  }

  static func hasAwaitedAction(_ screen: Screen) -> Bool {
    let awaited = awaits
    if awaited(screen.onEnter) || awaited(screen.content.skipAction) || awaited(screen.content.buttonAction) {
      return true
    }
    return screen.content.flatBlocks.contains { block in
      switch block.content {
      case .button(let button): awaited(button.action)
      case .choice(let choice): awaited(choice.action)
      default: false
      }
    }
  }
}
