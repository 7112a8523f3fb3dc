import FlowAnalysis
import FlowFormat
import Foundation
import Testing
import _FlowTestSupport

/// Golden graphs of every sample flow in every format, and the marks the renderer adds.
@Suite struct GraphTests {
  static let cases: [(String, GraphRenderer.Format)] = RuleTests.sampleFlows.flatMap { name in
    GraphRenderer.Format.allCases.map { (name, $0) }
  }

  @Test(arguments: cases)
  func sampleFlowGraph(_ name: String, _ format: GraphRenderer.Format) throws {
    let path = packageRoot().appendingPathComponent("sample-flows/\(name)").path
    let document = try #require(FlowLoader.load(path: path).document)
    let text = try GraphRenderer(document: document).render(format)
    let stem = name.replacingOccurrences(of: ".json", with: "")
    let ext = format == .dot ? "dot" : format == .mermaid ? "mmd" : "json"
    assertSnapshot(text, named: "graph/\(stem).\(ext)")
    #expect(text == (try GraphRenderer(document: document).render(format)), "output is deterministic")
  }

  /// A paywall's outcomes (the rule's own action, `then`) are edges of their own, labelled and
  /// styled as the outcomes of an awaited action: `paywall.premium: cancelled · rule 2: (always)`.
  @Test(arguments: GraphRenderer.Format.allCases)
  func paywallOutcomeGraph(_ format: GraphRenderer.Format) throws {
    let path = packageRoot().appendingPathComponent("sample-flows/appdna/premium-upgrade.json").path
    let document = try #require(FlowLoader.load(path: path).document)
    let ext = format == .dot ? "dot" : format == .mermaid ? "mmd" : "json"
    assertSnapshot(try GraphRenderer(document: document).render(format), named: "graph/appdna-premium-upgrade.\(ext)")
  }

  @Test func unreachableScreensAreMarked() throws {
    let result = FlowLoader.load(bytes: Array(UnreachableScreenRule().triggeringExample.utf8), file: "x.json")
    let document = try #require(result.document)
    let renderer = try GraphRenderer(document: document)
    #expect(
      renderer.render(.dot).contains(
        #""example/orphan" [label="orphan\norphan · feature", style="rounded,dashed", color=gray"#))
    #expect(renderer.render(.mermaid).contains("class s0_1 unreachable"))
    #expect(renderer.render(.json).contains(#""reachable": false"#))
  }

  @Test func selectingAFlowKeepsItsSubflows() throws {
    let path = packageRoot().appendingPathComponent("sample-flows/bundle.json").path
    let document = try #require(FlowLoader.load(path: path).document)
    let dot = try GraphRenderer(document: document, flowID: "quick_start").render(.dot)
    #expect(dot.contains("subgraph \"cluster_quick_start\""))
    #expect(dot.contains("subgraph \"cluster_profile_setup\""))
    #expect(!dot.contains("cluster_onboarding"))
    #expect(throws: GraphError.self) { try GraphRenderer(document: document, flowID: "nope") }
  }
}
