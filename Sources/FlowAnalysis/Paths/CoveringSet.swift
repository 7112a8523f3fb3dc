import FlowEngine
import FlowFormat
import FlowReplay

/// A small set of complete paths through an exploration's state graph that covers every item
/// it reached, each confirmed by replaying it in a fresh session.
extension Exploration {
  /// The inputs of a path's segment (numbered as ``ReplayCheckpoints/Segments`` does), read in
  /// place.
  func inputs(ofSegment number: Int, loopsPerState: Int) -> [Input] {
    if number % 2 == 0 { return transitions[number / 2].inputs }
    let (state, loop) = (number / 2).quotientAndRemainder(dividingBy: loopsPerState)
    return selfLoops[state]![loop].inputs
  }

  /// For every state, the first transition of a shortest way (no `back`) to a completed state,
  /// else to a dismissed one.
  func suffixes() -> [Int?] {
    // Fields are read in place, by index: a loop over the transitions (or states) copied each.
    var incoming = [[Int]](repeating: [], count: states.count)
    for t in transitions.indices where !transitions[t].isBack {
      incoming[transitions[t].to].append(t)
    }
    var next = [Int?](repeating: nil, count: states.count)
    var done = [Bool](repeating: false, count: states.count)
    for wanted in [SessionStatus.completed, .dismissed] {
      var queue: [Int] = []
      for s in states.indices where states[s].status == wanted && !done[s] {
        done[s] = true
        queue.append(s)
      }
      var head = 0
      while head < queue.count {
        let s = queue[head]
        head += 1
        for t in incoming[s] where !done[transitions[t].from] {
          done[transitions[t].from] = true
          next[transitions[t].from] = t
          queue.append(transitions[t].from)
        }
      }
    }
    return next
  }

  /// A small set of complete paths (each ends completed or dismissed) covering every item the
  /// exploration reached. Greedy (not a minimum cover): each round takes the path from a root
  /// to an ending that collects the most uncovered items (dynamic programming on the counted
  /// state DAG; an item met twice on one path counts twice in the estimate), with
  /// state-preserving inputs such as failed results spliced in where they add items. Items only
  /// on loop-closing or `previous` transitions then get one path each (a shortest prefix, the
  /// transition, a shortest way to an ending).
  public func coveringPaths() -> [ExploredPath] { coveringSet().paths }

  /// The covering set's progress: paths chosen so far and items still uncovered.
  public typealias CoveringProgress = (_ paths: Int, _ uncovered: Int) -> Void
  /// A path just chosen, with the script steps its confirming replay wrote and the session that
  /// replay ended in (its path recorded).
  public typealias ChosenScript = (_ path: ExploredPath, _ steps: ScriptSteps, _ final: Session) -> Void

