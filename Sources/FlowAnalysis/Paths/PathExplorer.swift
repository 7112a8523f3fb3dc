import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections

/// Explores a flow through the engine: forks `Session` values, tries the inputs `InputChoices`
/// proposes, and de-duplicates states so that flows with many independent branches stay
/// tractable. There is no second navigation implementation: every transition is the engine's.
public struct PathExplorer: Sendable {
  public struct Options: Sendable {
    /// Stop following a path after this many steps.
    public var maxDepth: Int
    /// Stop exploring after this many distinct states.
    public var maxStates: Int
    /// Largest multi-select combination tried (1: single options only).
    public var multiSelectBound: Int
    /// Also explore each variant of each experiment (as `--variant` overrides).
    public var variants: Bool

    public init(maxDepth: Int = 10_000, maxStates: Int = 200_000, multiSelectBound: Int = 2, variants: Bool = true) {
      self.maxDepth = maxDepth
      self.maxStates = maxStates
      self.multiSelectBound = multiSelectBound
      self.variants = variants
    }
  }

  /// A de-duplicated state: where the session is and the data conditions can read.
  struct StateKey: Hashable {
    var variants: [String]
    /// The flow screens of the sub-flow stack, each as `flow << 32 | screen`.
    var stack: [Int]
    var flow: String
    var screen: String
    var shown: Bool
    var status: String
    var pending: String?
    var data: [Int: Value]
  }

  /// A transition of the state graph.
  public struct Transition: Sendable {
    public var from: Int
    public var to: Int
    public var inputs: [Input]
    /// Screens shown on the way, then `$complete` / `$dismiss` when the session ended.
    public var label: [String]
    public var items: [Int]
    public var isBack: Bool
  }

  /// One explored state.
  public struct State: Sendable {
    public var depth: Int
    public var root: Int
    public var status: SessionStatus
    public var screen: String
    /// The transition that first reached it (nil for a root).
    public var parent: Int?
    public var outgoing: [Int] = []
    /// First reached by `back`: recorded, not expanded (back does not open new paths).
    public var isBackLeaf = false
  }

  public let document: FlowDocument
  public let options: Options
  let observer: CoverageObserver
  let choices: InputChoices
  /// The fields conditions read, each abstracted to the outcomes of the comparisons
  /// conditions make on it (or kept raw when a condition uses it any other way).
  let relevantFields: [FieldAbstraction]

  struct FieldAbstraction: Sendable {
    var name: String
    var atoms: [Condition]?

    func key(_ value: Value?) -> Value? {
      guard let value else { return nil }
      guard let atoms else { return value }
      let environment = ClosureEnvironment { $0 == name ? value : nil }
      return .list(atoms.map { .bool($0.holds(in: environment)) })
    }
  }

  /// What one exploration computes once and reads again in later states: the values tried on
  /// each block, and each field's abstracted value (the outcomes of its comparisons) by value.
  struct Memo {
    var candidates = InputChoices.CandidateMemo()
    var abstractions: [[Value: Value]]

    init(fields: Int) { abstractions = Array(repeating: [:], count: fields) }

    /// Whether values equal to `value` are the same bytes, so they abstract alike: numbers,
    /// booleans, ASCII text and lists of them (`==` on text is canonical equivalence, which a
    /// pattern matching bytes may tell apart).
    static func isExactKey(_ value: Value) -> Bool {
      switch value {
      case .null, .bool, .number: true
      case .string(let text): text.utf8.allSatisfy { $0 < 0x80 }
      case .list(let items): items.allSatisfy(isExactKey)
      default: false
      }
    }
  }

