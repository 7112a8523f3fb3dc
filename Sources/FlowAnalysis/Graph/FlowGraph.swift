import FlowExpression
import FlowFormat

/// A screen of a document: indices into `FlowDocument.flows` and that flow's `screens`.
public struct ScreenNode: Hashable, Sendable, Comparable {
  // Stored as 32 bits: 8 bytes a node, not 16, in every edge (`FlowEdge` 104 → 88 bytes, 2.3
  // MB of `check`'s peak on `lint-chain`), node list and set.
  private var storedFlow: Int32
  private var storedScreen: Int32

  public var flow: Int {
    get { Int(storedFlow) }
    set { storedFlow = Int32(truncatingIfNeeded: newValue) }
  }

  public var screen: Int {
    get { Int(storedScreen) }
    set { storedScreen = Int32(truncatingIfNeeded: newValue) }
  }

  public init(flow: Int, screen: Int) {
    storedFlow = Int32(truncatingIfNeeded: flow)
    storedScreen = Int32(truncatingIfNeeded: screen)
  }

  public static func < (a: ScreenNode, b: ScreenNode) -> Bool {
    (a.flow, a.screen) < (b.flow, b.screen)
  }
}

/// Where an edge goes.
public enum EdgeTarget: Hashable, Sendable {
  case screen(ScreenNode)
  /// The end of a flow (for a sub-flow: the return to its parent).
  case complete(flow: Int)
  /// The run ends dismissed.
  case dismiss
}

/// An outcome of an awaited custom action or a native screen.
public enum ActionOutcome: String, Hashable, Sendable, CaseIterable {
  case success, failure, cancelled
}

/// Why an edge exists.
///
/// Indirect: a case's strings sit in a box of their own, so the kind is 8 bytes in every edge,
/// not 41, and an edge 48, not 88 (an `.outcome`'s identifier and `via` set the inline size;
/// the cases without strings, most of a big flow's edges, need no box).
public indirect enum EdgeKind: Hashable, Sendable {
  /// A rule of the screen (1-based number, condition source or `(always)`).
  case rule(number: Int, condition: String)
  /// The screen's `next` key (when no rule matched).
  case nextKey
  /// The following screen by order, or completion after the last screen.
  case order
  /// A button (block id or `primary`, label) with an explicit target.
  case button(id: String, label: String)
  /// A single-select checklist's auto-advance action with an explicit target.
  case checklist(field: String)
  /// The skip control's `skipAction`.
  case skip
  /// The screen's `onEnter` action.
  case onEnter
  /// An awaited custom action's routed outcome: an explicit target, or (`via`) the screen's
  /// forward leave through that rule / `next` / order edge.
  case outcome(identifier: String, outcome: ActionOutcome, via: String? = nil)
  /// A `native` screen answered by the host with `complete`.
  case native
  /// A `flow` screen runs a sub-flow.
  case subflow(flowID: String)

  /// The label shown in graphs.
  public var label: String {
    switch self {
    case .rule(let number, let condition): "rule \(number): \(condition)"
    case .nextKey: "next"
    case .order: "order"
    case .button(_, let label): label
    case .checklist(let field): "pick \(field)"
    case .skip: "skip"
    case .onEnter: "onEnter"
    case .outcome(let identifier, let outcome, let via):
      "\(identifier): \(outcome.rawValue)" + (via.map { " · \($0)" } ?? "")
    case .native: "host: complete"
    case .subflow(let flowID): "runs \(flowID)"
    }
  }

  /// A short word for the edge's family (JSON output and styling).
  public var family: String {
    switch self {
    case .rule: "rule"
    case .nextKey: "next"
    case .order: "order"
    case .button: "button"
    case .checklist: "checklist"
    case .skip: "skip"
    case .onEnter: "onEnter"
    case .outcome: "outcome"
    case .native: "native"
    case .subflow: "subflow"
    }
  }
}

/// One edge of the screen graph.
public struct FlowEdge: Hashable, Sendable {
  public var from: ScreenNode
  public var to: EdgeTarget
  public var kind: EdgeKind
  /// Where the edge is written (rule, block, screen).
  public var location: SourceLocation?

  public init(from: ScreenNode, to: EdgeTarget, kind: EdgeKind, location: SourceLocation?) {
    self.from = from
    self.to = to
    self.kind = kind
    self.location = location
  }
}

