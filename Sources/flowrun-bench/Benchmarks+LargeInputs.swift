import FlowBenchSupport
import FlowGenerator

extension Benchmark {
  /// Issue #23, row 22: large but honest inputs, each the shape on which a command used to do
  /// quadratic work, at the sizes the issue measured. Every command is spawned on each, alternately
  /// with `check` on the same file, and the medians compared (the target: within 2x its time);
  /// `check`'s peak RSS over `flowrun --version`'s is compared with the file size (the target:
  /// within 3x the file). `commands` are the ones compared with `check`, which runs on every file.
  static let largeInputShapes: [(shape: LargeShape, bytes: Int, commands: [String])] = [
    (.checklists, 12_000, ["render", "graph", "run", "paths"]),
    (.misspelt, 279_000, ["render", "graph", "run", "paths"]),
    (.manyFlows, 320_000, ["render", "graph", "run", "paths"]),
    (.lintChain, 7_600_000, ["check --format json", "render", "graph", "run"]),
  ]

  /// Files below this size get no memory target: the runtime's own pages, not the file, make
  /// most of their peak.
  static let memoryTargetMinimum = 1_000_000

  static let largeInputs = Benchmark(name: "large inputs", hasTargets: true) { context in
    guard let flowrun = context.flowrun else {
      context.targets.append(
        BenchTarget("#23 row 22: every command / `check`", measured: nil, .atMost, 2, unit: .ratio, note: "no flowrun"))
      return [Measurement(name: "large inputs", value: "skipped", detail: "no flowrun next to flowrun-bench")]
    }
    var files: [(name: String, path: String, commands: [String])] = []
    for (shape, bytes, commands) in largeInputShapes {
      let path = try context.input(
        "large-\(shape.rawValue)", arguments: ["--shape", shape.rawValue, "--target-bytes", "\(bytes)"])
      files.append((shape.rawValue, path, commands))
    }
    // The issue's 24 MB render: the bench's padded bundle (every block kind, long texts).
    files.append(
      ("padded bundle", try context.input("bundle", context.bigBundleOptions), ["render", "graph", "run"]))
    // The start-up's memory, arguments parsed and nothing read: `check --help` (`--version`
    // prints before ArgumentParser parses since the eighth round, 2.8 MB below that), its own
    // peak (`ownPeakRSS`: spawned from here it would read this process's size instead).
    let help = [flowrun, "check", "--help"]
    let baseline =
      context.python.flatMap { ownPeakRSS(help, runs: 5, python: $0) }
      ?? context.measureSpawn(help, runs: 5)?.map(\.maxRSS).min() ?? 0
    var rows = [
      Measurement(
        name: "flowrun check --help (start-up peak RSS, the baseline below)", value: formatBytes(baseline),
        detail: "min of 5")
    ]
    for (name, path, commands) in files {
      let size = context.fileSize(path)
      // Each command runs alternately with `check` on the same file, and its ratio is the
      // median of its runs over the median of those `check` runs: one slow or fast `check`
      // (timed once or three times before) decided a row at the 2x line.
      let pairs = size > 1_000_000 ? 5 : max(7, context.runs)
      let check = [flowrun, "check", path]
      var checkRuns: [ChildRun] = []
      var slowest: (command: String, ratio: Double)?
      var failed: [String] = []
      var commandRows: [Measurement] = []
      func describe(_ spawned: [ChildRun], ratio: String) -> String {
        let peak = spawned.map(\.maxRSS).max() ?? 0
        let growth = max(0, peak - baseline)
        let signal = spawned.contains { $0.signal != nil } ? ", KILLED BY A SIGNAL" : ""
        return
          "\(ratio)\(spread(spawned.map(\.seconds))), peak RSS \(formatBytes(peak)) (+\(formatBytes(growth)), \(fixed(Double(growth) / Double(max(size, 1)), 1))x the file), exit \(spawned[0].exitStatus.map(String.init) ?? "-")\(signal)"
      }
      for command in commands {
        let argv = [flowrun] + command.split(separator: " ").map(String.init) + [path]
        guard
          let (spawned, checks) = context.measureAlternating(
            argv, against: check, pairs: pairs, warmUp: size <= 1_000_000),
          !spawned.isEmpty
        else {
          failed.append(command)
          commandRows.append(Measurement(name: "\(command), \(name)", value: "failed", detail: "could not start"))
          continue
        }
        checkRuns += checks
        let time = median(spawned.map(\.seconds))
        let ratio = time / median(checks.map(\.seconds))
        if spawned.contains(where: { $0.signal != nil }) || checks.contains(where: { $0.signal != nil }) {
          failed.append(command)
        } else if ratio > slowest?.ratio ?? -1 {
          slowest = (command, ratio)
        }
        commandRows.append(
          Measurement(
            name: "\(command), \(name) (\(formatBytes(size)))", value: formatSeconds(time),
            detail: describe(
              spawned, ratio: "\(fixed(ratio, 2))x check (medians of \(pairs) runs alternating with it), ")))
      }
      if !checkRuns.isEmpty {
        let growth = max(0, (checkRuns.map(\.maxRSS).max() ?? 0) - baseline)
        if size >= memoryTargetMinimum {
          context.targets.append(
            BenchTarget(
              "#23 row 22: `check` memory / file, \(name) (\(formatBytes(size)))",
              measured: Double(growth) / Double(size), .atMost, 3, unit: .ratio,
              note: "peak RSS \(formatBytes(growth + baseline)) less `check --help`'s \(formatBytes(baseline))"))
        }
        rows.append(
          Measurement(
            name: "check, \(name) (\(formatBytes(size)))", value: formatSeconds(median(checkRuns.map(\.seconds))),
            detail: describe(checkRuns, ratio: "every run alternating with the commands below, ")))
      }
      rows += commandRows
      context.targets.append(
        BenchTarget(
          "#23 row 22: slowest command / `check`, \(name) (\(formatBytes(size)))",
          measured: failed.isEmpty ? slowest?.ratio : nil, .atMost, 2, unit: .ratio,
          note: failed.isEmpty
            ? slowest.map { "`\($0.command)`, medians of \(pairs) runs alternating with `check`" } ?? ""
            : "failed or killed: \(failed.joined(separator: ", "))"))
    }
    return rows
  }
}