  public init(document: FlowDocument, options: Options = Options()) {
    self.document = document
    self.options = options
    observer = CoverageObserver(document: document)
    var atoms: [String: [Expression]] = [:]
    var raw = Set<String>()
    var names: [String] = []
    var known = Set<String>()
    for flow in document.flows {
      for screen in flow.screens {
        var conditions = screen.rules.compactMap(\.when)
        conditions += screen.content.flatBlocks.compactMap(\.visibleWhen)
        for condition in conditions {
          for name in condition.variableNames where !name.hasPrefix("$") && known.insert(name).inserted {
            names.append(name)
          }
          condition.expression.collectAtoms(into: &atoms, raw: &raw)
        }
      }
    }
    relevantFields = names.map { name in
      if raw.contains(name) { return FieldAbstraction(name: name, atoms: nil) }
      let conditions = (atoms[name] ?? []).map { Condition(expression: $0, source: "", form: .text) }
      return FieldAbstraction(name: name, atoms: conditions)
    }
    choices = InputChoices(
      document: document, multiSelectBound: options.multiSelectBound,
      fields: Dictionary(uniqueKeysWithValues: relevantFields.map { ($0.name, $0) }))
    // No condition reads a field: no state holds data, and the liveness below (the screen
    // graph and its order, a sixth of `paths` on a flow of 250 sub-flows) answers nothing.
    guard !names.isEmpty else {
      (liveFields, lastReader, position, flowIndex, returns) = ([], [], [:], [:], [:])
      return
    }
    // Liveness: a field matters at a screen only if a condition reading it can still come.
    // Topological positions of the screen graph's strongly connected components give a sound
    // test: a screen after every reader of a field (in that order) can never reach one.
    let graph = FlowGraph(document: document)
    let (position, positions) = LivenessOrder.positions(graph)
    var lastReader = [Int](repeating: -1, count: names.count)
    let fieldIndex = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    var readers: [ScreenNode: [Int]] = [:]
    for node in graph.nodes {
      let screen = graph.screen(node)
      var conditions = screen.rules.compactMap(\.when)
      conditions += screen.content.flatBlocks.compactMap(\.visibleWhen)
      for condition in conditions {
        for name in condition.variableNames {
          guard let i = fieldIndex[name] else { continue }
          lastReader[i] = max(lastReader[i], position[node] ?? Int.max)
          readers[node, default: []].append(i)
        }
      }
    }
    // Each field matters from the first screen that can write it (a flow screen writes what its
    // sub-flow collects; action results may write anything) to its last reader: bucket the
    // fields by the positions in that window so a state looks only at its position's fields.
    var firstWriter = [Int](repeating: 0, count: names.count)
    var collectedByBlocks = [Bool](repeating: false, count: names.count)
    let flowIndex = Dictionary(document.flows.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
    // Only the fields conditions read matter here. Past `Limits.subflowFields` every field
    // matters from the start: more states to tell apart, none missed.
    let subflowFields = document.fieldsThroughSubflows { flow in
      flow.screens.reduce(into: Set<String>()) { $0.formUnion($1.collectedFields.filter { fieldIndex[$0] != nil }) }
    }
    var writerPosition = [Int](repeating: Int.max, count: names.count)
    if let subflowFields {
      for node in graph.nodes {
        let screen = graph.screen(node)
        var written = screen.collectedFields
        if let child = screen.subflow.flatMap({ flowIndex[$0] }) { written.formUnion(subflowFields[child]) }
        for field in written {
          guard let i = fieldIndex[field] else { continue }
          collectedByBlocks[i] = true
          writerPosition[i] = min(writerPosition[i], position[node] ?? 0)
        }
      }
    }
    for i in names.indices { firstWriter[i] = collectedByBlocks[i] ? writerPosition[i] : 0 }
    var buckets: [[Int]]? = Array(repeating: [], count: positions)
    var total = 0
    for i in names.indices where lastReader[i] >= firstWriter[i] {
      total += lastReader[i] - firstWriter[i] + 1
      if total > 4_000_000 {
        buckets = nil
        break
      }
      for p in firstWriter[i]...min(lastReader[i], positions - 1) { buckets?[p].append(i) }
    }
    liveFields = buckets
    self.lastReader = lastReader
    self.position = position
    self.flowIndex = flowIndex
    // A sub-flow returns to its flow screen, whose rules then choose the next screen: from
    // there on only the flow screen's own conditions and its successors' positions matter.
    var returns: [ScreenNode: Return] = [:]
    for node in graph.nodes where graph.screen(node).kind == .flow {
      var lowest = Int.max
      for edge in graph.outgoing[node] ?? [] {
        if case .subflow = edge.kind { continue }
        if case .screen(let next) = edge.to { lowest = min(lowest, position[next] ?? 0) }
      }
      returns[node] = Return(position: lowest, readers: Array(Set(readers[node] ?? [])).sorted())
    }
    self.returns = returns
  }

  /// Where a session goes on when a sub-flow returns to a flow screen.
  struct Return: Sendable {
    /// The lowest position of the flow screen's successors (`Int.max`: none).
    var position: Int
    /// The fields the flow screen's own conditions read (indices into `relevantFields`).
    var readers: [Int]
  }

  let returns: [ScreenNode: Return]

  let lastReader: [Int]
  let position: [ScreenNode: Int]
  /// Fields that may matter at each topological position (nil: too many; scan them all).
  let liveFields: [[Int]]?
  let flowIndex: [String: Int]

  /// The earliest topological position the session can continue from (its screen), and the
  /// fields read after the sub-flows it is in return.
  func livePosition(_ session: Session) -> (position: Int, readers: [Int]) {
    var lowest = Int.max
    var readers: [Int] = []
    if let f = flowIndex[session.currentFlowID] {
      lowest = position[ScreenNode(flow: f, screen: session.currentScreenIndex)] ?? 0
    }
    for (f, s) in session.subflowScreenIndices {
      let node = ScreenNode(flow: f, screen: s)
      if let back = returns[node] {
        lowest = min(lowest, back.position)
        readers += back.readers
      } else {
        lowest = min(lowest, position[node] ?? 0)
      }
    }
    return (lowest == Int.max ? 0 : lowest, readers)
  }

  /// The session configurations explored: the default assignment, then each variant of each
  /// experiment as an override.
  public var roots: [SessionConfig] {
    let base = SessionConfig(userID: "explorer", now: 1_767_225_600_000, waitsForResults: true, recordsHistory: false)
    var configs = [base]
    guard options.variants else { return configs }
    var experiments: [(String, [String])] = document.experiments.map { ($0.id, $0.variants.map(\.id)) }
    if let assigned = document.entryFlow?.assignedExperiment, !experiments.contains(where: { $0.0 == assigned.id }) {
      experiments.append((assigned.id, [assigned.variantID]))
    }
    for (experiment, variants) in experiments {
      for variant in variants {
        var config = base
        config.variantOverrides = [experiment: variant]
        configs.append(config)
      }
    }
    return configs
  }

  /// The flow screens of the session's sub-flow stack, each as `flow << 32 | screen`. Read
  /// without walking the stack at depths 0 and 1 (most states): building the list of pairs
  /// first was 4 % of the exploration on a bundle of 250 sub-flows.
  static func stack(_ session: Session) -> [Int] {
    switch session.subflowDepth {
    case 0: return []
    case 1: return session.innermostSubflowIndices.map { [$0.flow << 32 | $0.screen] } ?? []
    default: return session.subflowScreenIndices.map { $0.flow << 32 | $0.screen }
    }
  }

  func key(_ session: Session, memo: inout Memo) -> StateKey {
    StateKey(
      variants: session.variants.map { "\($0.key)=\($0.value)" },
      stack: Self.stack(session),
      flow: session.currentFlowID, screen: session.currentScreenID, shown: session.isCurrentScreenShown,
      status: session.status.isEnded ? session.status.name : "", pending: session.pending?.identifier,
      data: liveData(session, memo: &memo))
  }

  func liveData(_ session: Session, memo: inout Memo) -> [Int: Value] {
    guard !session.status.isEnded, !relevantFields.isEmpty else { return [:] }
    let (from, readers) = livePosition(session)
    var data: [Int: Value] = [:]
    func read(_ index: Int) {
      guard let value = session.data(relevantFields[index].name) else { return }
      guard Memo.isExactKey(value) else {
        data[index] = relevantFields[index].key(value)
        return
      }
      if let known = memo.abstractions[index][value] {
        data[index] = known
      } else {
        let abstracted = relevantFields[index].key(value)
        memo.abstractions[index][value] = abstracted
        data[index] = abstracted
      }
    }
    readers.forEach(read)
    if let liveFields, from < liveFields.count {
      liveFields[from].forEach(read)
      return data
    }
    for index in relevantFields.indices where lastReader[index] >= from { read(index) }
    return data
  }

  /// Where a state's session stands before an input: a fork that ends here again, showing the
  /// same blocks, is a self-loop.
  struct Origin {
    var pending: PendingAction?
    var flowID: String
    var screenID: String
    /// As ``stack(_:)``: ids of the stack's screens are compared only when these differ.
    var stack: [Int]
    var blocks: [String]
    var historyDepth: Int
  }

  /// Whether the session's sub-flow stack shows the screens of `stack` (``stack(_:)``): equal
  /// positions, or, should two screens share ids, equal ids.
  func sameStack(_ session: Session, _ stack: [Int]) -> Bool {
    let current = Self.stack(session)
    guard current != stack else { return true }
    guard current.count == stack.count else { return false }
    return session.subflowStack
      == stack.map {
        let flow = document.flows[$0 >> 32]
        return ScreenRef(flowID: flow.id, screenID: flow.screens[$0 & 0xFFFF_FFFF].id)
      }
  }

  /// How many transitions an exploration keeps before it shares their equal lists.
  static let sharedFrom = 4_096

  /// Runs the exploration; `progress` hears the states found and the frontier's length every
  /// 1,024 states expanded.
  public func explore(progress: (_ states: Int, _ frontier: Int) -> Void = { _, _ in }) -> Exploration {
    var exploration = Exploration(document: document, options: options)
    exploration.notes = choices.notes
    var memo = Memo(fields: relevantFields.count)
    var index: [StateKey: Int] = [:]
    // Room for two states and two items (a screen, an edge) per screen up front: growing
    // rehashed every key, and a state's key hashes its strings and data.
    let screens = document.flows.reduce(0) { $0 + $1.screens.count }
    index.reserveCapacity(2 * screens)
    exploration.itemIndex.reserveCapacity(2 * screens)
    // The queue of states to expand, and their sessions beside it: reading a state's number
    // from a queue of pairs copied the pair, session and all.
    var frontier: [Int] = []
    var sessions: [Session?] = []
    var head = 0
    // The transitions of the states on one screen repeat the same inputs, screens and items:
    // each distinct list is stored once, shared (the lists of 300,000 transitions were a
    // quarter of `paths`' memory on 10,000 screens).
    // Below `sharedFrom` transitions they are not: hashing every list cost more time than the
    // little memory it saves (a twentieth of `paths` on a bundle of 250 sub-flows).
    var inputLists = Set<[Input]>()
    var labels = Set<[String]>()
    var itemLists = Set<[Int]>()
    func shared<List: Hashable>(_ list: List, _ lists: inout Set<List>) -> List {
      exploration.transitions.count < Self.sharedFrom ? list : lists.insert(list).memberAfterInsert
    }
    func intern(_ items: [CoverageItem]) -> [Int] {
      var ids: [Int] = []
      for item in items {
        let id: Int
        if let known = exploration.itemIndex[item] {
          id = known
        } else {
          exploration.items.append(item)
          id = exploration.items.count - 1
          exploration.itemIndex[item] = id
        }
        if !ids.contains(id) { ids.append(id) }
      }
      return ids
    }
    for (rootIndex, config) in roots.enumerated() {
      // Of the events, the observer reads action results alone.
      var explored = config
      (explored.emitsEvents, explored.emitsActionResults) = (false, true)
      guard let (session, outputs) = try? Session.start(document: document, config: explored) else { continue }
      let key = key(session, memo: &memo)
      if index[key] != nil { continue }
      let id = exploration.states.count
      index[key] = id
      exploration.states.append(
        State(
          depth: 0, root: rootIndex, status: session.status,
          screen: observer.name(session)))
      exploration.rootItems[id] = intern(observer.start(session, outputs))
      exploration.rootConfigs[id] = config
      frontier.append(id)
      sessions.append(session)
    }
    while head < frontier.count {
      let id = frontier[head]
      // The state's session stays in this optional (no other binding) so that the last fork
      // can take it: that fork's first `send` then changes the data in place instead of
      // copying all of it.
      var slot = sessions[head].take()
      head += 1
      if head % 1_024 == 0 {
        progress(exploration.states.count, frontier.count - head)
        // Expanded entries hold no session any more: drop them so the queue's memory follows
        // the frontier, not every state found.
        if head * 2 > frontier.count {
          frontier.removeFirst(head)
          sessions.removeFirst(head)
          head = 0
        }
      }
      guard slot != nil else { continue }
      let state = exploration.states[id]
      if slot!.status.isEnded || state.isBackLeaf { continue }
      if state.depth >= options.maxDepth {
        exploration.depthLimited += 1
        continue
      }
      // What the forks need of the state's session, read from one copy that is gone before
      // they start (each `slot!` read copied the session).
      func prepare(_ session: Session) -> (Bool, [[Input]], Origin) {
        let (actions, blocks) = (session.actions, session.visibleBlocks)
        return (
          actions.contains { $0.action == .previous },
          choices.sequences(for: session, actions: actions, visibleBlocks: blocks, memo: &memo.candidates),
          Origin(
            pending: session.pending, flowID: session.currentFlowID, screenID: session.currentScreenID,
            stack: Self.stack(session), blocks: blocks.map(\.id), historyDepth: session.historyDepth)
        )
      }
      let (hasPreviousControl, sequences, origin) = prepare(slot!)
      for (number, sequence) in sequences.enumerated() {
        // The last fork takes the session: a copy retained, then released, its every field.
        var current = number == sequences.count - 1 ? slot.take()! : slot!
        var applied: [Input] = []
        var items: [CoverageItem] = []
        var rejected = false
        for input in sequence {
          let before = observer.origin(current)
          let outputs = current.send(input)
          if outputs.count == 1, case .rejected = outputs[0] {
            if case .set = input { continue }
            rejected = true
            break
          }
          applied.append(input)
          // Most sequences are one input: its items are taken as they are, not copied.
          let stepItems = observer.step(from: before, input: input, outputs: outputs, after: current)
          if items.isEmpty { items = stepItems } else { items += stepItems }
        }
        if rejected || applied.isEmpty { continue }
        // Still on the same screen showing the same blocks (validation blocked, a field changed):
        // the fill plans of this state already cover it.
        if !current.status.isEnded, current.pending == origin.pending,
          current.currentFlowID == origin.flowID, current.currentScreenID == origin.screenID,
          sameStack(current, origin.stack), current.visibleBlocks.map(\.id) == origin.blocks
        {
          exploration.addSelfLoop(id, applied, intern(items))
          continue
        }
        let nextKey = key(current, memo: &memo)
        let target: Int
        if let known = index[nextKey] {
          target = known
          if target == id {
            // Same state (validation blocked, an unchanged field): keep its items only.
            exploration.addSelfLoop(id, applied, intern(items))
            continue
          }
        } else {
          guard exploration.states.count < options.maxStates else {
            exploration.stateLimited = true
            continue
          }
          target = exploration.states.count
          index[nextKey] = target
          exploration.states.append(
            State(
              depth: state.depth + 1, root: state.root, status: current.status,
              screen: observer.name(current),
              parent: exploration.transitions.count, isBackLeaf: sequence.last == .back))
          frontier.append(target)
          sessions.append(current)
        }
        var label: [String] = []
        for item in items {
          if case .edge(_, let to) = item { label.append(to) }
        }
        // `back`, and a `previous` button (the history shrinks): not a step of a counted path.
        var isBack = sequence.last == .back
        if !isBack, hasPreviousControl, case .tap? = sequence.last {
          isBack = current.historyDepth < origin.historyDepth
        }
        exploration.states[id].outgoing.append(exploration.transitions.count)
        exploration.transitions.append(
          Transition(
            from: id, to: target, inputs: shared(applied, &inputLists), label: shared(label, &labels),
            items: shared(intern(items), &itemLists), isBack: isBack))
      }
    }
    return exploration
  }
}

/// The result of an exploration: the de-duplicated state graph and every coverage item seen.
public struct Exploration: Sendable {
  public let document: FlowDocument
  public let options: PathExplorer.Options
  public var states: [PathExplorer.State] = []
  public var transitions: [PathExplorer.Transition] = []
  public var items: [CoverageItem] = []
  var itemIndex: [CoverageItem: Int] = [:]
  var rootItems: [Int: [Int]] = [:]
  var rootConfigs: [Int: SessionConfig] = [:]
  /// Inputs that leave a state unchanged but hit items (validation, a failed result), by state;
  /// only those adding an item the state's earlier loops did not.
  var selfLoops: [Int: [(inputs: [Input], items: [Int])]] = [:]
  var selfItems: [Int: Set<Int>] = [:]