/// A control of a screen that does something when used: what analysis needs to know about it.
public struct ScreenControl: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    case button(id: String, label: String)
    case checklist(field: String)
    case skip
    case onEnter
    case native
    case autoAdvance
    case subflowReturn
  }

  public var kind: Kind
  public var action: Action
  public var location: SourceLocation
}

/// The controls of a document's screens, by node (`FlowGraph.controls`).
public struct ScreenControls: Sendable {
  let document: FlowDocument

  /// The controls of `node`, nil when there is no such screen.
  public subscript(node: ScreenNode) -> [ScreenControl]? {
    guard document.flows.indices.contains(node.flow),
      document.flows[node.flow].screens.indices.contains(node.screen)
    else { return nil }
    return FlowGraph.controls(of: document.flows[node.flow].screens[node.screen])
  }
}

/// The static screen graph of a document: every way each screen can be left.
///
/// Leaving a screen "forward" (the `next` action and everything that defaults to it) is drawn
/// once per screen as its rule / `next` / order edges; controls with explicit destinations
/// (`screen`, `complete`, `dismiss`, routed action outcomes) get their own edges.
public struct FlowGraph: Sendable {
  public let document: FlowDocument
  /// Edges by source screen (none for a screen without edges).
  public private(set) var outgoing: ScreenLists<FlowEdge>
  /// How many edges `outgoing` holds in all.
  public var edgeCount: Int { outgoing.values.count }
  /// Controls by screen (buttons, checklists, skip, onEnter, ...), worked out when asked for:
  /// the few rules that read them read few screens', and kept for every screen they were
  /// 2.9 MB of `check`'s peak on `lint-chain` (21,714 screens).
  public var controls: ScreenControls { ScreenControls(document: document) }
  /// The screens with a control whose action is an awaited custom action (`controls` are not
  /// kept: a rule looks for these without making every screen's).
  private(set) var awaitingScreens: Set<ScreenNode> = []
  /// Flows that are run as a sub-flow of some screen.
  public private(set) var subflowParents: [Int: [ScreenNode]] = [:]
  /// Start screen of each flow (nil when the flow has no screens).
  public let starts: [ScreenNode?]
  /// Outcomes of the screen being built that route to `next`.
  private var outcomeLeaves: [(String, ActionOutcome, SourceLocation)] = []
  /// The steps of a step graph already followed from the current control.
  private var visitedSteps: Set<String> = []

  public init(document: FlowDocument) {
    self.document = document
    var flowStart = [0]
    for flow in document.flows { flowStart.append(flowStart[flowStart.count - 1] + flow.screens.count) }
    outgoing = ScreenLists(flowStart: flowStart)
    starts = document.flows.enumerated().map { index, flow in
      flow.index(of: flow.startScreenID).map { ScreenNode(flow: index, screen: $0) }
    }
    for (f, flow) in document.flows.enumerated() {
      for (s, screen) in flow.screens.enumerated() {
        build(ScreenNode(flow: f, screen: s), screen, flow)
      }
    }
    outgoing.trim()
  }

  /// Edges in a deterministic order: by screen, then as the screen declares them (`outgoing`
  /// holds them so).
  public var edges: [FlowEdge] { outgoing.values }

  public func flow(_ node: ScreenNode) -> Flow { document.flows[node.flow] }
  public func screen(_ node: ScreenNode) -> Screen { document.flows[node.flow].screens[node.screen] }

  /// Every screen node, flows in file order, screens in order.
  public var nodes: [ScreenNode] {
    // Reserved once: grown by doubling, the 21,714 of `lint-chain` took 0.5 MB a copy.
    var nodes: [ScreenNode] = []
    nodes.reserveCapacity(document.flows.reduce(0) { $0 + $1.screens.count })
    for (f, flow) in document.flows.enumerated() {
      for s in flow.screens.indices { nodes.append(ScreenNode(flow: f, screen: s)) }
    }
    return nodes
  }

  /// The flows a run can start in: the entry flow, experiment variant flows, and flows nobody
  /// runs as a sub-flow (they can be run with `--flow`).
  public var rootFlows: [Int] {
    var roots: [Int] = []
    for (index, flow) in document.flows.enumerated() {
      let isVariant = document.experiments.contains { $0.variants.contains { $0.flow == flow.id } }
      if flow.id == document.entryFlowID || isVariant || subflowParents[index] == nil { roots.append(index) }
    }
    return roots
  }

