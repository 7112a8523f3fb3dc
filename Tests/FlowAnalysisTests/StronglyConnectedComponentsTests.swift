import FlowFormat
import Testing

@testable import FlowAnalysis

/// `FlowGraph.stronglyConnectedComponents()` (Tarjan on dense numbers) against the definition:
/// two screens share a component exactly when each reaches the other, each component lists
/// its screens in ascending order, and components come out sinks first (an edge between two
/// components goes to one already listed), as Tarjan's search completes them.
@Suite struct StronglyConnectedComponentsTests {
  @Test(arguments: UncollectedVariableEquivalenceTests.shapes)
  func componentsMatchMutualReachability(_ shape: UncollectedVariableEquivalenceTests.Shape) throws {
    let graph = try UncollectedVariableEquivalenceTests.graph(shape)
    let components = graph.stronglyConnectedComponents()
    var componentOf: [ScreenNode: Int] = [:]
    for (index, component) in components.enumerated() {
      #expect(component == component.sorted())
      for node in component {
        #expect(componentOf.updateValue(index, forKey: node) == nil, "\(node) is in one component")
      }
    }
    let nodes = graph.nodes
    #expect(componentOf.count == nodes.count)
    let reach = Dictionary(uniqueKeysWithValues: nodes.map { ($0, graph.reachable(from: [$0])) })
    for a in nodes {
      for b in nodes where a < b {
        let mutual = reach[a]!.contains(b) && reach[b]!.contains(a)
        #expect(mutual == (componentOf[a] == componentOf[b]), "\(a) and \(b)")
      }
      for edge in graph.outgoing[a] ?? [] {
        guard case .screen(let next) = edge.to else { continue }
        #expect(componentOf[next]! <= componentOf[a]!, "edge \(a) → \(next) goes to a component listed before")
      }
    }
  }
}
