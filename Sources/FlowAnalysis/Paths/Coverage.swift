import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections

/// Something a run can cover: a screen shown, a transition, a rule winning, an action outcome.
public enum CoverageItem: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// A screen was current (shown, or deciding its onEnter).
  case screen(String)
  /// A transition between screens (`from`, `to`: qualified screen names, `$complete`, `$dismiss`).
  case edge(from: String, to: String)
  /// Rule `number` of a screen won when leaving it forward (0: no rule matched, the default
  /// successor was used).
  case rule(screen: String, number: Int, condition: String)
  /// An awaited action (or native screen) of a screen got this result.
  case outcome(screen: String, identifier: String, outcome: String)

  public var kindName: String {
    switch self {
    case .screen: "screen"
    case .edge: "edge"
    case .rule: "rule"
    case .outcome: "outcome"
    }
  }

  public var description: String {
    switch self {
    case .screen(let screen): "screen \(screen)"
    case .edge(let from, let to): "edge \(from) → \(to)"
    case .rule(let screen, let number, let condition):
      number == 0 ? "rule \(screen) default (no rule matched)" : "rule \(screen) #\(number) (\(condition))"
    case .outcome(let screen, let identifier, let outcome): "outcome \(screen) \(identifier) \(outcome)"
    }
  }

  var sortKey: (Int, String) {
    switch self {
    case .screen(let s): (0, s)
    case .edge(let f, let t): (1, f + "\u{1}" + t)
    case .rule(let s, let n, _): (2, s + "\u{1}" + String(n))
    case .outcome(let s, let i, let o): (3, s + "\u{1}" + i + "\u{1}" + o)
    }
  }

  public static func < (a: CoverageItem, b: CoverageItem) -> Bool { a.sortKey < b.sortKey }
}

/// Turns one session step (state before, input, outputs, state after) into coverage items.
/// Navigation is the engine's: this only reads its outputs and, to tell which rule won, the
/// rules' conditions against the data the engine decided with (checked against the engine's
/// actual destination).
public struct CoverageObserver: Sendable {
  public let document: FlowDocument
  private let qualify: Bool
  /// Every screen's name, by flow index and screen index: built once, so that a step looks
  /// its screens' names up instead of joining and allocating them for every input.
  private let names: [[String]]

  public init(document: FlowDocument) {
    self.document = document
    let qualify = document.flows.count > 1
    self.qualify = qualify
    names = document.flows.map { flow in flow.screens.map { qualify ? "\(flow.id)/\($0.id)" : $0.id } }
  }

  public func name(flow: String, screen: String) -> String { qualify ? "\(flow)/\(screen)" : screen }

  /// The name of a screen an output reports by ids: looked up when it is in the document (the
  /// flow read in place: `flows[f]` copies it).
  private func lookUpName(flow: String, screen: String) -> String {
    if let f = document.flowIndex(flow),
      let s = document.flows.withUnsafeBufferPointer({ $0[f].index(of: screen) })
    {
      return names[f][s]
    }
    return name(flow: flow, screen: screen)
  }

  /// The name of the session's screen (as `name(flow:screen:)` of its ids, looked up).
  func name(_ session: Session) -> String {
    names[session.currentFlowIndex][session.currentScreenIndex]
  }

  /// Items of a session's start.
  public func start(_ session: Session, _ outputs: [Output]) -> [CoverageItem] {
    var items = outcomes(outputs)
    var previous = "$start"
    var entered: [(flow: String, screen: String)] = []
    let reached = record(outputs, from: &previous, into: &items, entered: &entered)
    if !session.status.isEnded { items.append(.screen(name(session))) }
    var all = Reached(reached)
    items += enteredRules(entered, session: session, reached: &all)
    return items
  }

  /// The screens a session stands on (its screen and the flow screens of its sub-flow stack).
  func current(_ session: Session) -> Set<String> {
    var current = Set(session.subflowScreenIndices.map { names[$0.flow][$0.screen] })
    if !session.status.isEnded { current.insert(name(session)) }
    return current
  }

  /// The screens reached by one input: those it entered, the session's screen, and the flow
  /// screens of its sub-flow stack (built only when a rule asks: the stack can be deep). The
  /// session after the input is passed in, not kept: a copy retained its every field per input.
  struct Reached {
    /// In the order reached: an input reaches a few screens, and a set of them (hashing every
    /// name) cost more than the rules that read it, which most screens do not have. A long
    /// list (a chain of screens entered at once) is made a set when a rule first asks.
    let destinations: [String]
    private var destinationSet: Set<String>?
    private var stack: Set<String>?