  /// The covering paths, and the items exploration reached that no replayed path confirmed
  /// (states merged by de-duplication that do not replay as explored; normally empty).
  /// With `scriptSecrets`, the replay that confirms a path also writes its script's steps and
  /// hands them to `scripted` (`paths --emit`: one replay per path instead of two).
  public func coveringSet(
    scriptSecrets: SecretPolicy? = nil,
    progress: CoveringProgress = { _, _ in },
    scripted: ChosenScript = { _, _, _ in }
  ) -> (
    paths: [ExploredPath], unconfirmed: [CoverageItem]
  ) {
    let suffix = suffixes()
    // Item sets are flags and stamps indexed by item number: the rounds below test thousands
    // of items per candidate path, and hashing them was most of the time.
    var isCovered = [Bool](repeating: false, count: items.count)
    var isCoverable = [Bool](repeating: false, count: items.count)
    var uncovered = 0
    var selfItemList = [[Int]](repeating: [], count: states.count)
    for (state, items) in selfItems { selfItemList[state] = items.sorted() }
    // Uncovered items per transition and per state's self-loops, kept up to date as items get
    // covered (each list holds an item once): the greedy rounds read them for every state.
    var transitionGain = transitions.map { $0.items.count }
    var selfLoopGain = selfItemList.map { $0.count }
    var transitionsWith = [[Int]](repeating: [], count: items.count)
    for t in transitions.indices {
      for item in transitions[t].items { transitionsWith[item].append(t) }
    }
    var statesWith = [[Int]](repeating: [], count: items.count)
    for (state, list) in selfItemList.enumerated() {
      for item in list { statesWith[item].append(state) }
    }
    let graph = CoveringGraph(self)
    var best = BestPaths(graph)
    func cover(_ item: Int) {
      guard !isCovered[item] else { return }
      isCovered[item] = true
      if isCoverable[item] { uncovered -= 1 }
      for t in transitionsWith[item] {
        transitionGain[t] -= 1
        best.transitionChanged(t, graph)
      }
      for state in statesWith[item] {
        selfLoopGain[state] -= 1
        best.selfLoopsChanged(state, graph)
      }
    }
    var paths: [ExploredPath] = []
    /// The transitions of the way through `state` (or `transition`) to an ending, and its root
    /// (nil: none).
    func walk(_ state: Int, through transition: Int?) -> (root: Int, transitions: [Int])? {
      var path: [Int] = []
      var root = 0
      for step in CoveringRoute(graph, suffix: suffix, through: state, transition, limit: states.count) {
        switch step {
        case .back(let t), .on(let t): path.append(t)
        case .root(let state):
          root = state
          path.reverse()
        case .deadEnd: return nil
        }
      }
      return (root, path)
    }
    var stamps = [Int](repeating: 0, count: items.count)
    var stamp = 0
    /// How many uncovered items the path `walk(state, through: transition)` assembles would
    /// collect, without building either (nil: no walk): the distinct uncovered items of its root,
    /// its transitions and the self-loops of the states it passes (a self-loop is spliced in
    /// exactly when it adds one of those). Lists whose items are all covered are not read.
    func walkGain(_ state: Int, through transition: Int?) -> Int? {
      stamp += 1
      var gain = 0
      func take(_ ids: [Int]) {
        for id in ids where !isCovered[id] && stamps[id] != stamp {
          stamps[id] = stamp
          gain += 1
        }
      }
      func pass(_ t: Int) {
        if transitionGain[t] > 0 { take(transitions[t].items) }
        if selfLoopGain[graph.to[t]] > 0 { take(selfItemList[graph.to[t]]) }
      }
      for step in CoveringRoute(graph, suffix: suffix, through: state, transition, limit: states.count) {
        switch step {
        case .back(let t), .on(let t): pass(t)
        case .root(let root):
          take(rootItems[root] ?? [])
          if selfLoopGain[root] > 0 { take(selfItemList[root]) }
        case .deadEnd: return nil
        }
      }
      return gain
    }
    /// The items a path collects (distinct, self-loops spliced in where they add an uncovered
    /// item) and its segments.
    // A path's inputs come in segments (a transition's, a self-loop's): replays compare their
    // starts by segment numbers, not input by input.
    let loopsPerState = (selfLoops.values.map(\.count).max() ?? 0) + 1
    func assemble(_ root: Int, _ path: [Int]) -> Assembled {
      stamp += 1
      var collected: [Int] = []
      func add(_ ids: [Int]) {
        for id in ids where stamps[id] != stamp {
          stamps[id] = stamp
          collected.append(id)
        }
      }
      add(rootItems[root] ?? [])
      var inputs = 0
      var segments = ReplayCheckpoints.Segments()
      func splice(_ state: Int) {
        // No uncovered item in its self-loops: none is spliced.
        guard selfLoopGain[state] > 0 else { return }
        for (number, loop) in selfLoops[state]!.enumerated()
        where loop.items.contains(where: { !isCovered[$0] && stamps[$0] != stamp }) {
          inputs += loop.inputs.count
          segments.append(2 * (state * loopsPerState + number) + 1, endingAt: inputs)
          add(loop.items)
        }
      }
      splice(root)
      for t in path {
        inputs += transitions[t].inputs.count
        segments.append(2 * t, endingAt: inputs)
        add(transitions[t].items)
        splice(graph.to[t])
      }
      return Assembled(segments: segments, items: collected)
    }
    // `bound`: the candidate's gain when last computed (nil: never). Gains only shrink as items
    // get covered, so a candidate whose bound cannot beat the best so far needs no new walk.
    var candidates: [(state: Int, transition: Int?, walkable: Bool?, bound: Int)] = []
    func coverable(_ ids: some Sequence<Int>) {
      for id in ids where !isCoverable[id] {
        isCoverable[id] = true
        uncovered += 1
      }
    }
    for t in transitions.indices {
      let to = transitions[t].to
      guard suffix[to] != nil || states[to].status.isEnded else { continue }
      coverable(transitions[t].items)
      candidates.append((to, t, nil, 0))
    }
    for (state, items) in selfItems where suffix[state] != nil {
      coverable(items)
      candidates.append((state, nil, nil, 0))
    }
    for (root, items) in rootItems where suffix[root] != nil || states[root].status.isEnded {
      coverable(items)
      candidates.append((root, nil, nil, 0))
    }
    // The depths read from a list of numbers: `states[s]` copies the state, its lists and all.
    let depth = states.map { $0.depth }
    candidates.sort { a, b in
      let (da, db) = (depth[a.state], depth[b.state])
      return da != db ? da > db : (a.transition ?? -1, a.state) < (b.transition ?? -1, b.state)
    }
    func fresh(_ candidate: (state: Int, transition: Int?, walkable: Bool?, bound: Int)) -> Bool {
      if let t = candidate.transition { return transitionGain[t] > 0 }
      return selfLoopGain[candidate.state] > 0 || (rootItems[candidate.state] ?? []).contains { !isCovered[$0] }
    }
    // Paths list their items sorted: rank every item once instead of comparing items (strings)
    // in every path's sort, and sort the ranks themselves (numbers, no comparison closure).
    var rank: [Int] = []
    var ranked: [Int] = []
    func sortedItems(_ ids: [Int]) -> [Int32] {
      if rank.isEmpty {
        ranked = sortedItemNumbers()
        rank = [Int](repeating: 0, count: items.count)
        for (position, id) in ranked.enumerated() { rank[id] = position }
      }
      return ids.map { rank[$0] }.sorted().map { Int32(ranked[$0]) }
    }
    func explored(_ root: Int, _ assembled: Assembled, covering found: [Int]) -> ExploredPath {
      ExploredPath(
        config: rootConfigs[root]!, graph: self, root: root, segments: assembled.segments.numbers,
        loopsPerState: loopsPerState, itemNumbers: sortedItems(found))
    }
    // Greedy by dynamic programming on the counted DAG: each round follows, from the best root,
    // the transitions that collect the most uncovered items on the way to an ending.
    var unverified = Set<Int>()
    /// Replays a path in a fresh session: the items it really covers, or nil when an input is
    /// rejected or it does not end.
    /// Replays resume from the latest checkpoint of an earlier replay that shares their start
    /// and first inputs: covering paths share long prefixes, and in a 10,000-screen flow
    /// replaying them from the start was most of the time.
    var replays = ReplayCheckpoints()
    let observer = CoverageObserver(document: document)
    // The items a replay found, each once, in the order found: a checkpoint keeps how many it
    // had (a set per checkpoint was most of the covering set's memory after the paths).
    var foundIn = [Int](repeating: 0, count: items.count)
    var replay = 0
    func verify(_ config: SessionConfig, _ path: Assembled) -> (found: [Int], final: Session, steps: ScriptSteps?)? {
      var config = config
      // A script expects the final path; of the events only action results are built (they
      // are items).
      if scriptSecrets != nil { config.recordsPath = true }
      (config.emitsEvents, config.emitsActionResults) = (false, true)
      var session: Session
      var found: [Int]
      var position: Int
      var steps = scriptSecrets.map { ScriptSteps(secrets: $0) }
      var marks: [ReplayCheckpoints.Mark] = []
      replay += 1
      func add(_ new: [CoverageItem]) {
        for item in new {
          guard let id = itemIndex[item], foundIn[id] != replay else { continue }
          foundIn[id] = replay
          found.append(id)
        }
      }
      if let resumed = replays.latest(config, path.segments) {
        (session, position) = (resumed.mark.session, resumed.mark.position)
        found = Array(resumed.found[..<resumed.mark.found])
        for id in found { foundIn[id] = replay }
        steps = resumed.mark.steps.flatMap { resumed.steps?.rewound(to: $0) }
        marks = resumed.earlier
      } else {
        guard let (started, outputs) = try? Session.start(document: document, config: config) else { return nil }
        (session, found, position) = (started, [], 0)
        add(observer.start(started, outputs))
      }
      // The inputs are read segment by segment from the graph, from the one `position` is in.
      let (numbers, ends) = (path.segments.numbers, path.segments.ends)
      var segment = 0
      while segment < ends.count, ends[segment] <= position { segment += 1 }
      while segment < numbers.count {
        let inputs = inputs(ofSegment: numbers[segment], loopsPerState: loopsPerState)
        var offset = position - (segment == 0 ? 0 : ends[segment - 1])
        segment += 1
        while offset < inputs.count {
          if position % ReplayCheckpoints.spacing == 0 {
            marks.append((position, session, found.count, steps?.position))
          }
          let input = inputs[offset]
          (position, offset) = (position + 1, offset + 1)
          let before = observer.origin(session)
          let outputs = steps?.send(input, to: &session) ?? session.send(input)
          if outputs.count == 1, case .rejected = outputs[0] {
            if case .set = input { continue }
            return nil
          }
          add(observer.step(from: before, input: input, outputs: outputs, after: session))
        }
      }
      replays.add(config, path.segments, marks, found, steps)
      return session.status.isEnded ? (found, session, steps) : nil
    }

    let roots = rootConfigs.keys.sorted()
    while uncovered > 0 {
      best.update(graph, transitionGain: transitionGain, selfLoopGain: selfLoopGain)
      var bestRoot: (Int, Int)?
      for root in roots where best.value[root] >= 0 {
        let gain = best.value[root] + (rootItems[root] ?? []).count { !isCovered[$0] } + selfLoopGain[root]
        if gain > (bestRoot?.1 ?? 0) { bestRoot = (root, gain) }
      }
      guard let (root, _) = bestRoot else { break }
      var path: [Int] = []
      var cursor = root
      while best.choice[cursor] >= 0, !graph.ended[cursor] {
        path.append(best.choice[cursor])
        cursor = graph.to[best.choice[cursor]]
      }
      let assembled = assemble(root, path)
      guard let verified = verify(rootConfigs[root]!, assembled), verified.found.contains(where: { !isCovered[$0] })
      else { break }
      verified.found.forEach(cover)
      paths.append(explored(root, assembled, covering: verified.found))
      if let steps = verified.steps { scripted(paths[paths.count - 1], steps, verified.final) }
      progress(paths.count, uncovered)
    }
    // Items only on transitions the DAG leaves out (loops, previous buttons): one path each.
    while uncovered > 0 {
      var chosen: (candidate: Int, gain: Int)?
      var tried = 0
      // A candidate with nothing left to cover never gets any back: drop it for good, in order.
      candidates.removeAll { !fresh($0) }
      for index in candidates.indices {
        let candidate = candidates[index]
        if candidate.walkable == false { continue }
        // Ties go to the earlier candidate: one that cannot do better than the best is skipped.
        if candidate.walkable == true, candidate.bound <= (chosen?.gain ?? 0) {
          tried += 1
          if tried >= 256 { break }
          continue
        }
        guard let gain = walkGain(candidate.state, through: candidate.transition) else {
          candidates[index].walkable = false
          continue
        }
        candidates[index].walkable = true
        candidates[index].bound = gain
        if gain > (chosen?.gain ?? 0) { chosen = (index, gain) }
        tried += 1
        if tried >= 256 { break }  // large graphs: the best of the deepest candidates
      }
      guard let chosen, case let candidate = candidates[chosen.candidate],
        let walked = walk(candidate.state, through: candidate.transition)
      else { break }
      let assembled = assemble(walked.root, walked.transitions)
      guard let verified = verify(rootConfigs[walked.root]!, assembled),
        verified.found.contains(where: { !isCovered[$0] })
      else {
        // The states this path merges do not replay as explored: give up on its items.
        assembled.items.forEach(cover)
        unverified.formUnion(assembled.items)
        continue
      }
      verified.found.forEach(cover)
      paths.append(explored(walked.root, assembled, covering: verified.found))
      if let steps = verified.steps { scripted(paths[paths.count - 1], steps, verified.final) }
      progress(paths.count, uncovered)
    }
    guard !unverified.isEmpty else { return (paths, []) }
    let confirmed = paths.reduce(into: Set<CoverageItem>()) { $0.formUnion($1.items) }
    return (paths, unverified.map { items[$0] }.filter { !confirmed.contains($0) }.sorted())
  }
}