  /// Screens reachable from the start screen of every flow (each flow can be run on its own).
  public func reachable() -> Set<ScreenNode> {
    reachable(from: starts.compactMap { $0 })
  }

  /// Screens reachable from `roots` through every edge (sub-flow entries included).
  public func reachable(
    from roots: [ScreenNode], avoiding avoid: (ScreenNode) -> Bool = { _ in false }
  )
    -> Set<ScreenNode>
  {
    var seen = Set<ScreenNode>()
    var stack = roots.filter { !avoid($0) }
    while let node = stack.popLast() {
      guard seen.insert(node).inserted else { continue }
      for edge in outgoing[node] ?? [] {
        if case .screen(let next) = edge.to, !seen.contains(next), !avoid(next) { stack.append(next) }
      }
    }
    return seen
  }

  /// A shortest screen path from one of `roots` to `goal`, avoiding screens `avoid` rejects
  /// (except `goal` itself), or nil.
  public func shortestPath(
    from roots: [ScreenNode], to goal: ScreenNode, avoiding avoid: (ScreenNode) -> Bool
  )
    -> [ScreenNode]?
  {
    var parent: [ScreenNode: ScreenNode?] = [:]
    var queue: [ScreenNode] = []
    for root in roots where parent[root] == nil && (root == goal || !avoid(root)) {
      parent[root] = .some(nil)
      queue.append(root)
    }
    var head = 0
    while head < queue.count {
      let node = queue[head]
      head += 1
      if node == goal {
        var path = [node]
        var cursor = node
        while let up = parent[cursor], let previous = up {
          path.append(previous)
          cursor = previous
        }
        return path.reversed()
      }
      for edge in outgoing[node] ?? [] {
        guard case .screen(let next) = edge.to, parent[next] == nil else { continue }
        guard next == goal || !avoid(next) else { continue }
        parent[next] = .some(node)
        queue.append(next)
      }
    }
    return nil
  }

  // MARK: Building

  /// Adds an edge of the screen being built (every edge leaves it), once.
  private mutating func add(_ edge: FlowEdge) {
    guard !outgoing.openList.contains(edge) else { return }
    outgoing.appendToOpenList(edge)
  }

  private mutating func build(_ node: ScreenNode, _ screen: Screen, _ flow: Flow) {
    defer { outgoing.closeList() }
    let controls = Self.controls(of: screen)
    if controls.contains(where: { if case .custom(let custom) = $0.action { custom.awaitResult } else { false } }) {
      awaitingScreens.insert(node)
    }

    if screen.kind == .flow, let child = screen.subflow,
      let childIndex = document.flowIndex(child),
      let start = document.flows[childIndex].index(of: document.flows[childIndex].startScreenID)
    {
      subflowParents[childIndex, default: []].append(node)
      add(
        FlowEdge(
          from: node, to: .screen(ScreenNode(flow: childIndex, screen: start)), kind: .subflow(flowID: child),
          location: screen.location))
    }

    var forward = false
    outcomeLeaves = []
    for control in controls {
      let kind: EdgeKind =
        switch control.kind {
        case .button(let id, let label): .button(id: id, label: label)
        case .checklist(let field): .checklist(field: field)
        case .skip: .skip
        case .onEnter: .onEnter
        case .native: .native
        case .autoAdvance, .subflowReturn: .order
        }
      if control.kind == .native {
        add(FlowEdge(from: node, to: .complete(flow: node.flow), kind: .native, location: control.location))
      }
      visitedSteps = []
      forward = explicitEdges(node, flow, control.action, kind, control.location) || forward
    }
    guard forward || !outcomeLeaves.isEmpty else { return }
    for leave in leaveEdges(node, screen, flow) {
      if forward { add(leave) }
      for (identifier, outcome, location) in outcomeLeaves {
        var edge = leave
        edge.kind = .outcome(identifier: identifier, outcome: outcome, via: leave.kind.label)
        edge.location = location
        add(edge)
      }
    }
  }

