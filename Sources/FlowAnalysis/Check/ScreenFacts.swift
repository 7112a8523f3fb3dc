import FlowExpression
import FlowFormat

/// What several lint rules read of every screen, worked out once per check: the dense screen
/// graph, and each screen's name reads and collected fields by dense node number, with every
/// name numbered.
///
/// Each rule used to build these for itself (a `DenseScreenGraph`, `Screen.nameReads` and
/// `Screen.collectedFields` per rule, per screen): on a 20,000-screen flow that was a fifth of
/// `check`. Names are hashed once, here; the rules index arrays by name number instead of
/// looking names up in dictionaries.
struct ScreenFacts: Sendable {
  let dense: DenseScreenGraph
  /// Every name a screen reads or collects, numbered in the order first met.
  let names: [String]
  /// The number of each name of `names`.
  let numbers: [String: Int]
  /// `Screen.nameReads` of node `n`, each with its name's number.
  let nameReads: [[NameRead]]
  /// The numbers of the fields node `n`'s blocks collect (`Screen.collectedFields`), each once,
  /// ascending.
  let collectedFields: [[Int]]
  /// The field number of each block of node `n` that has a field name, in block order.
  let blockFields: [[Int]]

  init(_ graph: FlowGraph) {
    dense = DenseScreenGraph(graph)
    var numbers: [String: Int] = [:]
    numbers.reserveCapacity(dense.count)  // about a name per screen: no rehashing as it grows
    var names: [String] = []
    func number(_ name: String) -> Int {
      if let known = numbers[name] { return known }
      numbers[name] = names.count
      names.append(name)
      return names.count - 1
    }
    var nameReads: [[NameRead]] = []
    var collectedFields: [[Int]] = []
    var blockFields: [[Int]] = []
    nameReads.reserveCapacity(dense.count)
    collectedFields.reserveCapacity(dense.count)
    blockFields.reserveCapacity(dense.count)
    for flow in graph.document.flows {
      for screen in flow.screens {
        var reads = screen.nameReads
        for index in reads.indices { reads[index].number = number(reads[index].name) }
        nameReads.append(reads)
        var fields: [Int] = []
        var blocks: [Int] = []
        for block in screen.content.flatBlocks {
          guard let field = block.fieldName else { continue }
          let id = number(field)
          blocks.append(id)
          if !fields.contains(id) { fields.append(id) }
        }
        fields.sort()
        collectedFields.append(fields)
        blockFields.append(blocks)
      }
    }
    self.names = names
    self.numbers = numbers
    self.blockFields = blockFields
    self.nameReads = nameReads
    self.collectedFields = collectedFields
  }

  /// The numbers of the fields each flow collects, sub-flows included (ascending), or nil when
  /// they would hold more than `Limits.subflowFields` in all: `FlowDocument.fieldsThroughSubflows`
  /// on numbers instead of sets of names.
  func fieldsThroughSubflows(_ document: FlowDocument) -> [[Int]]? {
    let (order, children) = document.subflowPostOrder()
    var results = [[Int]?](repeating: nil, count: document.flows.count)
    var total = 0
    for flow in order {
      var result = dense.nodes(inFlow: flow).flatMap { collectedFields[$0] }
      result.sort()
      result = Self.union(result, [])
      for child in children[flow] {
        if let done = results[child] { result = Self.union(result, done) }
      }
      total += result.count
      if total > Limits.subflowFields { return nil }
      results[flow] = result
    }
    return results.map { $0! }
  }

  /// The union of two ascending lists of numbers, ascending, each number once.
  static func union(_ a: [Int], _ b: [Int]) -> [Int] {
    var result: [Int] = []
    result.reserveCapacity(a.count + b.count)
    var i = 0
    var j = 0
    func add(_ number: Int) {
      if result.last != number { result.append(number) }
    }
    while i < a.count || j < b.count {
      if j == b.count || (i < a.count && a[i] <= b[j]) {
        add(a[i])
        i += 1
      } else {
        add(b[j])
        j += 1
      }
    }
    return result
  }
}
