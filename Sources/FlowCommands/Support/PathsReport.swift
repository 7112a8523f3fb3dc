import FlowAnalysis
import FlowEngine
import FlowFormat

/// What `flowrun paths` found, printed as text or as one JSON object.
struct PathsReport {
  struct Coverage {
    var report: CoverageReport
    /// Scripts given, and those of them that ran this flow.
    var scripts: Int
    var used: Int
  }

  static let kinds = ["screen", "edge", "rule", "outcome"]

  var flow: String
  var states: Int
  var transitions: Int
  var stateLimit: Int?
  /// States at --max-depth that were not expanded.
  var depthLimited: Int
  var depthLimit: Int
  var counts: (completed: BigUInt, dismissed: BigUInt, cutCycles: Int)
  var reachable: [CoverageItem]
  var notes: [String]
  /// Why explored sessions failed (the step budget of an onEnter or rule loop, ...), each
  /// once, in the order first met: `paths` exits 1 when there is one.
  var failures: [String]
  /// The covering paths (their screens read from the state graph as each is written).
  var covering: (paths: [ExploredPath], unconfirmed: [CoverageItem])?
  /// For each covering path, the rules and outcomes it is the first to cover: with `--verbose`
  /// they tell apart paths whose screens read the same (an action answered differently).
  var coveringAdds: [[CoverageItem]] = []

  /// The items of each path that no earlier path has, rules and outcomes only (a new screen or
  /// edge shows in the screens themselves).
  static func newItems(_ paths: [ExploredPath]) -> [[CoverageItem]] {
    var seen: Set<CoverageItem> = []
    return paths.map { path in
      let items = path.items
      let new = items.filter { item in
        switch item {
        case .rule, .outcome: !seen.contains(item)
        case .screen, .edge: false
        }
      }
      seen.formUnion(items)
      return new
    }
  }
  /// With --emit: the directory and the scripts written into it.
  var emitted: (directory: String, files: [String])?
  var coverage: Coverage?

  init(flow: String, exploration: Exploration, maxStates: Int, maxDepth: Int) {
    self.flow = flow
    states = exploration.states.count
    transitions = exploration.transitions.count
    stateLimit = exploration.stateLimited ? maxStates : nil
    depthLimited = exploration.depthLimited
    depthLimit = maxDepth
    counts = exploration.pathCounts()
    reachable = exploration.reachableItems
    notes = exploration.notes
    var failures: [String] = []
    for state in exploration.states {
      guard case .failed(let message) = state.status, !failures.contains(message) else { continue }
      failures.append(message)
    }
    self.failures = failures
  }

  var isComplete: Bool { stateLimit == nil && depthLimited == 0 }