    init(_ destinations: [String]) { self.destinations = destinations }

    mutating func contains(_ name: String, after session: Session, _ observer: CoverageObserver) -> Bool {
      if destinations.count <= 16 {
        if destinations.contains(name) { return true }
      } else {
        if destinationSet == nil { destinationSet = Set(destinations) }
        if destinationSet!.contains(name) { return true }
      }
      if stack == nil { stack = observer.current(session) }
      return stack!.contains(name)
    }
  }

  /// Action results, as outcome items.
  private func outcomes(_ outputs: [Output]) -> [CoverageItem] {
    outputs.compactMap { output in
      guard case .event(let event) = output, event.type == .actionResult,
        case .string(let identifier)? = event.properties["identifier"],
        case .string(let status)? = event.properties["status"]
      else { return nil }
      return .outcome(
        screen: name(flow: event.flowID, screen: event.screenID ?? "?"), identifier: identifier, outcome: status)
    }
  }

  /// Rules of screens entered and left within one input without being shown (an `onEnter`
  /// answered by a mock).
  private func enteredRules(
    _ entered: [(flow: String, screen: String)], session: Session, reached: inout Reached
  )
    -> [CoverageItem]
  {
    var items: [CoverageItem] = []
    for (flowID, screenID) in entered {
      guard let flow = document.flow(flowID), let screen = flow.screen(screenID) else { continue }
      var context = session.templateEnvironment.context
      context["$screen"] = .string(screen.id)
      context["$flow"] = .string(flow.id)
      if let rule = winningRule(screen: screen, flow: flow, context: context, after: session, reached: &reached) {
        items.append(rule)
      }
    }
    return items
  }

  /// What ``step(from:input:outputs:after:)`` needs of the session before an input. Taken
  /// before `send`, so the caller need not keep the earlier session: a second reference to
  /// the session's collected data would make every `send` that sets a field copy all of it.
  public struct Origin: Sendable {
    /// The screen's position: indices into `document.flows` and that flow's `screens` (read
    /// in place; copying the flow and screen models for every input was a fifteenth of
    /// `paths --emit`).
    let flow: Int
    let screen: Int
    let subflowDepth: Int
    /// The flow screen the current sub-flow returns to, as indices.
    let parent: (flow: Int, screen: Int)?
    /// The template context (`$screen`, `$previous`, ...), only when a rule may be decided
    /// with it (the screen or the calling flow screen has rules): building it before every
    /// input inside a sub-flow was a twentieth of `paths --emit` on a bundle.
    let context: [String: Value]

    /// What `session`, about to receive an input, shows now; `document` is the session's
    /// (passed in: `session.document` copies it, retaining and releasing its every field).
    init(_ session: Session, document: FlowDocument) {
      flow = session.currentFlowIndex
      screen = session.currentScreenIndex
      subflowDepth = session.subflowDepth
      parent = session.innermostSubflowIndices
      let parentHasRules = parent.map { document.hasRules(flow: $0.flow, screen: $0.screen) } ?? false
      context =
        document.hasRules(flow: flow, screen: screen) || parentHasRules ? session.templateEnvironment.context : [:]
    }
  }

  /// What `session`, started on this observer's document, shows before an input.
  public func origin(_ session: Session) -> Origin { Origin(session, document: document) }

  /// Items of one step.
  public func step(before: Session, input: Input, outputs: [Output], after: Session) -> [CoverageItem] {
    step(from: origin(before), input: input, outputs: outputs, after: after)
  }