  mutating func addSelfLoop(_ state: Int, _ inputs: [Input], _ items: [Int]) {
    let fresh = Set(items).subtracting(selfItems[state] ?? [])
    guard !fresh.isEmpty else { return }
    selfItems[state, default: []].formUnion(fresh)
    selfLoops[state, default: []].append((inputs, items))
  }
  /// States not expanded because of `maxDepth`.
  public var depthLimited = 0
  /// True when `maxStates` stopped the exploration.
  public var stateLimited = false
  /// What the exploration could not try (a patterned input no built answer matches).
  public var notes: [String] = []

  init(document: FlowDocument, options: PathExplorer.Options) {
    self.document = document
    self.options = options
  }

  public var isComplete: Bool { depthLimited == 0 && !stateLimited }

  /// Every item the exploration reached, sorted.
  public var reachableItems: [CoverageItem] { sortedItemNumbers().map { items[$0] } }

  /// The items' numbers in their sorted order. Each item's sort key is built once: `<` builds
  /// both keys (joined strings) on every comparison, which made sorting a tenth of `paths`.
  func sortedItemNumbers() -> [Int] {
    let keys = items.map(\.sortKey)
    return items.indices.sorted { keys[$0] < keys[$1] }
  }

  // MARK: Counting

  /// Distinct screen paths from the start to completion and to dismissal.
  ///
  /// Paths are counted on the de-duplicated state graph, determinised by the screens shown
  /// (two input sequences that show the same screens count once). `back` is not counted as
  /// a path step, and loops are not unrolled: transitions closing a cycle are left out.
  /// Transitions that count as path steps (not back, not closing a cycle in a depth-first
  /// walk from the roots), the number of forward transitions left out, and the states in
  /// post-order (successors first).
  func countedTransitions() -> (counted: [Bool], cut: Int, postorder: [Int]) {
    // Transitions that count: not back, not closing a cycle (iterative DFS).
    var counted = [Bool](repeating: false, count: transitions.count)
    var color = [UInt8](repeating: 0, count: states.count)  // 0 new, 1 on stack, 2 done
    var cut = 0
    var postorder: [Int] = []
    let roots = Array(rootConfigs.keys).sorted()
    for root in roots where color[root] == 0 {
      var stack: [(Int, Int)] = [(root, 0)]
      color[root] = 1
      while let (state, position) = stack.last {
        let outgoing = states[state].outgoing
        if position < outgoing.count {
          stack[stack.count - 1].1 += 1
          let t = outgoing[position]
          guard !transitions[t].isBack else { continue }
          let next = transitions[t].to
          switch color[next] {
          case 1: if !transitions[t].label.isEmpty { cut += 1 }
          case 0:
            counted[t] = true
            color[next] = 1
            stack.append((next, 0))
          default: counted[t] = true
          }
        } else {
          color[state] = 2
          postorder.append(state)
          stack.removeLast()
        }
      }
    }
    return (counted, cut, postorder)
  }

