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

  /// `paths` on 1,000 and 10,000 screens: first `flowrun paths FILE` spawned (end to end, with
  /// its own peak RSS from `wait4`; spawned before the in-process work, while this process is
  /// small), then the phases in-process through FlowAnalysis's public API: exploration,
  /// the exact path count and the greedy covering set (each replayed through the engine).
  static let paths = Benchmark(name: "paths") { context in
    var rows: [Measurement] = []
    var inputs: [(String, Int, String)] = []
    for (name, screens) in analysisSizes {
      inputs.append((name, screens, try context.input(name, analysisOptions(screens: screens))))
    }
    let runs = max(1, min(context.runs, 3))
    for (_, screens, path) in inputs {
      if let flowrun = context.flowrun {
        rows.append(row("flowrun paths, \(formatCount(Double(screens))) screens (spawned)", context.measureSpawn([flowrun, "paths", path], runs: runs)))
      }
    }
    for (_, screens, path) in inputs {
      guard let document = FlowLoader.load(path: path).document else { throw BenchError("cannot load \(path)") }
      let label = "paths, \(formatCount(Double(screens))) screens"
      var exploration: Exploration?
      let exploreTimes = context.measure(runs: runs) {
        exploration = PathExplorer(document: document).explore()
      }
      guard let exploration else { continue }
      var counts: (completed: BigUInt, dismissed: BigUInt, cutCycles: Int)?
      let countTimes = context.measure(runs: runs) { counts = exploration.pathCounts() }
      var covering: (paths: [ExploredPath], unconfirmed: [CoverageItem])?
      let coverTimes = context.measure(runs: runs) { covering = exploration.coveringSet() }
      let reachable = exploration.reachableItems
      let screensReached = reachable.count { $0.kindName == "screen" }
      let total = document.flows.reduce(0) { $0 + $1.screens.count }
      rows.append(
        Measurement(
          name: "\(label): explore (in-process PathExplorer)", value: formatSeconds(median(exploreTimes)),
          detail:
            "\(spread(exploreTimes)), \(exploration.states.count) states, \(exploration.transitions.count) transitions\(exploration.isComplete ? "" : " (STOPPED AT A LIMIT)"), \(screensReached) of \(total) screens reached, \(reachable.count) coverage items"
        ))
      rows.append(
        Measurement(
          name: "  count paths", value: formatSeconds(median(countTimes)),
          detail: "\(spread(countTimes)), \(describe(counts?.completed)) paths to completion, \(describe(counts?.dismissed)) to dismissal"))
      rows.append(
        Measurement(
          name: "  covering set (greedy, replayed)", value: formatSeconds(median(coverTimes)),
          detail: "\(spread(coverTimes)), \(covering?.paths.count ?? 0) covering paths, \(covering?.unconfirmed.count ?? 0) unconfirmed items"))
    }
    rows.append(
      Measurement(
        name: "peak RSS of flowrun-bench after paths (getrusage)", value: formatBytes(selfMaxRSS()),
        detail: "the whole process so far: meaningful with --only paths"))
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
        rows.append(row("flowrun check, \(formatCount(Double(screens))) screens (spawned)", context.measureSpawn([flowrun, "check", path], runs: context.runs)))
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
          name: "check \(formatCount(Double(screens))) screens (\(formatBytes(context.fileSize(path)))): load (in-process)",
          value: formatSeconds(median(loadTimes)), detail: "\(spread(loadTimes)), \(loaded.diagnostics.count) load diagnostics"))
      rows.append(
        Measurement(
          name: "  lint rules (FlowChecker.check)", value: formatSeconds(median(lintTimes)),
          detail: "\(spread(lintTimes)), \(LintRegistry.rules.count) rules, \(diagnostics.count) diagnostics"))
    }
    return rows
  }

  /// A path count, in digits when it is long.
  static func describe(_ count: BigUInt?) -> String {
    guard let text = count?.description else { return "?" }
    return text.count > 15 ? "\(text.prefix(4))… (\(text.count) digits)" : text
  }
}
