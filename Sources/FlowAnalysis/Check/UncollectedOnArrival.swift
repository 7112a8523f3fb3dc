/// For every screen and every name of a set: whether some path from a root reaches the screen
/// with the name not collected yet (no screen before it on that path collects it).
///
/// One forward "may" dataflow over bit sets, solved once for all names, instead of one graph
/// search per name: a flow with thousands of screens and hundreds of names costs
/// screens × names / 64 words per sweep, and sweeps in reverse post-order settle an acyclic
/// flow in one (each loop adds a sweep only for the screens it changes).
struct UncollectedOnArrival {
  private let words: Int
  /// Node-major: the bits of node `n` are `bits[n * words ..< (n + 1) * words]`.
  private var bits: [UInt64]

  /// `collects[n]` lists the names (numbers below `names`) node `n` collects.
  init(graph: DenseScreenGraph, roots: [Int], names: Int, collects: [[Int]]) {
    let words = (names + 63) / 64
    self.words = words
    bits = [UInt64](repeating: 0, count: graph.count * words)
    guard words > 0 else { return }
    let order = graph.reversePostorder(from: roots)
    var position = [Int](repeating: -1, count: graph.count)
    for (index, node) in order.enumerated() { position[node] = index }
    var dirty = [Bool](repeating: false, count: graph.count)
    for root in roots {
      for word in 0..<words {
        let used = min(64, names - word * 64)
        bits[root * words + word] = used == 64 ? ~0 : (1 << UInt64(used)) - 1
      }
      dirty[root] = true
    }
    var out = [UInt64](repeating: 0, count: words)
    var again = true
    while again {
      again = false
      for node in order where dirty[node] {
        dirty[node] = false
        for word in 0..<words { out[word] = bits[node * words + word] }
        for name in collects[node] { out[name >> 6] &= ~(1 << UInt64(name & 63)) }
        for next in graph.successors(of: node) {
          var changed = false
          for word in 0..<words {
            let old = bits[next * words + word]
            let new = old | out[word]
            if new != old {
              bits[next * words + word] = new
              changed = true
            }
          }
          guard changed else { continue }
          dirty[next] = true
          // A back edge: its target was already swept this time round.
          if position[next] <= position[node] { again = true }
        }
      }
    }
  }

  /// Whether node `node` may be reached with name number `name` not collected.
  func contains(node: Int, name: Int) -> Bool {
    (bits[node * words + (name >> 6)] & (1 << UInt64(name & 63))) != 0
  }
}