/// A path put together for the covering set.
struct Assembled {
  var segments: ReplayCheckpoints.Segments
  var items: [Int]
}

/// Sessions part-way through the latest replays of `coveringSet`, every `spacing` inputs.
/// Replay is deterministic, so resuming from a checkpoint whose inputs so far are the new
/// path's first inputs finds exactly what replaying from the start would.
struct ReplayCheckpoints {
  /// Where a replay stood: its session, how many of the replay's items it had found and how
  /// many of its script steps it had written.
  typealias Mark = (position: Int, session: Session, found: Int, steps: ScriptSteps.Position?)
  /// A path's inputs as numbered segments (equal numbers, equal inputs) and where each ends.
  struct Segments {
    var numbers: [Int] = []
    var ends: [Int] = []

    mutating func append(_ number: Int, endingAt end: Int) {
      numbers.append(number)
      ends.append(end)
    }

    /// How many first inputs two paths share, at least (whole segments only).
    func sharedInputs(with other: Segments) -> Int {
      var shared = 0
      let limit = min(numbers.count, other.numbers.count)
      while shared < limit, numbers[shared] == other.numbers[shared] { shared += 1 }
      return shared == 0 ? 0 : ends[shared - 1]
    }
  }

  static let spacing = 256
  /// How many replays are kept. A checkpoint's memory is its session's data (a copy per
  /// checkpoint, thousands of fields deep into a 10,000-screen flow): eight replays' were 220 MB
  /// there, two replays' about 60 MB for 4.6 % more inputs replayed (427,206 against 408,518).
  static let kept = 2
  /// Each replay's checkpoints, the items it found (in the order found) and its script steps.
  private var replays: [(config: SessionConfig, segments: Segments, marks: [Mark], found: [Int], steps: ScriptSteps?)] =
    []

