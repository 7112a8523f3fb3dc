import FlowEngine

/// The state graph's links as flat arrays of numbers, for the covering set's rounds: they
/// follow links millions of times on 10,000 screens, and reading them out of `states` and
/// `transitions` (structs holding arrays) retained and released those arrays at every step.
struct CoveringGraph {
  /// Per state: the transition that first reached it (-1: a root), whether the session ended.
  let parent: [Int]
  let ended: [Bool]
  /// Per transition: the states it leaves and reaches.
  let from: [Int]
  let to: [Int]
  /// The states in post-order (successors first, as `countedTransitions` walks them) and each
  /// one's place in it (-1: not in it, only reached by `back`).
  let postorder: [Int]
  let place: [Int]
  /// Counted transitions (path steps) out of the state at each place, in the state's order:
  /// `outgoing[outgoingStart[i]..<outgoingStart[i + 1]]`.
  let outgoingStart: [Int]
  let outgoing: [Int]
  /// Counted transitions into each state.
  let incoming: Buckets<Int>

  init(_ exploration: Exploration) {
    let (states, transitions) = (exploration.states, exploration.transitions)
    parent = states.map { $0.parent ?? -1 }
    ended = states.map { $0.status.isEnded }
    from = transitions.map(\.from)
    to = transitions.map(\.to)
    let (counted, _, postorder) = exploration.countedTransitions()
    self.postorder = postorder
    var place = [Int](repeating: -1, count: states.count)
    for (i, state) in postorder.enumerated() { place[state] = i }
    self.place = place
    var outgoingStart = [0]
    var outgoing: [Int] = []
    for state in postorder {
      outgoing += states[state].outgoing.filter { counted[$0] }
      outgoingStart.append(outgoing.count)
    }
    (self.outgoingStart, self.outgoing) = (outgoingStart, outgoing)
    let targets = to
    incoming = Buckets(
      keys: states.count, pairs: transitions.indices.filter { counted[$0] }.map { (targets[$0], $0) }, filler: 0)
  }
}

/// For every state, the most uncovered items a path of counted transitions from it to an
/// ending collects (an item met twice counts twice) and the transition it takes first; kept up
/// to date as items get covered. A state is worked out again only when something it reads
/// changed (its transitions' gains, its successors' self-loop gains or values): later rounds
/// touch a small part of a 10,000-screen graph, and every round worked out all of it before.
struct BestPaths {
  /// Per state: the gain (-1: no ending reachable) and the first transition (-1: none).
  private(set) var value: [Int]
  private(set) var choice: [Int]
  /// Places (in post-order) to work out again, and the lowest of them.
  private var stale: [Bool]
  private var lowest = 0

  init(_ graph: CoveringGraph) {
    value = [Int](repeating: -1, count: graph.parent.count)
    choice = value
    stale = [Bool](repeating: true, count: graph.postorder.count)
  }

  private mutating func mark(_ state: Int, _ graph: CoveringGraph) {
    let place = graph.place[state]
    guard place >= 0 else { return }
    stale[place] = true
    lowest = min(lowest, place)
  }

  /// A transition's gain changed.
  mutating func transitionChanged(_ t: Int, _ graph: CoveringGraph) { mark(graph.from[t], graph) }

  /// A state's self-loop gain changed: the states with a counted transition to it read it.
  mutating func selfLoopsChanged(_ state: Int, _ graph: CoveringGraph) {
    for t in graph.incoming[state] { mark(graph.from[t], graph) }
  }

  /// Works out the stale states again, successors first; a state whose value changed makes
  /// its predecessors stale (they come later in post-order).
  mutating func update(_ graph: CoveringGraph, transitionGain: [Int], selfLoopGain: [Int]) {
    var place = lowest
    while place < stale.count {
      defer { place += 1 }
      guard stale[place] else { continue }
      stale[place] = false
      let state = graph.postorder[place]
      var (best, first) = (-1, -1)
      if graph.ended[state] {
        best = 0
      } else {
        for i in graph.outgoingStart[place]..<graph.outgoingStart[place + 1] {
          let t = graph.outgoing[i]
          let next = graph.to[t]
          guard value[next] >= 0 else { continue }
          let gain = transitionGain[t] + selfLoopGain[next] + value[next]
          if gain > best { (best, first) = (gain, t) }
        }
      }
      choice[state] = first
      guard best != value[state] else { continue }
      value[state] = best
      for t in graph.incoming[state] {
        let before = graph.place[graph.from[t]]
        if before >= 0 { stale[before] = true }
      }
    }
    lowest = stale.count
  }
}
