/// Which screens dominate which in a dense screen graph entered at its roots: `c` dominates
/// `r` when every path from a root to `r` passes `c` (a node dominates itself). The roots hang
/// below one virtual root, so a root is dominated by itself alone.
///
/// Cooper, Harvey and Kennedy's iteration over reverse post-order ("A Simple, Fast Dominance
/// Algorithm"), then the dominator tree numbered in pre- and post-order, so that a question is
/// two comparisons. `check.uncollected-variable` asks it for fields collected on one screen
/// only: a read is reached without the field exactly when that screen does not dominate it.
struct Dominators {
  /// Pre-order number of each node in the dominator tree; -1 for nodes no root reaches.
  private var enter: [Int32]
  /// The largest pre-order number in each node's subtree.
  private var last: [Int32]

  init(_ graph: DenseScreenGraph, roots: [Int]) {
    let count = graph.count
    let virtual = count
    let order = graph.reversePostorder(from: roots)
    // Position in reverse post-order, the virtual root first; -1: unreachable.
    var position = [Int32](repeating: -1, count: count + 1)
    position[virtual] = 0
    for (index, node) in order.enumerated() { position[node] = Int32(index + 1) }
    // Predecessors of the reachable nodes, the roots' being the virtual root.
    var edges = roots.map { (key: $0, value: virtual) }
    for node in order {
      for next in graph.successors(of: node) { edges.append((next, node)) }
    }
    let predecessors = Buckets(keys: count + 1, pairs: edges, filler: 0)
    var idom = [Int](repeating: -1, count: count + 1)
    idom[virtual] = virtual
    func intersect(_ a: Int, _ b: Int) -> Int {
      var (a, b) = (a, b)
      while a != b {
        while position[a] > position[b] { a = idom[a] }
        while position[b] > position[a] { b = idom[b] }
      }
      return a
    }
    var changed = true
    while changed {
      changed = false
      for node in order {
        var candidate = -1
        for predecessor in predecessors[node] where idom[predecessor] >= 0 {
          candidate = candidate < 0 ? predecessor : intersect(predecessor, candidate)
        }
        if candidate != idom[node] {
          idom[node] = candidate
          changed = true
        }
      }
    }
    // The tree's children, then its pre-order numbers by an explicit stack.
    let children = Buckets(keys: count + 1, pairs: order.map { (idom[$0], $0) }, filler: 0)
    enter = [Int32](repeating: -1, count: count + 1)
    last = [Int32](repeating: -1, count: count + 1)
    var clock: Int32 = 0
    var stack: [(node: Int, child: Int)] = [(virtual, children[virtual].startIndex)]
    enter[virtual] = 0
    while let (node, child) = stack.last {
      let below = children[node]
      if child < below.endIndex {
        stack[stack.count - 1].child += 1
        let next = below[child]
        clock += 1
        enter[next] = clock
        stack.append((next, children[next].startIndex))
      } else {
        last[node] = clock
        stack.removeLast()
      }
    }
  }

  /// Whether some root reaches `node`.
  func isReachable(_ node: Int) -> Bool { enter[node] >= 0 }

  /// Whether every path from a root to `node` passes `dominator` (false when no root reaches
  /// either).
  func dominates(_ dominator: Int, _ node: Int) -> Bool {
    enter[dominator] >= 0 && enter[node] >= 0 && enter[dominator] <= enter[node] && enter[node] <= last[dominator]
  }
}