  /// The furthest checkpoint of a kept replay with the same configuration and first inputs,
  /// that replay's checkpoints before it, its items (the checkpoint's are the first
  /// `mark.found`) and its steps.
  func latest(
    _ config: SessionConfig, _ segments: Segments
  ) -> (
    mark: Mark, earlier: [Mark], found: [Int], steps: ScriptSteps?
  )? {
    var best: (replay: Int, mark: Int, position: Int)?
    for r in replays.indices where replays[r].config == config {
      let shared = segments.sharedInputs(with: replays[r].segments)
      // Marks sit at multiples of `spacing` from 0, one each: the furthest within the shared
      // inputs is found by arithmetic.
      let index = min(shared / Self.spacing, replays[r].marks.count - 1)
      let position = replays[r].marks[index].position
      if position > (best?.position ?? 0) { best = (r, index, position) }
    }
    guard let best else { return nil }
    let replay = replays[best.replay]
    return (replay.marks[best.mark], Array(replay.marks[..<best.mark]), replay.found, replay.steps)
  }

  mutating func add(
    _ config: SessionConfig, _ segments: Segments, _ marks: [Mark], _ found: [Int], _ steps: ScriptSteps?
  ) {
    guard marks.count > 1 else { return }
    if replays.count == Self.kept { replays.removeFirst() }
    replays.append((config, segments, marks, found, steps))
  }
}

