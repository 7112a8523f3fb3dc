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
  /// Transitions of both versions' state graphs replayed on both.
  public var tried = 0
  /// True when an exploration stopped at a bound (paths beyond it are not compared).
  public var incomplete = false

  /// Explores both versions as `flowrun paths` does and walks each state graph on both
  /// versions at once: every transition is replayed from the sessions that reached its state
  /// along first-discovery transitions (so each input is sent once per transition, not once
  /// per path); the first input after which the two differ ends a divergence. Kept: each
  /// divergence's shortest inputs (shortest first; one per distinct divergence).
  public static func compare(
    _ old: FlowDocument, _ new: FlowDocument, options: PathExplorer.Options = .init()
  ) -> BehaviourDiff {
    var diff = BehaviourDiff()
    var walk = Walk(old: old, new: new)
    for document in [old, new] {
      let exploration = PathExplorer(document: document, options: options).explore()
      diff.incomplete = diff.incomplete || !exploration.isComplete
      walk.walk(exploration)
    }
    diff.tried = walk.tried
    let seen = walk.changes
    // The shortest inputs of each distinct divergence (where each version stands, the data).
    var shown: Set<[String]> = []
    diff.paths = seen.sorted { a, b in
      if a.steps.count != b.steps.count { return a.steps.count < b.steps.count }
      let (va, vb) = (variantText(a.variants), variantText(b.variants))
      if va != vb { return va < vb }
      return a.steps.lexicographicallyPrecedes(b.steps)
    }.filter { shown.insert([variantText($0.variants), $0.old, $0.new] + $0.data).inserted }
    diff.eventsOnlyOld = walk.eventsOld.subtracting(walk.eventsNew).sorted()
    diff.eventsOnlyNew = walk.eventsNew.subtracting(walk.eventsOld).sorted()
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

/// The two versions driven side by side over an exploration's state graph.
private struct Walk {
  let old: FlowDocument
  let new: FlowDocument
  var changes: Set<PathChange> = []
  var eventsOld: Set<String> = []
  var eventsNew: Set<String> = []
  var tried = 0

  init(old: FlowDocument, new: FlowDocument) {
    self.old = old
    self.new = new
  }

  private struct Frame {
    var state: Int
    var config: SessionConfig
    var pair: (old: Replay, new: Replay)
    var inputs: [Input]
  }

  /// Depth first along first-discovery transitions (iteratively: paths may be thousands of
  /// inputs long); a transition that diverges is recorded and not followed.
  mutating func walk(_ exploration: Exploration) {
    var stack: [Frame] = []
    for (root, config) in exploration.rootConfigs.sorted(by: { $0.key < $1.key }) {
      var pair = (old: Replay(document: old, config: config), new: Replay(document: new, config: config))
      if !differs(&pair, config, []) { stack.append(Frame(state: root, config: config, pair: pair, inputs: [])) }
    }
    while let frame = stack.popLast() {
      for t in exploration.states[frame.state].outgoing {
        let transition = exploration.transitions[t]
        tried += 1
        var pair = frame.pair
        var inputs = frame.inputs
        var diverged = false
        for input in transition.inputs {
          pair.old.send(input)
          pair.new.send(input)
          inputs.append(input)
          if differs(&pair, frame.config, inputs) {
            diverged = true
            break
          }
        }
        if !diverged, exploration.states[transition.to].parent == t {
          stack.append(Frame(state: transition.to, config: frame.config, pair: pair, inputs: inputs))
        }
      }
    }
  }

  /// Takes the events the pair sent, and records a divergence when the two now differ.
  private mutating func differs(
    _ pair: inout (old: Replay, new: Replay), _ config: SessionConfig, _ inputs: [Input]
  )
    -> Bool
  {
    eventsOld.formUnion(pair.old.events)
    eventsNew.formUnion(pair.new.events)
    pair.old.events = []
    pair.new.events = []
    guard pair.old.state != pair.new.state else { return false }
    let recording = Recording(flowPath: "", config: config, inputs: inputs)
    changes.insert(
      PathChange(
        variants: config.variantOverrides, steps: ScriptWriter.stepTexts(for: recording, document: old),
        old: pair.old.state.where, new: pair.new.state.where,
        data: BehaviourDiff.dataChanges(pair.old.state.data, pair.new.state.data)))
    return true
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
