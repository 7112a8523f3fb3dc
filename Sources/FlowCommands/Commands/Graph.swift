import ArgumentParser
import FlowAnalysis
import FlowFormat

extension Flowrun {
  /// `flowrun graph FLOW`: screens and branches as Graphviz DOT, Mermaid or JSON.
  struct Graph: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "graph",
      abstract: "Print a flow's screens and branches as Graphviz DOT, Mermaid or JSON.",
      discussion: """
        Nodes are screens (name, id, type); edges are the order successor, next, rules \
        (labelled with their condition), button and checklist actions, action outcomes, skip, \
        onEnter and sub-flow entries. Sub-flows of a bundle are clusters; unreachable screens \
        are dashed and grey.

        Example:
          flowrun graph flow.json | dot -Tsvg > flow.svg
        """
    )

    @Argument(help: "A flow or bundle JSON file.")
    var flow: String

    @OptionGroup(title: "Loading")
    var loading: LoadingOptions

    @Option(help: "Output format: dot, mermaid or json.")
    var format: GraphFormat = .dot

    @Option(name: .customLong("flow"), help: "Show only this flow of a bundle (and the sub-flows it runs).")
    var flowID: String?

    func run() throws {
      let (document, _) = try loadRunnableFlow(flow, options: loading.load)
      let renderer: GraphRenderer
      do {
        renderer = try GraphRenderer(document: document, flowID: flowID)
      } catch {
        Output.error.write("error: \(error.message)\n")
        throw ExitCode(64)
      }
      Output.standard.write(renderer.render(format.rendererFormat))
    }
  }
}

enum GraphFormat: String, ExpressibleByArgument, CaseIterable {
  case dot, mermaid, json

  var rendererFormat: GraphRenderer.Format {
    switch self {
    case .dot: .dot
    case .mermaid: .mermaid
    case .json: .json
    }
  }
}
