import FlowExpression
import FlowFormat
import Testing

@testable import FlowAnalysis

/// The numbered facts the lint rules share, against what they stand for, on the generated
/// shapes of the uncollected-variable equivalence tests: `FlowGraph.outgoing` (`ScreenLists`)
/// holds each screen's edges in `edges` order and nothing for a node outside the document;
/// `ScreenFacts` numbers each name once and its per-screen field numbers name
/// `Screen.collectedFields`; a block the loader marks `hasOnlyPlainTexts` has no template that
/// interpolates.
@Suite struct ScreenFactsTests {
  @Test(arguments: UncollectedVariableEquivalenceTests.shapes)
  func factsMatchTheScreens(_ shape: UncollectedVariableEquivalenceTests.Shape) throws {
    let graph = try UncollectedVariableEquivalenceTests.graph(shape)
    for node in graph.nodes {
      let edges = graph.edges.filter { $0.from == node }
      #expect(Array(graph.outgoing[node] ?? []) == edges, "edges of \(node)")
      #expect(graph.outgoing[node] == nil || !edges.isEmpty, "no empty list for \(node)")
      #expect(graph.controls[node] != nil, "controls of \(node)")
    }
    for outside in [
      ScreenNode(flow: -1, screen: 0), ScreenNode(flow: 0, screen: -1), ScreenNode(flow: 0, screen: 1 << 20),
    ] {
      #expect(graph.outgoing[outside] == nil && graph.controls[outside] == nil, "\(outside)")
    }

    let facts = ScreenFacts(graph.document)
    #expect(Set(facts.names).count == facts.names.count, "each name numbered once")
    for (number, node) in DenseScreenGraph(graph).nodes.enumerated() {
      let screen = graph.screen(node)
      let fields = Array(facts.collectedFields[number])
      #expect(fields == fields.sorted())
      #expect(Set(fields.map { facts.names[$0] }) == screen.collectedFields, "fields of \(node)")
      #expect(facts.blockFields[number].map { facts.names[$0] } == screen.content.flatBlocks.compactMap(\.fieldName))
      #expect(
        facts.nameReads[number].map { facts.names[$0.number] } == screen.nameReads.map(\.name), "reads of \(node)")
    }
    // The loader's mark that lets `Screen.nameReads` skip a block: none of its templates interpolates.
    var marked = 0
    for node in graph.nodes {
      for block in graph.screen(node).content.flatBlocks where block.hasOnlyPlainTexts {
        marked += 1
        block.content.forEachTemplate { #expect($0.template.isPlainText, "block '\(block.id)': \($0.template.source)") }
      }
    }
    #expect(marked > 0, "no block marked plain")
  }

  @Test(arguments: [
    ([], [], []), ([1, 3], [], [1, 3]), ([], [2], [2]), ([1, 3, 5], [2, 3, 6], [1, 2, 3, 5, 6]),
    ([1, 1, 2], [2, 2], [1, 2]),
  ])
  func unionOfAscendingNumbers(_ a: [Int], _ b: [Int], _ union: [Int]) {
    #expect(ScreenFacts.union(a, b) == union)
    #expect(ScreenFacts.union(b, a) == union)
  }
}
