import FlowFormat

/// What several lint rules read of every screen, worked out once per check: the dense screen
/// graph, and each screen's name reads and collected fields by dense node number.
///
/// Each rule used to build these for itself (a `DenseScreenGraph`, `Screen.nameReads` and
/// `Screen.collectedFields` per rule, per screen): on a 20,000-screen flow that was a fifth of
/// `check`.
struct ScreenFacts: Sendable {
  let dense: DenseScreenGraph
  /// `Screen.nameReads` of node `n`.
  let nameReads: [[NameRead]]
  /// `Screen.collectedFields` of node `n`.
  let collectedFields: [Set<String>]

  init(_ graph: FlowGraph) {
    dense = DenseScreenGraph(graph)
    var nameReads: [[NameRead]] = []
    var collectedFields: [Set<String>] = []
    nameReads.reserveCapacity(dense.count)
    collectedFields.reserveCapacity(dense.count)
    for flow in graph.document.flows {
      for screen in flow.screens {
        nameReads.append(screen.nameReads)
        collectedFields.append(screen.collectedFields)
      }
    }
    self.nameReads = nameReads
    self.collectedFields = collectedFields
  }

  /// The fields the screens of flow `flow` collect (its sub-flows not included).
  func fieldsCollected(byFlow flow: Int) -> Set<String> {
    var fields = Set<String>()
    for node in dense.nodes(inFlow: flow) { fields.formUnion(collectedFields[node]) }
    return fields
  }
}
