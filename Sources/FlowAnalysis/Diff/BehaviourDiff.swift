import FlowEngine
import FlowExpression
import FlowFormat
import FlowReplay
import OrderedCollections

/// Where two versions of a flow part: the shortest input sequence after which a session of the
/// old version and one of the new stand on different screens, end differently, reject an input
/// one accepts, or hold different data.
public struct PathChange: Hashable, Sendable {
  /// Experiment variants the sessions ran with (empty: the default assignment).
  public var variants: [String: String]
  /// The inputs, as replay-script steps (`{tap: Continue}`), up to the one that shows the change.
  public var steps: [String]
  /// What the old version did after the last step, and what the new one does.
  public var old: String
  public var new: String
  /// Collected values that differ then: `field: old → new` (`—` for none).
  public var data: [String]
}

/// The behavioural side of `flowrun diff`: paths and events, on the engine.
public struct BehaviourDiff: Sendable {
  public var paths: [PathChange] = []
  /// Event signatures (`name(property, …)`) only the old or only the new version sends on the
  /// same inputs.
  public var eventsOnlyOld: [String] = []
  public var eventsOnlyNew: [String] = []
  /// Input sequences tried (the covering paths of both versions' explorations).
  public var tried = 0
  /// True when an exploration stopped at a bound (paths beyond it are not compared).
  public var incomplete = false

  /// Explores both versions as `flowrun paths` does, replays the input sequences of each on
  /// both (`Exploration.inputSequences`), and keeps each divergence's shortest prefix
  /// (shortest first; one per distinct divergence).
  public static func compare(
    _ old: FlowDocument, _ new: FlowDocument, options: PathExplorer.Options = .init()
  ) -> BehaviourDiff {
    var diff = BehaviourDiff()
    var candidates: [(config: SessionConfig, inputs: [Input])] = []
    for document in [old, new] {
      let exploration = PathExplorer(document: document, options: options).explore()
      diff.incomplete = diff.incomplete || !exploration.isComplete
      candidates += exploration.inputSequences()
    }
    diff.tried = candidates.count
    var seen: Set<PathChange> = []
    var eventsOld: Set<String> = []
    var eventsNew: Set<String> = []
    for path in candidates {
      var a = Replay(document: old, config: path.config)
      var b = Replay(document: new, config: path.config)
      var divergence: Int? = a.state != b.state ? 0 : nil
      for (index, input) in path.inputs.enumerated() {
        a.send(input)
        b.send(input)
        if divergence == nil, a.state != b.state { divergence = index + 1 }
      }
      eventsOld.formUnion(a.events)
      eventsNew.formUnion(b.events)
      guard let divergence else { continue }
      let inputs = Array(path.inputs.prefix(divergence))
      var (x, y) = (Replay(document: old, config: path.config), Replay(document: new, config: path.config))
      for input in inputs {
        x.send(input)
        y.send(input)
      }
      let recording = Recording(flowPath: "", config: path.config, inputs: inputs)
      let change = PathChange(
        variants: path.config.variantOverrides, steps: ScriptWriter.stepTexts(for: recording, document: old),
        old: x.state.where, new: y.state.where, data: dataChanges(x.state.data, y.state.data))
      seen.insert(change)
    }
    // The shortest inputs of each distinct divergence (where each version stands, the data).
    var shown: Set<[String]> = []
    diff.paths = seen.sorted { a, b in
      if a.steps.count != b.steps.count { return a.steps.count < b.steps.count }
      let (va, vb) = (variantText(a.variants), variantText(b.variants))
      if va != vb { return va < vb }
      return a.steps.lexicographicallyPrecedes(b.steps)
    }.filter { shown.insert([variantText($0.variants), $0.old, $0.new] + $0.data).inserted }
    diff.eventsOnlyOld = eventsOld.subtracting(eventsNew).sorted()
    diff.eventsOnlyNew = eventsNew.subtracting(eventsOld).sorted()
    return diff
  }

  /// `experiment=variant, …`, sorted: how a path's variant overrides are shown.
  public static func variantText(_ variants: [String: String]) -> String {
    variants.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
  }

  static func dataChanges(_ old: [String: Value], _ new: [String: Value]) -> [String] {
    Set(old.keys).union(new.keys).sorted().compactMap { key in
      let (a, b) = (old[key], new[key])
      guard a != b else { return nil }
      return "\(key): \(a?.displayString ?? "—") → \(b?.displayString ?? "—")"
    }
  }
}

extension Exploration {
  /// Most transitions whose every input sequence is replayed; past it, the covering paths.
  static let replayedTransitions = 5_000

  /// Input sequences that together take every transition of the state graph: for each, the
  /// inputs that first reached its state, then its own. A large graph gives its covering paths
  /// instead (every item, not every transition).
  func inputSequences() -> [(config: SessionConfig, inputs: [Input])] {
    guard transitions.count <= Self.replayedTransitions else {
      return coveringSet().paths.map { ($0.config, $0.inputs) }
    }
    return transitions.compactMap { transition in
      let (root, path) = prefix(to: transition.from)
      guard let config = rootConfigs[root] else { return nil }
      return (config, path.flatMap { transitions[$0].inputs } + transition.inputs)
    }
  }
}

/// One session driven input by input, reduced to what a user sees of it.
private struct Replay {
  struct State: Equatable {
    /// "on `goal`", "completed", "rejected the input: …".
    var `where`: String
    var data: [String: Value]
  }

  var session: Session?
  var state: State
  var events: Set<String> = []

  init(document: FlowDocument, config: SessionConfig) {
    do {
      let (session, outputs) = try Session.start(document: document, config: config)
      self.session = session
      state = State(where: "", data: [:])
      observe(outputs)
    } catch {
      session = nil
      state = State(where: "cannot start: \(error)", data: [:])
    }
  }

  mutating func send(_ input: Input) {
    guard var session else { return }
    let outputs = session.send(input)
    self.session = session
    observe(outputs)
  }

  private mutating func observe(_ outputs: [Output]) {
    guard let session else { return }
    var rejection: String?
    for output in outputs {
      switch output {
      case .event(let event):
        let properties = event.properties.map(\.key).joined(separator: ", ")
        events.insert("\(event.eventType)(\(properties))")
      case .rejected(let message): rejection = message
      default: break
      }
    }
    let place: String
    switch session.status {
    case .running, .awaiting: place = "on `\(session.currentScreen.id)`"
    default: place = session.status.name
    }
    var data: [String: Value] = [:]
    if case .object(let fields) = session.dataValue {
      for (key, value) in fields { data[key] = value }
    }
    state = State(where: rejection.map { "\(place), rejecting the input: \($0)" } ?? place, data: data)
  }
}