  /// The controls of `screen`, in the order edges are drawn for them.
  static func controls(of screen: Screen) -> [ScreenControl] {
    var controls: [ScreenControl] = []
    let content = screen.content
    if let onEnter = screen.onEnter {
      controls.append(ScreenControl(kind: .onEnter, action: onEnter, location: screen.location))
    }
    switch screen.kind {
    case .native:
      controls.append(ScreenControl(kind: .native, action: .next, location: screen.location))
    case .flow:
      controls.append(ScreenControl(kind: .subflowReturn, action: .next, location: screen.location))
    default:
      if content.usesBlocks {
        for block in content.flatBlocks {
          if let control = block.content.control {
            controls.append(
              ScreenControl(
                kind: .button(id: block.id, label: control.label.raw), action: control.action, location: block.location)
            )
          } else if let action = block.content.field?.answerAction {
            controls.append(
              ScreenControl(
                kind: .checklist(field: block.fieldName ?? block.id), action: action, location: block.location))
          }
        }
      } else {
        controls.append(
          ScreenControl(
            kind: .button(id: "primary", label: content.buttonText.raw), action: content.buttonAction,
            location: screen.location))
      }
    }
    if content.skipText != nil {
      controls.append(ScreenControl(kind: .skip, action: content.skipAction ?? .next, location: screen.location))
    }
    if screen.kind == .filler, screen.autoAdvanceMs != nil {
      controls.append(ScreenControl(kind: .autoAdvance, action: .next, location: screen.location))
    }
    return controls
  }

  /// The edges of leaving a screen forward: rules in order (up to an unconditional one), then
  /// the `next` key, the following screen or completion.
  public func leaveEdges(_ node: ScreenNode, _ screen: Screen, _ flow: Flow) -> [FlowEdge] {
    var edges: [FlowEdge] = []
    edges.reserveCapacity(screen.rules.count + 1)  // a target per rule, usually, and the way on
    for (index, rule) in screen.rules.enumerated() where !rule.passesOn {
      let kind = EdgeKind.rule(number: index + 1, condition: rule.when?.source ?? "(always)")
      for route in rule.then.map(Self.routes) ?? [(rule.goto, nil)] {
        guard let target = resolve(route.target, node, flow) else { continue }
        let routeKind =
          if let outcome = route.outcome {
            EdgeKind.outcome(identifier: outcome.identifier, outcome: outcome.outcome, via: kind.label)
          } else {
            kind
          }
        edges.append(FlowEdge(from: node, to: target, kind: routeKind, location: rule.location))
      }
      if rule.when == nil || rule.when?.isConstantTrue == true { return edges }
    }
    if let next = screen.next {
      if let target = resolve(next, node, flow) {
        edges.append(FlowEdge(from: node, to: target, kind: .nextKey, location: screen.location))
      }
    } else if node.screen + 1 < flow.screens.count {
      edges.append(
        FlowEdge(
          from: node, to: .screen(ScreenNode(flow: node.flow, screen: node.screen + 1)), kind: .order,
          location: screen.location))
    } else {
      edges.append(FlowEdge(from: node, to: .complete(flow: node.flow), kind: .order, location: screen.location))
    }
    return edges
  }

  private func resolve(_ target: Target, _ node: ScreenNode, _ flow: Flow) -> EdgeTarget? {
    switch target {
    case .complete: .complete(flow: node.flow)
    case .screen(let id): flow.index(of: id).map { .screen(ScreenNode(flow: node.flow, screen: $0)) }
    }
  }

  /// Adds the edges an action takes to explicit destinations; true when it (also) leaves forward.
  private mutating func explicitEdges(
    _ node: ScreenNode, _ flow: Flow, _ action: Action, _ kind: EdgeKind, _ location: SourceLocation
  ) -> Bool {
    switch action {
    case .next, .unknown: return true
    case .previous, .openURL: return false
    case .skip:
      if let skipAction = screen(node).content.skipAction, skipAction != .skip {
        return explicitEdges(node, flow, skipAction, kind, location)
      }
      return true
    case .screen(let id):
      if let target = resolve(.screen(id), node, flow) {
        add(FlowEdge(from: node, to: target, kind: kind, location: location))
      }
      return false
    case .complete:
      add(FlowEdge(from: node, to: .complete(flow: node.flow), kind: kind, location: location))
      return false
    case .dismiss:
      add(FlowEdge(from: node, to: .dismiss, kind: kind, location: location))
      return false
    case .custom(let custom):
      guard custom.awaitResult else { return false }
      let routes: [(ActionOutcome, Action?)] = [
        (.success, custom.onSuccess ?? .next), (.failure, custom.onFailure), (.cancelled, custom.onCancel),
      ]
      for (outcome, route) in routes {
        guard let route else { continue }
        if explicitEdges(node, flow, route, .outcome(identifier: custom.identifier, outcome: outcome), location) {
          outcomeLeaves.append((custom.identifier, outcome, location))
        }
      }
      return false
    case .back, .set, .emit:
      return false
    case .sequence(let actions):
      // Each action until the first that always leaves (the rest never run).
      var forward = false
      for action in actions {
        forward = explicitEdges(node, flow, action, kind, location) || forward
        if Self.alwaysLeaves(action) { break }
      }
      return forward
    case .branch(let branches, let otherwise):
      var forward = false
      for branch in branches { forward = explicitEdges(node, flow, branch.action, kind, location) || forward }
      if let otherwise { forward = explicitEdges(node, flow, otherwise, kind, location) || forward }
      return forward
    case .experiment(_, let arms):
      var forward = false
      for arm in arms { forward = explicitEdges(node, flow, arm.action, kind, location) || forward }
      return forward
    case .wait(let wait):
      let then = explicitEdges(node, flow, wait.then, kind, location)
      return explicitEdges(node, flow, wait.otherwise, kind, location) || then
    case .step(let id):
      // Each step once per control: a step graph may loop.
      guard let step = flow.steps[id], visitedSteps.insert(id).inserted else { return false }
      return explicitEdges(node, flow, step, kind, location)
    }
  }

