import FlowFormat
import Testing

@testable import FlowAnalysis

/// `Dominators` against its definition: `c` dominates `r` when `r` is reachable and no path
/// from a root reaches `r` once `c` is left out (or `r` is `c`).
@Suite struct DominatorsTests {
  @Test(arguments: UncollectedVariableEquivalenceTests.shapes)
  func everyPairAsTheDefinitionSays(_ shape: UncollectedVariableEquivalenceTests.Shape) throws {
    let graph = try UncollectedVariableEquivalenceTests.graph(shape)
    let dense = DenseScreenGraph(graph)
    let roots = graph.rootFlows.compactMap { graph.starts[$0] }.map(dense.number)
    let dominators = Dominators(dense, roots: roots)
    let reachable = dense.reached(from: roots)
    #expect((0..<dense.count).map(dominators.isReachable) == reachable)
    var dominated = 0
    for candidate in 0..<dense.count {
      // Entered but never left: the nodes reached on paths that do not pass `candidate`.
      let avoiding = dense.reached(from: roots) { $0 != candidate }
      for node in 0..<dense.count {
        let expected = reachable[node] && reachable[candidate] && (node == candidate || !avoiding[node])
        #expect(dominators.dominates(candidate, node) == expected, "\(candidate) dominates \(node)")
        if expected && node != candidate { dominated += 1 }
      }
    }
    // Not vacuous: some screen is dominated by another.
    #expect(dominated > 0)
  }
}