  /// Items of one step from a session that was at `before`.
  public func step(from before: Origin, input: Input, outputs: [Output], after: Session) -> [CoverageItem] {
    var items = outcomes(outputs)
    // Room for an edge and a screen per output and the screen after: grown item by item, the
    // list was reallocated two or three times per input.
    items.reserveCapacity(items.count + 2 * outputs.count + 1)
    let beforeName = names[before.flow][before.screen]
    var previous = beforeName
    var entered: [(flow: String, screen: String)] = []
    let destinations = record(outputs, from: &previous, into: &items, entered: &entered)
    entered.removeAll { lookUpName(flow: $0.flow, screen: $0.screen) == beforeName }
    if !after.status.isEnded { items.append(.screen(name(after))) }
    // `back` and the host's dismiss are available everywhere: not edges of the flow.
    if input == .back || input == .dismiss {
      return items.filter { if case .edge = $0 { return false } else { return true } }
    }
    var reached = Reached(destinations)
    items += enteredRules(entered, session: after, reached: &reached)
    let changed =
      !destinations.isEmpty || before.screen != after.currentScreenIndex || before.flow != after.currentFlowIndex
    guard changed else { return items }
    if document.hasRules(flow: before.flow, screen: before.screen) {
      let flow = document.flows[before.flow]
      if let rule = winningRule(
        screen: flow.screens[before.screen], flow: flow, context: before.context, after: after, reached: &reached)
      {
        items.append(rule)
      }
    }
    // Returning from a sub-flow leaves the parent's flow screen forward too.
    if after.subflowDepth < before.subflowDepth, let parent = before.parent,
      document.hasRules(flow: parent.flow, screen: parent.screen)
    {
      let flow = document.flows[parent.flow]
      let screen = flow.screens[parent.screen]
      var context = before.context
      context["$screen"] = .string(screen.id)
      context["$flow"] = .string(flow.id)
      if let rule = winningRule(screen: screen, flow: flow, context: context, after: after, reached: &reached) {
        items.append(rule)
      }
    }
    return items
  }

  /// Records shown screens, screens entered by an action result without being shown, and
  /// endings; returns the qualified names reached.
  private func record(
    _ outputs: [Output], from previous: inout String, into items: inout [CoverageItem],
    entered: inout [(flow: String, screen: String)]
  ) -> [String] {
    var reached: [String] = []
    func enter(_ target: String) {
      if target != previous { items.append(.edge(from: previous, to: target)) }
      items.append(.screen(target))
      reached.append(target)
      previous = target
    }
    for output in outputs {
      switch output {
      case .screenShown(let flowID, let screenID):
        enter(lookUpName(flow: flowID, screen: screenID))
      case .event(let event) where event.type == .actionResult:
        // An onEnter answered at once (a mock): the screen was entered, never shown.
        if let screenID = event.screenID, case let target = lookUpName(flow: event.flowID, screen: screenID),
          target != previous
        {
          entered.append((event.flowID, screenID))
          enter(target)
        }
      case .ended(.completed):
        items.append(.edge(from: previous, to: "$complete"))
        reached.append("$complete")
      case .ended(.dismissed):
        items.append(.edge(from: previous, to: "$dismiss"))
        reached.append("$dismiss")
      default: break
      }
    }
    return reached
  }

  /// The rule of `screen` that wins with `data`, when its target is among `reached`.
  private func winningRule(
    screen: Screen, flow: Flow, context: [String: Value], after: Session, reached: inout Reached
  ) -> CoverageItem? {
    guard !screen.rules.isEmpty else { return nil }
    let environment = after.dataEnvironment(context: context)
    let leftFlow = after.status.isEnded || after.currentFlowID != flow.id
    let screenName = lookUpName(flow: flow.id, screen: screen.id)
    func hit(_ target: Target, _ reached: inout Reached) -> Bool {
      switch target {
      case .complete: reached.contains("$complete", after: after, self) || leftFlow
      case .screen(let id): reached.contains(lookUpName(flow: flow.id, screen: id), after: after, self)
      }
    }
    for (index, rule) in screen.rules.enumerated() where !rule.passesOn {
      let holds = rule.when.map { $0.holds(in: environment) } ?? true
      guard holds else { continue }
      let leads = rule.then.map(FlowGraph.targets) ?? [rule.goto]
      return leads.contains(where: { hit($0, &reached) })
        ? .rule(screen: screenName, number: index + 1, condition: rule.when?.source ?? "(always)") : nil
    }
    let fallback: Target
    if let next = screen.next {
      fallback = next
    } else if let index = flow.index(of: screen.id), index + 1 < flow.screens.count {
      fallback = .screen(flow.screens[index + 1].id)
    } else {
      fallback = .complete
    }
    return hit(fallback, &reached) ? .rule(screen: screenName, number: 0, condition: "") : nil
  }
}

extension FlowDocument {
  /// Whether a screen has rules, read in place: `flows[flow]` copies the whole flow.
  fileprivate func hasRules(flow: Int, screen: Int) -> Bool {
    flows.withUnsafeBufferPointer { flows in
      flows[flow].screens.withUnsafeBufferPointer { !$0[screen].rules.isEmpty }
    }
  }
}