/// One complete path: how to start, what to input, what it shows and covers. Kept as numbers
/// into the exploration's state graph (its root, the transitions and self-loops it takes, the
/// items it covers) and read from the graph when asked: holding every covering path's inputs,
/// screens and items whole (up to 10,000 inputs each) was most of `paths`' memory on 10,000
/// screens.
public struct ExploredPath: Sendable {
  public var config: SessionConfig
  let graph: Exploration
  let root: Int
  /// The transitions and self-loops taken, numbered as ``ReplayCheckpoints/Segments`` does.
  let segments: [Int]
  let loopsPerState: Int
  /// The items covered (numbers into `graph.items`), in the items' order.
  let itemNumbers: [Int32]

  /// The inputs, segment by segment.
  public var inputs: [Input] {
    segments.reduce(into: []) { $0 += graph.inputs(ofSegment: $1, loopsPerState: loopsPerState) }
  }

  /// Screens shown (with `$complete` / `$dismiss` at the end).
  public var screens: [String] {
    var screens = [graph.states[root].screen]
    for number in segments where number % 2 == 0 { screens += graph.transitions[number / 2].label }
    return screens
  }

  /// The items the path covers, sorted.
  public var items: [CoverageItem] { itemNumbers.map { graph.items[Int($0)] } }

