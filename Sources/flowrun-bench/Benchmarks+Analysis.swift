import FlowAnalysis
import FlowFormat
import FlowGenerator

extension Benchmark {
  /// The generated flows `paths` and `check` are measured on: one entry flow of 1,000 or
  /// 10,000 screens (every block kind, rules on 30 % of the screens, one experiment), clean
  /// under the lint rules and fully reachable.
  static let analysisSizes: [(name: String, screens: Int)] = [("paths-1k", 1_000), ("paths-10k", 10_000)]

  static func analysisOptions(screens: Int) -> FlowGenerator.Options {
    var options = FlowGenerator.Options()
    options.seed = UInt64(screens)
    options.screens = screens
    options.branching = 2
    options.ruleDensity = 0.3
    options.experiments = 1
    return options
  }

  /// `paths` on 1,000 and 10,000 screens. First `flowrun paths FILE` spawned on 1,000 screens
  /// (end to end: exploration, path count, covering set; its own peak RSS from `wait4`;
  /// spawned before the in-process work, while this process is small). Then the phases
  /// in-process through FlowAnalysis's public API on both sizes: exploration and the exact
  /// path count, and the greedy covering set (each path replayed through the engine) on
  /// 1,000 screens only: on 10,000 it takes minutes (docs/performance.md has a timed run of
  /// `flowrun paths` there). Peak RSS of this process is read after the 10,000-screen
  /// exploration.
  static let paths = Benchmark(name: "paths") { context in
    var rows: [Measurement] = []
    var inputs: [(screens: Int, path: String)] = []
    for (name, screens) in analysisSizes {
      inputs.append((screens, try context.input(name, analysisOptions(screens: screens))))
    }
    let runs = max(1, min(context.runs, 3))
    if let flowrun = context.flowrun, let small = inputs.first {
      rows.append(
        row(
          "flowrun paths, \(formatCount(Double(small.screens))) screens (spawned, end to end)",
          context.measureSpawn([flowrun, "paths", small.path], runs: runs, warmUp: false)))
      // Issue #17 item 3: the whole command on 10,000 screens, once (target: under 30 s).
      if let large = inputs.last, large.screens > small.screens {
        let runs = context.measureSpawn([flowrun, "paths", large.path], runs: 1, warmUp: false)
        var spawned = row(
          "flowrun paths, \(formatCount(Double(large.screens))) screens (spawned, end to end)", runs)
        let met = (runs?.first?.seconds ?? .infinity) < 30 ? "met" : "NOT MET"
        spawned.detail += "; target under 30 s: \(met)"
        rows.append(spawned)
      }
    }
    for (screens, path) in inputs {
      guard let document = FlowLoader.load(path: path).document else { throw BenchError("cannot load \(path)") }
      let big = screens > 2_000
      let label = "paths, \(formatCount(Double(screens))) screens"
      var exploration: Exploration?
      let exploreTimes = context.measure(runs: big ? 1 : runs, warmUp: !big) {
        exploration = nil
        exploration = PathExplorer(document: document).explore()
      }
      guard let exploration else { continue }
      let rss = selfMaxRSS()
      var counts: (completed: BigUInt, dismissed: BigUInt, cutCycles: Int)?
      let countTimes = context.measure(runs: big ? 1 : runs, warmUp: !big) { counts = exploration.pathCounts() }
      let reachable = exploration.reachableItems
      let screensReached = reachable.count { $0.kindName == "screen" }
      let total = document.flows.reduce(0) { $0 + $1.screens.count }
      rows.append(
        Measurement(
          name: "\(label): explore (in-process PathExplorer)", value: formatSeconds(median(exploreTimes)),
          detail:
            "\(spread(exploreTimes)), \(exploration.states.count) states, \(exploration.transitions.count) transitions\(exploration.isComplete ? "" : " (STOPPED AT A LIMIT)"), \(screensReached) of \(total) screens reached, \(reachable.count) coverage items, peak RSS so far \(formatBytes(rss))"
        ))
      rows.append(
        Measurement(
          name: "  count paths", value: formatSeconds(median(countTimes)),
          detail:
            "\(spread(countTimes)), \(describe(counts?.completed)) paths to completion, \(describe(counts?.dismissed)) to dismissal"
        ))
      if big {
        rows.append(
          Measurement(
            name: "  covering set (greedy, replayed)", value: "skipped",
            detail: "minutes at this size: not repeated here (docs/performance.md has a timed run)"))
      } else {
        var covering: (paths: [ExploredPath], unconfirmed: [CoverageItem])?
        let coverTimes = context.measure(runs: 1, warmUp: false) { covering = exploration.coveringSet() }
        rows.append(
          Measurement(
            name: "  covering set (greedy, replayed)", value: formatSeconds(median(coverTimes)),
            detail:
              "\(spread(coverTimes)), \(covering?.paths.count ?? 0) covering paths, \(covering?.unconfirmed.count ?? 0) unconfirmed items"
          ))
      }
    }
    return rows
  }