  public func pathCounts() -> (completed: BigUInt, dismissed: BigUInt, cutCycles: Int) {
    let (counted, cut, _) = countedTransitions()
    let roots = Array(rootConfigs.keys).sorted()
    // Determinised counting over sets of states, memoised, iteratively.
    var memo: [[Int]: (BigUInt, BigUInt)] = [:]
    func closure(_ set: [Int]) -> [Int] {
      var seen = Set(set)
      var stack = set
      while let s = stack.popLast() {
        for t in states[s].outgoing where counted[t] && transitions[t].label.isEmpty {
          if seen.insert(transitions[t].to).inserted { stack.append(transitions[t].to) }
        }
      }
      return seen.sorted()
    }
    // The states after each label, labels in order: sorted and grouped in place (a dictionary
    // keyed by the labels hashed every screen name of every state's transitions).
    func successors(_ set: [Int]) -> [[Int]] {
      var steps: [(label: [String], to: Int)] = []
      for s in set {
        for t in states[s].outgoing where counted[t] && !transitions[t].label.isEmpty {
          steps.append((transitions[t].label, transitions[t].to))
        }
      }
      steps.sort { $0.label.lexicographicallyPrecedes($1.label) }
      var next: [[Int]] = []
      var start = 0
      while start < steps.count {
        var end = start + 1
        while end < steps.count, steps[end].label == steps[start].label { end += 1 }
        next.append(closure(steps[start..<end].map(\.to)))
        start = end
      }
      return next
    }
    var total = (BigUInt.zero, BigUInt.zero)
    let start = closure(roots)
    var work: [([Int], [[Int]]?)] = [(start, nil)]
    while let (set, children) = work.last {
      if memo[set] != nil {
        work.removeLast()
        continue
      }
      guard let children else {
        let next = successors(set)
        work[work.count - 1].1 = next
        for child in next where memo[child] == nil { work.append((child, nil)) }
        continue
      }
      var completed = BigUInt.zero
      var dismissed = BigUInt.zero
      for s in set {
        if states[s].status == .completed { completed = .one }
        if states[s].status == .dismissed { dismissed = .one }
      }
      for child in children {
        let (c, d) = memo[child] ?? (.zero, .zero)
        completed += c
        dismissed += d
      }
      memo[set] = (completed, dismissed)
      work.removeLast()
    }
    total = memo[start] ?? total
    return (total.0, total.1, cut)
  }
}