  /// The text report, handed to `write` in pieces of whole lines: the covering paths' lines
  /// are tens of megabytes on 10,000 screens, written as they are made instead of held whole.
  func text(verbose: Bool, write: (String) -> Void) {
    var out = "explored \(states) states, \(transitions) transitions\n"
    for note in notes { out += "note: \(note)\n" }
    if let stateLimit { out += "note: stopped at --max-states \(stateLimit); counts and coverage are lower bounds\n" }
    if depthLimited > 0 {
      out += "note: \(depthLimited) states at --max-depth \(depthLimit) were not expanded; counts are lower bounds\n"
    }
    let lower = isComplete ? "" : "≥ "
    out += "paths to completion: \(lower)\(counts.completed)\n"
    out += "paths to dismissal: \(lower)\(counts.dismissed)\n"
    if counts.cutCycles > 0 {
      out += "loops: \(counts.cutCycles) transitions close a cycle; paths count each loop at most once, not unrolled\n"
    }
    let tally = Self.kinds.map { kind in "\(reachable.count { $0.kindName == kind }) \(kind)s" }
    out += "reachable: \(tally.joined(separator: ", "))\n"
    if !failures.isEmpty {
      out += "error: \(failures.count == 1 ? "a session fails" : "sessions fail") on the way:\n"
      for failure in failures { out += "  \(failure)\n" }
    }
    if let coverage {
      let others = coverage.scripts - coverage.used
      out +=
        others == 0
        ? "coverage of \(coverage.used) script\(coverage.used == 1 ? "" : "s"):\n"
        : "coverage of \(coverage.used) of \(coverage.scripts) scripts (\(others) run another flow or cannot start a session):\n"
      for kind in Self.kinds {
        let (hit, total) = coverage.report.ratio(kind)
        out += "  \(kind)s: \(hit)/\(total)\n"
      }
      let (hit, total) = coverage.report.ratio()
      out += "  total: \(hit)/\(total) (\(Self.percent(coverage.report.percent)))\n"
      let uncovered = coverage.report.uncovered
      if !uncovered.isEmpty {
        out += "uncovered:\n"
        for item in uncovered { out += "  \(item)\n" }
      }
    }
    if let covering {
      out +=
        "covering set (greedy): \(covering.paths.count) paths cover every reachable screen, edge, rule and outcome\n"
      if !covering.unconfirmed.isEmpty {
        out += "note: \(covering.unconfirmed.count) items were reached but no replayed path confirmed them:\n"
        for item in covering.unconfirmed { out += "  \(item)\n" }
      }
      for (index, path) in covering.paths.enumerated() where verbose || emitted == nil {
        out += "  \(index + 1). \(path.screens.joined(separator: " → "))\n"
        if verbose, index < coveringAdds.count, !coveringAdds[index].isEmpty {
          out += "     first to cover: \(coveringAdds[index].map(\.description).joined(separator: "; "))\n"
        }
        if out.utf8.count >= 1 << 16 {
          write(out)
          out = ""
        }
      }
    }
    if let emitted { out += "wrote \(emitted.files.count) scripts to \(emitted.directory)\n" }
    write(out)
  }

  /// One pretty-printed JSON object; path counts are strings (they outgrow every number type).
  func json() -> String {
    typealias V = JSONWriter.Value
    func items(_ list: [CoverageItem]) -> V { .array(list.map { .string("\($0)") }) }
    var members: [(key: String, value: V)] = [
      ("flow", .string(flow)),
      ("states", .int(states)),
      ("transitions", .int(transitions)),
      ("complete", .bool(isComplete)),
      ("stateLimit", stateLimit.map { .int($0) } ?? .null),
      ("depthLimited", .int(depthLimited)),
      (
        "paths",
        .object([
          ("completed", .string("\(counts.completed)")), ("dismissed", .string("\(counts.dismissed)")),
          ("cutCycles", .int(counts.cutCycles)),
        ])
      ),
      ("reachable", .object(Self.kinds.map { kind in (kind + "s", .int(reachable.count { $0.kindName == kind })) })),
      ("failures", .array(failures.map { .string($0) })),
    ]
    if let coverage {
      let ratios: [(key: String, value: V)] = (Self.kinds.map(Optional.some) + [nil]).map { kind in
        let (hit, total) = coverage.report.ratio(kind)
        return (kind.map { $0 + "s" } ?? "total", .object([("covered", .int(hit)), ("reachable", .int(total))]))
      }
      members.append(
        (
          "coverage",
          .object(
            [("scripts", .int(coverage.scripts)), ("scriptsOfThisFlow", .int(coverage.used))] + ratios + [
              ("percent", .double(coverage.report.percent)), ("uncovered", items(coverage.report.uncovered)),
            ])
        ))
    }
    if let covering {
      members.append(
        (
          "coveringSet",
          .object([
            ("paths", .array(covering.paths.map { .array($0.screens.map { .string($0) }) })),
            ("unconfirmed", items(covering.unconfirmed)),
          ])
        ))
    }
    if let emitted { members.append(("emitted", .array(emitted.files.map { .string($0) }))) }
    if !notes.isEmpty { members.append(("notes", .array(notes.map { .string($0) }))) }
    return JSONWriter.pretty.string(.object(members)) + "\n"
  }

  static func percent(_ value: Double) -> String {
    let tenths = (value * 10).rounded() / 10
    return (tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)) + "%"
  }
}