  /// `check` (load + lint) on the same flows: `flowrun check FILE` spawned, then in-process
  /// `FlowLoader.load` and `FlowChecker.check` (the lint rules of docs/checks.md) timed apart.
  static let check = Benchmark(name: "check") { context in
    var rows: [Measurement] = []
    var inputs: [(Int, String)] = []
    for (name, screens) in analysisSizes {
      inputs.append((screens, try context.input(name, analysisOptions(screens: screens))))
    }
    for (screens, path) in inputs {
      if let flowrun = context.flowrun {
        rows.append(
          row(
            "flowrun check, \(formatCount(Double(screens))) screens (spawned)",
            context.measureSpawn([flowrun, "check", path], runs: context.runs)))
      }
    }
    for (screens, path) in inputs {
      var loaded: LoadResult?
      let loadTimes = context.measure(runs: context.runs) { loaded = FlowLoader.load(path: path) }
      guard let loaded else { continue }
      var diagnostics: [Diagnostic] = []
      let lintTimes = context.measure(runs: context.runs) { diagnostics = FlowChecker.check(loaded) }
      rows.append(
        Measurement(
          name:
            "check \(formatCount(Double(screens))) screens (\(formatBytes(context.fileSize(path)))): load (in-process)",
          value: formatSeconds(median(loadTimes)),
          detail: "\(spread(loadTimes)), \(loaded.diagnostics.count) load diagnostics"))
      rows.append(
        Measurement(
          name: "  lint rules (FlowChecker.check)", value: formatSeconds(median(lintTimes)),
          detail: "\(spread(lintTimes)), \(LintRegistry.rules.count) rules, \(diagnostics.count) diagnostics"))
      // Where the lint time goes on the biggest flow: the shared context (graph, JSON paths)
      // alone, then each rule over it (one run each, context time subtracted).
      guard screens == analysisSizes.last?.screens else { continue }
      let base = median(context.measure(runs: 1, warmUp: false) { _ = FlowChecker.check(loaded, rules: []) })
      rows.append(
        Measurement(
          name: "    of which the check context (graph, JSON path index)", value: formatSeconds(base), detail: "n=1"))
      var perRule: [(String, Double)] = []
      for rule in LintRegistry.rules where !rule.isReportedByLoader {
        let time = median(context.measure(runs: 1, warmUp: false) { _ = FlowChecker.check(loaded, rules: [rule]) })
        perRule.append((rule.id, max(0, time - base)))
      }
      for (id, time) in perRule.sorted(by: { $0.1 > $1.1 }).prefix(4) {
        rows.append(
          Measurement(name: "    of which \(id)", value: formatSeconds(time), detail: "n=1, context time subtracted"))
      }
    }
    return rows
  }

  /// A path count, in digits when it is long.
  static func describe(_ count: BigUInt?) -> String {
    guard let text = count?.description else { return "?" }
    return text.count > 15 ? "\(text.prefix(4))… (\(text.count) digits)" : text
  }
}
