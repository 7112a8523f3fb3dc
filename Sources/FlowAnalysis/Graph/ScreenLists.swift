import FlowFormat

/// A list of values per screen node, read like a dictionary keyed by `ScreenNode` but stored
/// flat by the node's dense number (flows in file order, screens in order, `NumberedLists`):
/// building and reading it hashes nothing and allocates nothing per screen.
public struct ScreenLists<Element: Sendable>: Sendable {
  /// `flowStart[f] + s` is the number of `ScreenNode(flow: f, screen: s)`; the last entry is
  /// the node count.
  private let flowStart: [Int]
  private var lists: NumberedLists<Element>

  /// Lists to be appended node by node (`closeList()`), for the nodes `flowStart` counts.
  init(flowStart: [Int]) {
    self.flowStart = flowStart
    let count = flowStart.last ?? 0
    // A value per node and a little more: most screens have one way on.
    lists = NumberedLists(count: count, values: count + count / 16 + 16)
  }

  /// Every node's values, in node order.
  public var values: [Element] { lists.values }

  /// The list being built, the next node's in order.
  var openList: ArraySlice<Element> { lists.openList }

  mutating func appendToOpenList(_ element: Element) { lists.appendToOpenList(element) }

  /// Ends the list being built: it is the next node's.
  mutating func closeList() { lists.closeList() }

  /// Drops the room left past the values once every node is appended.
  mutating func trim() { lists.trim() }

  /// The values of `node`, nil when it has none (or there is no such screen).
  public subscript(node: ScreenNode) -> ArraySlice<Element>? {
    guard node.flow >= 0, node.flow + 1 < flowStart.count, node.screen >= 0 else { return nil }
    let number = flowStart[node.flow] + node.screen
    guard number < flowStart[node.flow + 1], number < lists.count else { return nil }
    let list = lists[number]
    return list.isEmpty ? nil : list
  }
}
