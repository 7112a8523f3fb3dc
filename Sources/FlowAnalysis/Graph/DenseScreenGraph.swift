import FlowFormat

/// The screen edges of a `FlowGraph` on dense node numbers, for searches that run many times
/// over a big flow: arrays indexed by number instead of dictionaries hashing `ScreenNode`s.
///
/// Numbers follow `FlowGraph.nodes` (flows in file order, screens in order); successors keep
/// `FlowGraph.outgoing`'s order (only edges to screens), so searches break ties as searches
/// on the graph itself do.
struct DenseScreenGraph {
  let nodes: DenseNodes
  /// `flowStart[f] + s` is the number of `ScreenNode(flow: f, screen: s)`; the last entry is
  /// the node count.
  private let flowStart: [Int]
  /// The successors of node `n` are `targets[starts[n]..<starts[n + 1]]` (flat, so a search
  /// retains no array per node; 32 bits each, as 64 they were 0.2 MB more of a check's peak on
  /// `lint-chain`).
  private let starts: [Int32]
  private let targets: [Int32]

  /// A node a search did not reach, in ``breadthFirstTree(from:blocked:until:)``'s result.
  static let unvisited = -2

  init(_ graph: FlowGraph) {
    var flowStart: [Int] = []
    var count = 0
    for flow in graph.document.flows {
      flowStart.append(count)
      count += flow.screens.count
    }
    flowStart.append(count)
    self.flowStart = flowStart
    nodes = DenseNodes(flowStart: flowStart)
    var starts: [Int32] = [0]
    starts.reserveCapacity(count + 1)
    var targets: [Int32] = []
    targets.reserveCapacity(graph.edgeCount)
    for node in nodes {
      for edge in graph.outgoing[node] ?? [] {
        if case .screen(let next) = edge.to { targets.append(Int32(flowStart[next.flow] + next.screen)) }
      }
      starts.append(Int32(targets.count))
    }
    self.starts = starts
    self.targets = targets
  }

  var count: Int { nodes.count }

  func number(_ node: ScreenNode) -> Int { flowStart[node.flow] + node.screen }

  /// The numbers of flow `flow`'s screens.
  func nodes(inFlow flow: Int) -> Range<Int> { flowStart[flow]..<flowStart[flow + 1] }

  @inline(__always) func successors(of node: Int) -> LazyMapCollection<ArraySlice<Int32>, Int> {
    targets[Int(starts[node])..<Int(starts[node + 1])].lazy.map { Int($0) }
  }

  /// Nodes reachable from `roots` (the roots included), entering every node but leaving only
  /// those `expands` accepts.
  func reached(from roots: [Int], expands: (Int) -> Bool = { _ in true }) -> [Bool] {
    var seen = [Bool](repeating: false, count: count)
    var stack: [Int] = []
    for root in roots where !seen[root] {
      seen[root] = true
      stack.append(root)
    }
    while let node = stack.popLast() {
      guard expands(node) else { continue }
      for next in successors(of: node) where !seen[next] {
        seen[next] = true
        stack.append(next)
      }
    }
    return seen
  }

  /// Breadth-first tree from `roots` (in order) that never leaves a `blocked` node: each node's
  /// parent, -1 for a root, ``unvisited`` when not reached. Stops early once every node in
  /// `until` is reached (their paths are final then).
  func breadthFirstTree(from roots: [Int], blocked: [Bool], until goals: [Int]) -> [Int] {
    var parent = [Int](repeating: Self.unvisited, count: count)
    var isGoal = [Bool](repeating: false, count: count)
    var missing = 0
    for goal in goals where !isGoal[goal] {
      isGoal[goal] = true
      missing += 1
    }
    var queue: [Int] = []
    func visit(_ node: Int, from previous: Int) {
      parent[node] = previous
      queue.append(node)
      if isGoal[node] { missing -= 1 }
    }
    for root in roots where parent[root] == Self.unvisited { visit(root, from: -1) }
    var head = 0
    while head < queue.count && missing > 0 {
      let node = queue[head]
      head += 1
      if blocked[node] { continue }
      for next in successors(of: node) where parent[next] == Self.unvisited { visit(next, from: node) }
    }
    return parent
  }

  /// Reverse post-order of a depth-first search from `roots` (only reachable nodes): every
  /// edge that is not a back edge goes forwards in it.
  func reversePostorder(from roots: [Int]) -> [Int] {
    var state = [UInt8](repeating: 0, count: count)  // 0 new, 1 on the stack, 2 done
    var postorder: [Int] = []
    postorder.reserveCapacity(count)
    var work: [(node: Int, slot: Int)] = []
    for root in roots where state[root] == 0 {
      state[root] = 1
      work.append((root, Int(starts[root])))
      while let (node, slot) = work.last {
        if slot < starts[node + 1] {
          work[work.count - 1].slot += 1
          let next = Int(targets[slot])
          if state[next] == 0 {
            state[next] = 1
            work.append((next, Int(starts[next])))
          }
        } else {
          state[node] = 2
          postorder.append(node)
          work.removeLast()
        }
      }
    }
    return postorder.reversed()
  }

  /// Strongly connected components (Tarjan over successors in order, `LivenessOrder`'s), each
  /// in ascending number order, in the order Tarjan's search completes them.
  func stronglyConnectedComponents() -> NumberedLists<Int32> {
    var components = LivenessOrder.stronglyConnectedComponents(count: count) { successors(of: $0) }
    for component in 0..<components.count where components[component].count > 1 { components.sort(component) }
    return components
  }
}

/// The screen nodes by dense number, worked out from where each flow's numbers start rather than
/// kept: a list was 0.2 MB of `lint-chain`'s peak, and `check.uncollected-variable`'s texts kept
/// it to the end of the check.
struct DenseNodes: RandomAccessCollection, Sendable {
  /// `DenseScreenGraph`'s: flow `f`'s numbers start at `flowStart[f]`; the last entry is the count.
  fileprivate let flowStart: [Int]

  var startIndex: Int { 0 }
  var endIndex: Int { flowStart.last ?? 0 }

  /// Node `number`: the last flow whose numbers start at or before it (flows without screens
  /// start where the next one does).
  subscript(number: Int) -> ScreenNode {
    var low = 0
    var high = flowStart.count - 2
    while low < high {
      let mid = (low + high + 1) / 2
      if flowStart[mid] <= number { low = mid } else { high = mid - 1 }
    }
    return ScreenNode(flow: low, screen: number - flowStart[low])
  }

  /// In order without a search per node.
  func makeIterator() -> Iterator { Iterator(flowStart: flowStart) }

  struct Iterator: IteratorProtocol {
    fileprivate let flowStart: [Int]
    private var number = 0
    private var flow = 0

    fileprivate init(flowStart: [Int]) { self.flowStart = flowStart }

    mutating func next() -> ScreenNode? {
      guard number < flowStart[flowStart.count - 1] else { return nil }
      while flowStart[flow + 1] <= number { flow += 1 }
      defer { number += 1 }
      return ScreenNode(flow: flow, screen: number - flowStart[flow])
    }
  }
}
