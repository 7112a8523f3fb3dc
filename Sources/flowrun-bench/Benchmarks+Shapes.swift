import FlowBenchSupport
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
  static let ruleHeavy = Benchmark(name: "rule-heavy shapes", hasTargets: true) { context in
    guard let flowrun = context.flowrun, let python = context.python else {
      for name in ruleHeavyLayouts.map({ "rule-heavy, \($0)" }) + ["padded bundle"] {
        context.targets.append(
          BenchTarget(
            "#17 item 2: `check` / `json.load` time, \(name)", measured: nil, .atMost, 0.6, unit: .ratio,
            note: "needs flowrun and python3"))
      }
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
      let (checks, loads) = try context.measureAlternately(
        [flowrun, "check", path], [python, "-c", "import json,sys; json.load(open(sys.argv[1]))", path],
        runs: context.runs)
      let (time, reference) = (median(checks.map(\.seconds)), median(loads.map(\.seconds)))
      let (peak, referencePeak) = (checks.map(\.maxRSS).max() ?? 0, loads.map(\.maxRSS).max() ?? 0)
      let file = "\(name) (\(formatBytes(context.fileSize(path))))"
      context.targets.append(
        BenchTarget(
          "#17 item 2: `check` / `json.load` time, \(file)", measured: time / reference, .atMost, 0.6,
          unit: .ratio,
          note: "\(formatSeconds(time)) / \(formatSeconds(reference)), alternating, median of \(checks.count)"))
      context.targets.append(
        BenchTarget(
          "#17 item 2: `check` / `json.load` peak RSS, \(file)", measured: Double(peak) / Double(max(referencePeak, 1)),
          .atMost, 1, unit: .ratio, note: "\(formatBytes(peak)) / \(formatBytes(referencePeak))"))
      rows.append(
        Measurement(
          name: "check / json.load, \(file)", value: "\(fixed(time / reference, 2))x",
          detail:
            "check \(formatSeconds(time)) (\(spread(checks.map(\.seconds)))), json.load \(formatSeconds(reference)); peak RSS \(formatBytes(peak)) against \(formatBytes(referencePeak))"
        ))
    }
    return rows
  }
}
