import FlowFormat

/// `flowrun graph` output: the screen graph as Graphviz DOT, Mermaid or JSON.
///
/// Output is deterministic: flows in file order, screens in order, edges as each screen
/// declares them. Unreachable screens are dashed and grey; sub-flows of a bundle are clusters.
public struct GraphRenderer: Sendable {
  public enum Format: String, Sendable, CaseIterable {
    case dot, mermaid, json
  }

  public let graph: FlowGraph
  /// The flows shown (indices), in file order.
  public let flows: [Int]
  /// The flows whose start screens the `start` node points at.
  public let startFlows: [Int]
  public let reachable: Set<ScreenNode>
  /// Edges leaving the shown flows, and the flows one of them completes: computed once, as a
  /// bundle may hold 100,000 flows.
  private let shownEdges: [FlowEdge]
  private let completedFlows: Set<Int>

  /// - Parameter flowID: show only this flow and the sub-flows it runs.
  public init(document: FlowDocument, flowID: String? = nil) throws(GraphError) {
    let graph = FlowGraph(document: document)
    self.graph = graph
    if let flowID {
      guard let index = document.flowIndex(flowID) else {
        throw GraphError(
          "no flow '\(flowID)' in the document (flows: \(document.flows.map(\.id).joined(separator: ", ")))")
      }
      var runs: [Int: [Int]] = [:]
      for edge in graph.edges {
        if case .subflow = edge.kind, case .screen(let target) = edge.to {
          runs[edge.from.flow, default: []].append(target.flow)
        }
      }
      var shown: Set<Int> = [index]
      var stack = [index]
      while let flow = stack.popLast() {
        for target in runs[flow] ?? [] where shown.insert(target).inserted { stack.append(target) }
      }
      flows = shown.sorted()
      startFlows = [index]
      reachable = graph.reachable(from: graph.starts[index].map { [$0] } ?? [])
    } else {
      flows = Array(document.flows.indices)
      startFlows = graph.rootFlows
      reachable = graph.reachable()
    }
    let shown = Set(flows)
    shownEdges = graph.edges.filter { shown.contains($0.from.flow) }
    completedFlows = Set(
      shownEdges.compactMap { edge in
        if case .complete(let flow) = edge.to { flow } else { nil }
      })
  }

  public func render(_ format: Format) -> String {
    switch format {
    case .dot: dot()
    case .mermaid: mermaid()
    case .json: json()
    }
  }

  private var clustered: Bool { graph.document.shape == .bundle }
  private var usesDismiss: Bool { shownEdges.contains { $0.to == .dismiss } }

  private func completes(_ flow: Int) -> Bool { completedFlows.contains(flow) }

  private func startLabel(_ flow: Int) -> String? {
    let id = graph.document.flows[flow].id
    for experiment in graph.document.experiments {
      for variant in experiment.variants where variant.flow == id {
        return "variant \(experiment.id)=\(variant.id)"
      }
    }
    return nil
  }

  private func nodeLabel(_ node: ScreenNode) -> (name: String, detail: String) {
    let screen = graph.screen(node)
    var detail = "\(screen.id) · \(screen.type)"
    if let subflow = screen.subflow { detail += " → \(subflow)" }
    return (screen.name, detail)
  }

  // MARK: DOT

  private func dotID(_ node: ScreenNode) -> String {
    quote("\(graph.flow(node).id)/\(graph.screen(node).id)")
  }

  private func dotTarget(_ target: EdgeTarget) -> String {
    switch target {
    case .screen(let node): dotID(node)
    case .complete(let flow): quote("\(graph.document.flows[flow].id)/$complete")
    case .dismiss: quote("$dismiss")
    }
  }

  private func quote(_ s: String) -> String {
    "\"" + s.replacingAll("\\", "\\\\").replacingAll("\"", "\\\"").replacingAll("\n", "\\n") + "\""
  }

  private func dot() -> String {
    let name = graph.document.entryFlow?.id ?? "flow"
    var out = "digraph \(quote(name)) {\n"
    out += "  rankdir=TB;\n"
    out += "  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n"
    out += "  edge [fontname=\"Helvetica\", fontsize=10];\n"
    out += "  \"$start\" [shape=point, width=0.2, label=\"\"];\n"
    if usesDismiss { out += "  \"$dismiss\" [shape=octagon, label=\"dismissed\", color=firebrick];\n" }
    for flow in flows {
      let indent = clustered ? "    " : "  "
      if clustered {
        let id = graph.document.flows[flow].id
        let kind = graph.subflowParents[flow] == nil ? "flow" : "sub-flow"
        out += "  subgraph \(quote("cluster_" + id)) {\n"
        out += "    label=\(quote("\(kind) \(id)"));\n    style=rounded;\n    color=gray60;\n"
      }
      for (index, _) in graph.document.flows[flow].screens.enumerated() {
        let node = ScreenNode(flow: flow, screen: index)
        let (title, detail) = nodeLabel(node)
        var attributes = "label=\(quote(title + "\n" + detail))"
        if !reachable.contains(node) { attributes += ", style=\"rounded,dashed\", color=gray, fontcolor=gray" }
        out += "\(indent)\(dotID(node)) [\(attributes)];\n"
      }
      if completes(flow) {
        let label = graph.subflowParents[flow] == nil ? "complete" : "return"
        out += "\(indent)\(dotTarget(.complete(flow: flow))) [shape=doublecircle, label=\(quote(label))];\n"
      }
      if clustered { out += "  }\n" }
    }
    for flow in startFlows {
      guard let start = graph.starts[flow] else { continue }
      let label = startLabel(flow).map { " [label=\(quote($0))]" } ?? ""
      out += "  \"$start\" -> \(dotID(start))\(label);\n"
    }
    for edge in shownEdges {
      var attributes = ["label=\(quote(edge.kind.label))"]
      switch edge.kind {
      case .outcome(_, let outcome, _) where outcome != .success: attributes.append("style=dashed")
      case .subflow: attributes.append("style=bold")
      case .order, .nextKey: attributes.append("color=gray40")
      default: break
      }
      if !reachable.contains(edge.from) {
        attributes.append("color=gray")
      }
      out += "  \(dotID(edge.from)) -> \(dotTarget(edge.to)) [\(attributes.joined(separator: ", "))];\n"
    }
    return out + "}\n"
  }

