/// Paths from the roots of a breadth-first tree (``DenseScreenGraph/breadthFirstTree(from:blocked:until:)``)
/// to its nodes, told by their ends: a long path keeps its first and last `ends` nodes and
/// counts the ones between. Each node's depth and its ancestor at depth `ends - 1` are
/// remembered once found, so the paths to every node of a tree cost what the tree holds in all
/// (walking each path to its root, a 16,500-screen chain gave 1.7 GB of notes).
struct TreePaths {
  /// The tree: each node's parent, -1 for a root.
  let parent: [Int]
  let ends: Int
  /// 32 bits a node, as the paths' nodes are: beside the tree, these were two more 8-byte
  /// arrays of every node of the flow.
  private var depth: [Int32]
  private var top: [Int32]

  init(parent: [Int], ends: Int) {
    precondition(ends >= 1)
    self.parent = parent
    self.ends = ends
    depth = [Int32](repeating: -1, count: parent.count)
    top = [Int32](repeating: -1, count: parent.count)
  }

  /// Appends the path to `node`, a node the tree reached, to `nodes`: all of it (as `head`)
  /// when it has at most `2 * ends + 1` nodes, else its first and last `ends` nodes; returns
  /// how many nodes it appended before and after the ones it skipped, and how many it skipped.
  /// (Written into the caller's buffer: three arrays a path cost 1,800 instructions a note on
  /// `lint-chain`.)
  mutating func appendPath(to node: Int, into nodes: inout [Int32]) -> (head: Int, skipped: Int, tail: Int) {
    resolve(node)
    let length = Int(depth[node]) + 1
    guard length > 2 * ends + 1 else {
      append(from: node, count: length, into: &nodes)
      return (length, 0, 0)
    }
    append(from: Int(top[node]), count: ends, into: &nodes)
    append(from: node, count: ends, into: &nodes)
    return (ends, length - 2 * ends, ends)
  }

  /// The number of nodes on the path to `node`, a node the tree reached, and the node its
  /// kept head ends with when the path is longer than `2 * ends + 1` (else `node`): with the
  /// tree, enough to write the path later (`append(from:count:parent:into:)`).
  mutating func end(of node: Int) -> (length: Int, headEnd: Int) {
    resolve(node)
    let length = Int(depth[node]) + 1
    return (length, length > 2 * ends + 1 ? Int(top[node]) : node)
  }

  private func append(from node: Int, count: Int, into nodes: inout [Int32]) {
    Self.append(from: node, count: count, parent: { parent[$0] }, into: &nodes)
  }

  /// Appends `count` nodes of the path up from `node` in a tree (`parent`), in root-to-leaf
  /// order (written from the end: appending them one by one and reversing the slice cost more
  /// than the path).
  static func append(from node: Int, count: Int, parent: (Int) -> Int, into nodes: inout [Int32]) {
    let start = nodes.count
    nodes.append(contentsOf: repeatElement(0, count: count))
    nodes.withUnsafeMutableBufferPointer { buffer in
      var cursor = node
      for index in (start..<start + count).reversed() {
        buffer[index] = Int32(cursor)
        cursor = parent(cursor)
      }
    }
  }

  /// Sets `depth` and `top` of `node` and of its ancestors that lack them.
  private mutating func resolve(_ node: Int) {
    guard depth[node] < 0 else { return }
    // Most nodes are asked for after their parent (breadth-first order): no chain to walk.
    let up = parent[node]
    if up < 0 || depth[up] >= 0 {
      depth[node] = up < 0 ? 0 : depth[up] + 1
      top[node] = depth[node] < ends ? Int32(node) : top[up]
      return
    }
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
      top[node] = level < ends ? Int32(node) : top[up]
    }
  }
}
