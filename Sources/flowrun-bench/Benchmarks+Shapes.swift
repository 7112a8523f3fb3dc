import FlowGenerator

extension Benchmark {
  /// The rule-heavy flow of issue #17: 20,000 screens at the default size (scaled with
  /// `--size-mb`), rules on half of them, up to two each (0.65 rules per screen, expression
  /// strings and structured conditions), a template in 80 % of the texts once a field is collected.
  static func ruleHeavyArguments(sizeBytes: Int) -> [String] {
    var options = FlowGenerator.Options()
    options.seed = 17
    options.screens = max(100, sizeBytes / 1_000)
    options.branching = 2
    options.ruleDensity = 0.5
    options.experiments = 2
    return options.commandLine + ["--template-share", "0.8"]
  }

  /// The layouts of the same document the issue compares (one-space indent, minified, four).
  static let ruleHeavyLayouts = ["indent=1", "minified", "indent=4"]

  /// Issue #17 items 1 and 2: `flowrun check` against Python's `json.load` on the same file,
  /// spawned alternately (one, then the other, `runs` times) so both see the same machine; the
  /// target is at most 0.6x the time and at most the peak memory. The rule-heavy flow in three
  /// layouts, then the padded bundle of `reference parsers`.
  static let ruleHeavy = Benchmark(name: "rule-heavy shapes") { context in
    guard let flowrun = context.flowrun, let python = context.python else {
      return [Measurement(name: "rule-heavy shapes", value: "skipped", detail: "needs flowrun and python3")]
    }
    var files: [(String, String)] = []
    for layout in ruleHeavyLayouts {
      let path = try context.input(
        "rule-heavy-\(layout)", arguments: ruleHeavyArguments(sizeBytes: context.sizeBytes) + ["--layout", layout])
      files.append(("rule-heavy, \(layout)", path))
    }
    files.append(("padded bundle", try context.input("bundle", context.bigBundleOptions)))
    var rows: [Measurement] = []
    for (name, path) in files {
      let check = [flowrun, "check", path]
      let load = [python, "-c", "import json,sys; json.load(open(sys.argv[1]))", path]
      _ = context.measureSpawn(check, runs: 1, warmUp: false)
      var checks: [ChildRun] = []
      var loads: [ChildRun] = []
      for _ in 0..<max(1, context.runs) {
        guard let c = context.measureSpawn(check, runs: 1, warmUp: false),
          let l = context.measureSpawn(load, runs: 1, warmUp: false)
        else { throw BenchError("cannot spawn flowrun or python3") }
        checks += c
        loads += l
      }
      let (time, reference) = (median(checks.map(\.seconds)), median(loads.map(\.seconds)))
      let (peak, referencePeak) = (checks.map(\.maxRSS).max() ?? 0, loads.map(\.maxRSS).max() ?? 0)
      let met = time <= 0.6 * reference && peak <= referencePeak ? "met" : "NOT MET"
      rows.append(
        Measurement(
          name: "check / json.load, \(name) (\(formatBytes(context.fileSize(path))))",
          value: "\(fixed(time / reference, 2))x",
          detail:
            "target 0.6x and peak RSS at most json.load's: \(met); check \(formatSeconds(time)) (\(spread(checks.map(\.seconds)))), json.load \(formatSeconds(reference)); peak RSS \(formatBytes(peak)) against \(formatBytes(referencePeak))"
        ))
    }
    return rows
  }
}
