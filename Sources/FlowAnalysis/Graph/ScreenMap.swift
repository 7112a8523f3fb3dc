import FlowFormat

/// Values by screen node, read like a dictionary keyed by `ScreenNode` but stored in one array
/// by the node's dense number (flows in file order, screens in order): building and reading it
/// hashes nothing, where `FlowGraph`'s dictionaries hashed a node per edge and per control.
public struct ScreenMap<Value: Sendable>: Sendable {
  /// `flowStart[f] + s` is the slot of `ScreenNode(flow: f, screen: s)`; the last entry is
  /// the node count.
  private let flowStart: [Int]
  private var values: [Value?]

  init(flowStart: [Int]) {
    self.flowStart = flowStart
    values = [Value?](repeating: nil, count: flowStart.last ?? 0)
  }

  /// The value of `node`, nil when there is none (or no such screen).
  public subscript(node: ScreenNode) -> Value? {
    get { slot(node).flatMap { values[$0] } }
    set {
      if let slot = slot(node) { values[slot] = newValue }
    }
  }

  private func slot(_ node: ScreenNode) -> Int? {
    guard node.flow >= 0, node.flow + 1 < flowStart.count, node.screen >= 0 else { return nil }
    let slot = flowStart[node.flow] + node.screen
    return slot < flowStart[node.flow + 1] ? slot : nil
  }
}
