/// Paths from the roots of a breadth-first tree (``DenseScreenGraph/breadthFirstTree(from:blocked:until:)``)
/// to its nodes, told by their ends: a long path keeps its first and last `ends` nodes and
/// counts the ones between. Each node's depth and its ancestor at depth `ends - 1` are
/// remembered once found, so the paths to every node of a tree cost what the tree holds in all
/// (walking each path to its root, a 16,500-screen chain gave 1.7 GB of notes).
struct TreePaths {
  /// The tree: each node's parent, -1 for a root.
  let parent: [Int]
  let ends: Int
  private var depth: [Int]
  private var top: [Int]

  init(parent: [Int], ends: Int) {
    precondition(ends >= 1)
    self.parent = parent
    self.ends = ends
    depth = [Int](repeating: -1, count: parent.count)
    top = [Int](repeating: -1, count: parent.count)
  }

  /// The path to `node`, a node the tree reached: all of it (in `head`) when it has at most
  /// `2 * ends + 1` nodes, else its first and last `ends` nodes and how many lie between.
  mutating func path(to node: Int) -> (head: [Int], skipped: Int, tail: [Int]) {
    resolve(node)
    let length = depth[node] + 1
    guard length > 2 * ends + 1 else { return (walk(from: node, count: length).reversed(), 0, []) }
    return (walk(from: top[node], count: ends).reversed(), length - 2 * ends, walk(from: node, count: ends).reversed())
  }

  private func walk(from node: Int, count: Int) -> [Int] {
    var nodes: [Int] = []
    nodes.reserveCapacity(count)
    var cursor = node
    while nodes.count < count {
      nodes.append(cursor)
      cursor = parent[cursor]
    }
    return nodes
  }

  /// Sets `depth` and `top` of `node` and of its ancestors that lack them.
  private mutating func resolve(_ node: Int) {
    var chain: [Int] = []
    var cursor = node
    while depth[cursor] < 0 {
      chain.append(cursor)
      guard parent[cursor] >= 0 else { break }
      cursor = parent[cursor]
    }
    for node in chain.reversed() {
      let up = parent[node]
      let level = up < 0 ? 0 : depth[up] + 1
      depth[node] = level
      top[node] = level < ends ? node : top[up]
    }
  }
}
