/// Users by path (screen keys, in order) kept as a tree of screens: a path is counted by walking
/// from the root down its screens, each one found among a handful of children, so a user's
/// path is neither copied into an array nor hashed (a dictionary keyed by the path did both).
struct PathCounts {
  private struct Node {
    var screen: Int32
    var parent: Int32
    var firstChild: Int32 = -1
    var nextSibling: Int32 = -1
    var users = 0
  }

  /// Node 0 is the root: the empty path.
  private var nodes = [Node(screen: -1, parent: -1)]

  /// Counts one user whose path is `path`.
  mutating func add(_ path: ArraySlice<Int32>) {
    var node = 0
    for screen in path { node = child(of: node, screen) }
    nodes[node].users += 1
  }

  /// The child of `node` for `screen`, added when missing.
  private mutating func child(of node: Int, _ screen: Int32) -> Int {
    var child = Int(nodes[node].firstChild)
    while child >= 0 {
      if nodes[child].screen == screen { return child }
      child = Int(nodes[child].nextSibling)
    }
    let added = nodes.count
    nodes.append(Node(screen: screen, parent: Int32(node), nextSibling: nodes[node].firstChild))
    nodes[node].firstChild = Int32(added)
    return added
  }

  /// Each path counted, with its users.
  func forEach(_ body: ([Int32], Int) -> Void) {
    for index in nodes.indices where nodes[index].users > 0 {
      var path: [Int32] = []
      var node = index
      while node > 0 {
        path.append(nodes[node].screen)
        node = Int(nodes[node].parent)
      }
      body(path.reversed(), nodes[index].users)
    }
  }
}
