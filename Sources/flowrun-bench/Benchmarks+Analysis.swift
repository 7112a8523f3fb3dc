import FlowAnalysis
import FlowBenchSupport
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

  /// The budget for `paths`' peak memory on 10,000 screens (#17 item 3 asks for memory that
  /// follows the frontier, with no number: docs/performance.md, "Targets").
  static let pathsMemoryBudget = 1_000_000_000

  /// `flowrun paths FILE` spawned, end to end (exploration, path count, covering set; its own
  /// peak RSS from `wait4`): on 1,000 screens `runs` times, then once on 10,000 screens with its
  /// standard error on a pseudo-terminal, for #17 item 3's targets: under 30 s, the progress
  /// line shown, peak memory within ``pathsMemoryBudget``. Early in the run, while this process
  /// is small (a child's peak starts from its parent's).
  static let pathsSpawned = Benchmark(name: "paths (spawned)", hasTargets: true) { context in
    let targets = (
      time: "#17 item 3: `paths`, 10,000 screens", progress: "#17 item 3: its progress line on a terminal",
      memory: "#17 item 3: its peak RSS"
    )
    guard let flowrun = context.flowrun else {
      context.targets += [
        BenchTarget(targets.time, measured: nil, .below, 30, unit: .seconds, note: "no flowrun"),
        BenchTarget(targets.progress, measured: nil, .atLeast, 1, unit: .presence, note: "no flowrun"),
        BenchTarget(
          targets.memory, measured: nil, .atMost, Double(pathsMemoryBudget), unit: .bytes, note: "no flowrun"),
      ]
      return [Measurement(name: "paths (spawned)", value: "skipped", detail: "no flowrun next to flowrun-bench")]
    }
    var rows: [Measurement] = []
    let small = analysisSizes[0]
    let large = analysisSizes[analysisSizes.count - 1]
    if !context.targetsOnly {
      let path = try context.input(small.name, analysisOptions(screens: small.screens))
      rows.append(
        row(
          "flowrun paths, \(formatCount(Double(small.screens))) screens (spawned, end to end)",
          context.measureSpawn([flowrun, "paths", path], runs: max(1, min(context.runs, 3)), warmUp: false)))
    }
    let path = try context.input(large.name, analysisOptions(screens: large.screens))
    let run = spawn([flowrun, "paths", path], terminal: true)
    let ended = run.map { $0.exitStatus == 0 } ?? false
    let shown = run.map { String(decoding: $0.terminalOutput, as: UTF8.self).contains("states explored") }
    let cpu = run.map { "\(formatSeconds($0.cpuSeconds)) of CPU" } ?? ""
    context.targets += [
      BenchTarget(
        targets.time, measured: ended ? run?.seconds : nil, .below, 30, unit: .seconds,
        note: ended ? "wall time, one run; \(cpu)" : "did not end with exit 0"),
      BenchTarget(
        targets.progress, measured: shown.map { $0 ? 1 : 0 }, .atLeast, 1, unit: .presence,
        note: "standard error on a pseudo-terminal"),
      BenchTarget(
        targets.memory, measured: ended ? run.map { Double($0.maxRSS) } : nil, .atMost, Double(pathsMemoryBudget),
        unit: .bytes, note: "budget: the issue gives no number"),
    ]
    rows.append(
      row(
        "flowrun paths, \(formatCount(Double(large.screens))) screens (spawned, end to end, stderr a terminal)",
        run.map { [$0] })
    )
    rows[rows.count - 1].detail += "; \(cpu)"
    return rows
  }

  /// `paths` through FlowAnalysis's public API, in-process, on 1,000 and 10,000 screens: the
  /// exploration and the exact path count on both, the greedy covering set (each path replayed
  /// through the engine) on 1,000 screens only (the spawned benchmark runs the whole command on
  /// 10,000). Peak RSS of this process is read after each exploration.
  static let pathsInProcess = Benchmark(name: "paths (in-process)") { context in
    var rows: [Measurement] = []
    var inputs: [(screens: Int, path: String)] = []
    for (name, screens) in analysisSizes {
      inputs.append((screens, try context.input(name, analysisOptions(screens: screens))))
    }
    let runs = max(1, min(context.runs, 3))
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
