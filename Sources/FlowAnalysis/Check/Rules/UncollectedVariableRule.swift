import FlowExpression
import FlowFormat

/// Templates and conditions that read a field some path has not collected yet.
public struct UncollectedVariableRule: LintRule {
  public init() {}
  public let id = "check.uncollected-variable"
  public let summary = "a template or condition reads a field that is not collected on some path to it"
  public let severity = Severity.warning
  public let details =
    "The note names a shortest such path. Context names (`$user`, `$variant`, ...) are not fields. Rule conditions and templates are checked. A template with a `default` filter, `empty` / `is_set` / `not_set` tests, and `visibleWhen` conditions handle a missing value and are not reported; a block's `visibleWhen` that requires a field (`is_set`, `not_empty`, a comparison) guards the block's templates that read it. A `flow` screen counts as collecting every field of its sub-flow. A name no block collects is reported only when no awaited action or native screen could supply it as result data."
  public let triggeringExample = Example.flow([
    Example.screen("welcome", "welcome", [Example.button("go", action: #"{"type": "screen", "screenId": "plan"}"#)]),
    Example.screen("name_screen", "form", [Example.block("name_input", "input", #""fieldName": "name""#), Example.button("go")]),
    Example.screen("plan", "feature", [Example.text("plan_title", "Hi {name}!"), Example.button("go")]),
  ])
  public let cleanExample = Example.flow([
    Example.screen("welcome", "welcome", [Example.button("go")]),
    Example.screen("name_screen", "form", [Example.block("name_input", "input", #""fieldName": "name""#), Example.button("go")]),
    Example.screen("plan", "feature", [Example.text("plan_title", "Hi {name}!"), Example.button("go")]),
  ])

  public func check(_ context: CheckContext) -> [Diagnostic] {
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
      var seen = Set<String>()
      for read in screen.nameReads where seen.insert(read.name).inserted {
        reads[read.name, default: []].append((node, read))
      }
    }
    let suppliesResults = document.flows.contains { flow in
      flow.screens.contains { screen in
        screen.kind == .native || Self.hasAwaitedAction(screen)
      }
    }
    // The searches below run once per field name over the whole graph, and a big flow has
    // hundreds of names and thousands of screens: they work on dense node numbers and arrays
    // rather than on dictionaries keyed by ScreenNode, and name each screen once.
    let nodes = graph.nodes
    var number: [ScreenNode: Int] = [:]
    number.reserveCapacity(nodes.count)
    for (index, node) in nodes.enumerated() { number[node] = index }
    var successorLists = [[Int]](repeating: [], count: nodes.count)
    for (index, node) in nodes.enumerated() {
      for edge in graph.outgoing[node] ?? [] {
        if case .screen(let next) = edge.to, let to = number[next] { successorLists[index].append(to) }
      }
    }
    var predecessorLists = [[Int]](repeating: [], count: nodes.count)
    for edge in graph.edges {
      if case .screen(let to) = edge.to, let to = number[to], let from = number[edge.from] {
        predecessorLists[to].append(from)
      }
    }
    let successors = Adjacency(successorLists)
    let predecessors = Adjacency(predecessorLists)
    var collectorsByName: [String: [Int]] = [:]
    for (index, node) in nodes.enumerated() {
      for field in collects[node] ?? [] { collectorsByName[field, default: []].append(index) }
    }
    let roots = graph.rootFlows.compactMap { graph.starts[$0] }.compactMap { number[$0] }
    var isRoot = [Bool](repeating: false, count: nodes.count)
    for root in roots { isRoot[root] = true }
    var names: [String?] = Array(repeating: nil, count: nodes.count)
    func screenName(_ index: Int) -> String {
      if let known = names[index] { return known }
      let text = context.name(nodes[index])
      names[index] = text
      return text
    }
    var blocked = [Bool](repeating: false, count: nodes.count)
    var diagnostics: [Diagnostic] = []
    for name in reads.keys.sorted() {
      let readers = reads[name]!
      guard allCollected.contains(name) else {
        if suppliesResults { continue }
        for (node, read) in readers {
          diagnostics.append(
            context.diagnostic(
              self, "screen '\(graph.screen(node).id)' reads '\(name)', which no screen collects", at: read.location,
              notes: [Diagnostic.Note("read by \(read.what)")]))
        }
        continue
      }
      let collectors = collectorsByName[name] ?? []
      for index in collectors { blocked[index] = true }
      defer { for index in collectors { blocked[index] = false } }
      // Cheap test first: walk backwards from the readers, stopping at collectors; only when a
      // start screen is reached is there a path to name (then search forwards for it).
      let readerNodes = readers.compactMap { number[$0.0] }.filter { !blocked[$0] }
      guard !readerNodes.isEmpty,
        Self.reachesRoot(from: readerNodes, isRoot: isRoot, predecessors: predecessors, blocked: blocked)
      else {
        continue
      }
      let tree = Self.bfs(successors: successors, roots: roots, blocked: blocked)
      for (node, read) in readers {
        guard let index = number[node], !blocked[index], tree[index] != Self.unvisited else { continue }
        var path = [index]
        var cursor = index
        while tree[cursor] >= 0 {
          cursor = tree[cursor]
          path.append(cursor)
        }
        var described = ""
        for (step, index) in path.reversed().enumerated() {
          if step > 0 { described += " → " }
          described += screenName(index)
        }
        let where_ = collectors.prefix(3).map { "'\(screenName($0))'" }.joined(separator: ", ")
        diagnostics.append(
          context.diagnostic(
            self, "screen '\(graph.screen(node).id)' reads '\(name)', which is not collected on every path to it",
            at: read.location,
            notes: [
              Diagnostic.Note("\(described) reads '\(name)' (\(read.what)), which is only collected on \(where_)")
            ]))
      }
    }
    return diagnostics
  }

  /// Whether a root can reach one of `readers` without entering a blocked screen (searched
  /// backwards from the readers).
  static func reachesRoot(from readers: [Int], isRoot: [Bool], predecessors: Adjacency, blocked: [Bool]) -> Bool {
    var seen = [Bool](repeating: false, count: isRoot.count)
    for reader in readers { seen[reader] = true }
    var stack = readers
    while let node = stack.popLast() {
      if isRoot[node] { return true }
      for slot in predecessors.range(of: node) {
        let previous = predecessors.targets[slot]
        guard !blocked[previous] && !seen[previous] else { continue }
        seen[previous] = true
        stack.append(previous)
      }
    }
    return false
  }

  /// Neighbour lists of dense node numbers in two flat arrays (no array per node to retain
  /// while searching).
  struct Adjacency {
    /// The neighbours of node `n` are `targets[starts[n]..<starts[n + 1]]`.
    let starts: [Int]
    let targets: [Int]

    init(_ lists: [[Int]]) {
      var starts = [0]
      starts.reserveCapacity(lists.count + 1)
      for list in lists { starts.append(starts[starts.count - 1] + list.count) }
      self.starts = starts
      targets = Array(lists.joined())
    }

    var count: Int { starts.count - 1 }

    @inline(__always) func range(of node: Int) -> Range<Int> { starts[node]..<starts[node + 1] }
  }

  /// In ``bfs(successors:roots:blocked:)``'s tree: a node no search reached.
  static let unvisited = -2

  /// Breadth-first tree from `roots` through screens that are not `blocked` (a blocked screen
  /// is never left): each node's parent, -1 for a root, ``unvisited`` when not reached.
  static func bfs(successors: Adjacency, roots: [Int], blocked: [Bool]) -> [Int] {
    var parent = [Int](repeating: unvisited, count: successors.count)
    var queue: [Int] = []
    for root in roots where parent[root] == unvisited {
      parent[root] = -1
      queue.append(root)
    }
    var head = 0
    while head < queue.count {
      let node = queue[head]
      head += 1
      if blocked[node] { continue }
      for slot in successors.range(of: node) {
        let next = successors.targets[slot]
        guard parent[next] == unvisited else { continue }
        parent[next] = node
        queue.append(next)
      }
    }
    return parent
  }

  static func hasAwaitedAction(_ screen: Screen) -> Bool {
    func awaited(_ action: Action?) -> Bool {
      if case .custom(let custom)? = action { return custom.awaitResult }
      return false
    }
    if awaited(screen.onEnter) || awaited(screen.content.skipAction) || awaited(screen.content.buttonAction) { return true }
    return screen.content.flatBlocks.contains { block in
      switch block.content {
      case .button(let button): awaited(button.action)
      case .choice(let choice): awaited(choice.action)
      default: false
      }
    }
  }
}