  // MARK: Mermaid

  private func mermaidID(_ node: ScreenNode) -> String { "s\(node.flow)_\(node.screen)" }

  private func mermaidTarget(_ target: EdgeTarget) -> String {
    switch target {
    case .screen(let node): mermaidID(node)
    case .complete(let flow): "done\(flow)"
    case .dismiss: "dismissed"
    }
  }

  private func mermaidText(_ s: String) -> String {
    s.replacingAll("&", "#amp;").replacingAll("\"", "#quot;").replacingAll("<", "#lt;").replacingAll(">", "#gt;")
      .replacingAll("|", "#124;").replacingAll("\n", "<br/>")
  }

  private func mermaid() -> String {
    var out = "flowchart TD\n"
    out += "  start((start))\n"
    if usesDismiss { out += "  dismissed{{dismissed}}\n" }
    var unreachable: [String] = []
    for flow in flows {
      let indent = clustered ? "    " : "  "
      if clustered {
        let id = graph.document.flows[flow].id
        let kind = graph.subflowParents[flow] == nil ? "flow" : "sub-flow"
        out += "  subgraph f\(flow)[\"\(mermaidText("\(kind) \(id)"))\"]\n"
      }
      for (index, _) in graph.document.flows[flow].screens.enumerated() {
        let node = ScreenNode(flow: flow, screen: index)
        let (title, detail) = nodeLabel(node)
        out += "\(indent)\(mermaidID(node))[\"\(mermaidText(title + "\n" + detail))\"]\n"
        if !reachable.contains(node) { unreachable.append(mermaidID(node)) }
      }
      if completes(flow) {
        let label = graph.subflowParents[flow] == nil ? "complete" : "return"
        out += "\(indent)done\(flow)(((\(label))))\n"
      }
      if clustered { out += "  end\n" }
    }
    for flow in startFlows {
      guard let start = graph.starts[flow] else { continue }
      let label = startLabel(flow).map { "|\"\(mermaidText($0))\"|" } ?? ""
      out += "  start -->\(label) \(mermaidID(start))\n"
    }
    for edge in shownEdges {
      let arrow: String =
        switch edge.kind {
        case .outcome(_, let outcome, _) where outcome != .success: "-.->"
        case .subflow: "==>"
        default: "-->"
        }
      out += "  \(mermaidID(edge.from)) \(arrow)|\"\(mermaidText(edge.kind.label))\"| \(mermaidTarget(edge.to))\n"
    }
    if !unreachable.isEmpty {
      out += "  classDef unreachable stroke-dasharray: 5 5,color:#888,stroke:#888\n"
      out += "  class \(unreachable.joined(separator: ",")) unreachable\n"
    }
    return out
  }

  // MARK: JSON

  private func jsonName(_ target: EdgeTarget) -> String {
    switch target {
    case .screen(let node): "\(graph.flow(node).id)/\(graph.screen(node).id)"
    case .complete(let flow): "\(graph.document.flows[flow].id)/$complete"
    case .dismiss: "$dismiss"
    }
  }

  private func json() -> String {
    typealias V = JSONWriter.Value
    let flowValues: [V] = flows.map { flow in
      let value = graph.document.flows[flow]
      let screens: [V] = value.screens.enumerated().map { index, screen in
        let node = ScreenNode(flow: flow, screen: index)
        var members: [(key: String, value: V)] = [
          ("id", .string(screen.id)), ("name", .string(screen.name)), ("type", .string(screen.type)),
          ("reachable", .bool(reachable.contains(node))),
          ("line", .int(screen.location.line)), ("column", .int(screen.location.column)),
        ]
        if let subflow = screen.subflow { members.append(("flow", .string(subflow))) }
        return .object(members)
      }
      return .object([
        ("id", .string(value.id)), ("name", .string(value.name)), ("start", .string(value.startScreenID)),
        ("subflow", .bool(graph.subflowParents[flow] != nil)), ("screens", .array(screens)),
      ])
    }
    var edges: [V] = startFlows.compactMap { flow in
      graph.starts[flow].map { start in
        .object([
          ("from", .string("$start")), ("to", .string(jsonName(.screen(start)))), ("kind", .string("start")),
          ("label", startLabel(flow).map(V.string) ?? .null),
        ])
      }
    }
    for edge in shownEdges {
      edges.append(
        .object([
          ("from", .string(jsonName(.screen(edge.from)))), ("to", .string(jsonName(edge.to))),
          ("kind", .string(edge.kind.family)), ("label", .string(edge.kind.label)),
        ]))
    }
    return JSONWriter(style: .pretty).string(.object([("flows", .array(flowValues)), ("edges", .array(edges))])) + "\n"
  }
}

/// Why a graph could not be drawn.
public struct GraphError: Error, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