  /// Where a rule's own action (`Rule.then`: a paywall's outcomes, a marker) may lead, each
  /// once, in the order its routes name them.
  static func targets(_ action: Action) -> [Target] {
    var found: [Target] = []
    for route in routes(action) where !found.contains(route.target) { found.append(route.target) }
    return found
  }

  /// The routes of a rule's own action: each target it may lead to, with the awaited action's
  /// outcome that leads there (nil: not an outcome's), each pair once, in the order they are
  /// named. A paywall's outcomes are edges of their own (`EdgeKind.outcome`), as a permission
  /// prompt's are.
  static func routes(_ action: Action) -> [(target: Target, outcome: (identifier: String, outcome: ActionOutcome)?)] {
    var found: [(target: Target, outcome: (identifier: String, outcome: ActionOutcome)?)] = []
    func walk(_ action: Action, _ outcome: (identifier: String, outcome: ActionOutcome)?) {
      func add(_ target: Target) {
        let known = found.contains {
          $0.target == target && $0.outcome?.identifier == outcome?.identifier
            && $0.outcome?.outcome == outcome?.outcome
        }
        if !known { found.append((target, outcome)) }
      }
      switch action {
      case .screen(let id): add(.screen(id))
      case .complete: add(.complete)
      case .custom(let custom):
        let routes: [(ActionOutcome, Action?)] = [
          (.success, custom.onSuccess), (.failure, custom.onFailure), (.cancelled, custom.onCancel),
        ]
        for case (let outcome, let route?) in routes { walk(route, (custom.identifier, outcome)) }
      case .sequence(let actions): actions.forEach { walk($0, outcome) }
      case .branch(let branches, let otherwise):
        branches.forEach { walk($0.action, outcome) }
        otherwise.map { walk($0, outcome) }
      default: break
      }
    }
    walk(action, nil)
    return found
  }

  /// Whether an action leaves the screen (or waits) whatever the state: the rest of a sequence
  /// after it never runs.
  static func alwaysLeaves(_ action: Action) -> Bool {
    switch action {
    case .next, .previous, .screen, .complete, .skip, .dismiss, .unknown, .back: true
    case .custom(let custom): custom.awaitResult
    case .openURL, .set, .emit, .branch, .experiment: false
    case .sequence(let actions): actions.contains(where: alwaysLeaves)
    case .wait: true
    case .step: false
    }
  }
}

extension Condition {
  /// True for a condition that is the literal `true`.
  var isConstantTrue: Bool {
    if case .literal(let value) = expression.kind { return value.isTruthy }
    return false
  }
}

extension FlowGraph {
  /// Whether any edge leaves `node` for another screen, a completion or a dismissal.
  public func hasExit(_ node: ScreenNode) -> Bool {
    (outgoing[node] ?? []).contains { $0.to != .screen(node) }
  }

  /// Strongly connected components (iterative Tarjan), each in ascending node order.
  public func stronglyConnectedComponents() -> [[ScreenNode]] {
    let dense = DenseScreenGraph(self)
    let components = dense.stronglyConnectedComponents()
    return (0..<components.count).map { components[$0].map { dense.nodes[Int($0)] } }
  }
}