  /// Replays the path in a fresh session (history recorded) for script writing.
  public func replay(document: FlowDocument) -> Session? {
    var config = self.config
    config.recordsHistory = true
    guard var (session, _) = try? Session.start(document: document, config: config) else { return nil }
    for input in inputs { _ = session.send(input) }
    return session
  }
}

/// The way through a state (or a transition) to an ending, step by step: the first
/// transitions from a root, last first (`back`), the root, then the transition and the
/// shortest way on (`on`); `deadEnd` when no way on ends within `limit` steps. The covering
/// set's `walk` and `walkGain` both follow it (an iterator: closures writing their counts
/// were checked for exclusive access at run time).
private struct CoveringRoute: Sequence, IteratorProtocol {
  enum Step {
    case back(Int)
    case root(Int)
    case on(Int)
    case deadEnd
  }
  private let parent: [Int]
  private let ended: [Bool]
  private let from: [Int]
  private let to: [Int]
  private let suffix: [Int?]
  private let start: Int
  private let transition: Int?
  private let limit: Int
  private var cursor: Int
  /// 0: back to the root; 1: the transition; 2: on to an ending; 3: done.
  private var phase = 0
  private var steps = 0

  init(_ graph: CoveringGraph, suffix: [Int?], through state: Int, _ transition: Int?, limit: Int) {
    (parent, ended, from, to, self.suffix) = (graph.parent, graph.ended, graph.from, graph.to, suffix)
    start = transition.map { graph.from[$0] } ?? state
    self.transition = transition
    self.limit = limit
    cursor = start
  }

  mutating func next() -> Step? {
    switch phase {
    case 0:
      if parent[cursor] >= 0 {
        defer { cursor = from[parent[cursor]] }
        return .back(parent[cursor])
      }
      phase = 1
      defer { cursor = start }
      return .root(cursor)
    case 1:
      phase = 2
      if let transition {
        cursor = to[transition]
        return .on(transition)
      }
      return next()
    case 2:
      guard !ended[cursor] else {
        phase = 3
        return nil
      }
      guard let t = suffix[cursor], steps <= limit else {
        phase = 3
        return .deadEnd
      }
      cursor = to[t]
      steps += 1
      return .on(t)
    default:
      return nil
    }
  }
}
