import FlowExpression
import FlowFormat
import FlowGenerator

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One row of the results table.
struct Measurement {
  var name: String
  /// The median, formatted (`412.3 ms`, `1.2 M steps/s`), or `skipped`.
  var value: String
  /// Spread and context: min/max, runs, throughput, peak memory.
  var detail: String
}

/// A benchmark: a name and a body that measures something and returns table rows.
///
/// To add one (engine steps/sec, replaying 10,000 scripts, `paths` on 1,000 and 10,000
/// screens), write a `static let` below and append it to ``Benchmark/all``. Use
/// ``BenchContext/input(_:_:)`` for generated inputs (they are built once per run and shared),
/// ``BenchContext/measure(runs:_:)`` for in-process timings and
/// ``BenchContext/measureSpawn(_:runs:)`` for child processes.
struct Benchmark: Sendable {
  var name: String
  var run: @Sendable (inout BenchContext) throws -> [Measurement]

  static let all: [Benchmark] = [
    loadAndCheck,
    spawnedParsers,
    startup,
    // Extension points, added by the features' owners when they land:
    // .engineStepsPerSecond   (FlowEngine: reduce a generated flow's inputs in a loop)
    // .replayScripts10k       (FlowReplay: 10,000 generated scripts over one bundle)
    // .paths1kAnd10k          (FlowAnalysis: `paths` on 1,000 and 10,000 screens;
    //                          `context.input("paths-10k", options)` with screens: 10_000)
  ]

  /// In-process `FlowLoader.load(path:)` of the big bundle: read, parse, decode, check.
  static let loadAndCheck = Benchmark(name: "load+check") { context in
    let path = try context.input("bundle", context.bigBundleOptions)
    let size = context.fileSize(path)
    var errors = 0
    var diagnostics = 0
    let times = context.measure(runs: context.runs) {
      let result = FlowLoader.load(path: path)
      diagnostics = result.diagnostics.count
      errors = result.diagnostics.count { $0.severity == .error }
    }
    let parseTimes = context.measure(runs: context.runs) {
      let bytes = FlowLoader.readFile(path) ?? []
      _ = JSONParser.parse(bytes, file: path)
    }
    var rows = [
      Measurement(
        name: "load+check \(formatBytes(size)) bundle (in-process)",
        value: formatSeconds(median(times)),
        detail: "\(spread(times)), \(formatRate(Double(size) / median(times))), \(diagnostics) diagnostics (\(errors) errors)"),
      Measurement(
        name: "  of which read + JSON parse", value: formatSeconds(median(parseTimes)),
        detail: "\(spread(parseTimes)), \(formatRate(Double(size) / median(parseTimes)))"),
      Measurement(
        name: "peak RSS of flowrun-bench so far (getrusage)", value: formatBytes(selfMaxRSS()),
        detail: "includes the generator's buffers"),
    ]
    if let flowrun = context.flowrun {
      let runs = context.measureSpawn([flowrun, "check", path], runs: context.runs)
      rows.append(
        Measurement(
          name: "flowrun check (spawned)", value: runs.map { formatSeconds(median($0.map(\.seconds))) } ?? "failed",
          detail: runs.map { "\(spread($0.map(\.seconds))), peak RSS \(formatBytes($0.map(\.maxRSS).max() ?? 0)), exit \($0[0].exitStatus.map(String.init) ?? "signal")" } ?? ""))
    }
    return rows
  }

  /// The same file through jq and Python's json module, for reference.
  static let spawnedParsers = Benchmark(name: "reference parsers") { context in
    let path = try context.input("bundle", context.bigBundleOptions)
    var rows: [Measurement] = []
    if let jq = which("jq") {
      // `jq . FILE > /dev/null`: stdout is /dev/null for every spawned child.
      let runs = context.measureSpawn([jq, ".", path], runs: context.runs)
      rows.append(row("jq . > /dev/null (spawned)", runs))
    } else {
      rows.append(Measurement(name: "jq . > /dev/null", value: "skipped", detail: "jq not found on PATH"))
    }
    if let python = context.python {
      let runs = context.measureSpawn(
        [python, "-c", "import json,sys; json.load(open(sys.argv[1]))", path], runs: context.runs)
      rows.append(row("python3 json.load (spawned)", runs))
      let empty = context.measureSpawn([python, "-c", "import json"], runs: context.runs)
      rows.append(row("  python3 -c 'import json' alone", empty))
    } else {
      rows.append(Measurement(name: "python3 json.load", value: "skipped", detail: "python3 not found on PATH"))
    }
    return rows
  }

  /// `flowrun --version`, spawned: process start-up, dynamic linking, argument parsing.
  static let startup = Benchmark(name: "start-up") { context in
    guard let flowrun = context.flowrun else {
      return [Measurement(name: "flowrun --version", value: "skipped", detail: "no flowrun next to flowrun-bench")]
    }
    let runs = context.measureSpawn([flowrun, "--version"], runs: context.startupRuns)
    var rows = [row("flowrun --version (spawned, \(context.startupRuns) runs)", runs)]
    if access("/bin/true", X_OK) == 0 {
      rows.append(row("  /bin/true (spawn overhead)", context.measureSpawn(["/bin/true"], runs: context.startupRuns)))
    }
    return rows
  }

  static func row(_ name: String, _ runs: [ChildRun]?) -> Measurement {
    guard let runs, !runs.isEmpty else { return Measurement(name: name, value: "failed", detail: "could not start") }
    let times = runs.map(\.seconds)
    let status = runs.allSatisfy { $0.exitStatus == 0 } ? "" : ", NOT ALL EXITED 0"
    return Measurement(
      name: name, value: formatSeconds(median(times)),
      detail: "\(spread(times)), peak RSS \(formatBytes(runs.map(\.maxRSS).max() ?? 0))\(status)")
  }
}

/// Shared state of one benchmark run: options, the temp directory and the generated inputs.
struct BenchContext {
  var directory: String
  var runs: Int
  var startupRuns: Int
  var sizeBytes: Int
  /// The `flowrun` executable next to this one, if present.
  var flowrun: String?
  /// The real Python interpreter (not a pyenv shim), if present.
  var python: String?
  private var inputs: [String: String] = [:]

  init(directory: String, runs: Int, startupRuns: Int, sizeBytes: Int, flowrun: String?, python: String?) {
    self.directory = directory
    self.runs = runs
    self.startupRuns = startupRuns
    self.sizeBytes = sizeBytes
    self.flowrun = flowrun
    self.python = python
  }

  /// The big bundle: sub-flows, experiments, rules, every block kind, padded to the size.
  var bigBundleOptions: FlowGenerator.Options {
    var options = FlowGenerator.Options()
    options.seed = 2026
    options.screens = 400
    options.branching = 3
    options.ruleDensity = 0.4
    options.experiments = 3
    options.subflows = 6
    options.subflowScreens = 12
    options.targetBytes = sizeBytes
    return options
  }

  /// The path of a generated input, writing it on first use.
  mutating func input(_ name: String, _ options: FlowGenerator.Options) throws -> String {
    if let path = inputs[name] { return path }
    let path = "\(directory)/\(name).json"
    let start = now()
    let bytes = FlowGenerator(options).generate()
    guard writeFile(path, bytes) else { throw BenchError("cannot write \(path)") }
    log("generated \(path) (\(formatBytes(bytes.count))) in \(formatSeconds(now() - start))")
    inputs[name] = path
    return path
  }

  func fileSize(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
  }

  /// Runs `body` once to warm up, then `runs` times; returns the durations in seconds.
  func measure(runs: Int, _ body: () -> Void) -> [Double] {
    body()
    return (0..<max(1, runs)).map { _ in
      let start = now()
      body()
      return now() - start
    }
  }

  /// Spawns `argv` once to warm the page cache, then `runs` times; nil if it cannot start.
  func measureSpawn(_ argv: [String], runs: Int) -> [ChildRun]? {
    guard spawn(argv) != nil else { return nil }
    var results: [ChildRun] = []
    for _ in 0..<max(1, runs) {
      guard let run = spawn(argv) else { return nil }
      results.append(run)
    }
    return results
  }
}

struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

func log(_ text: String) {
  _ = writeAll(STDERR_FILENO, Array((text + "\n").utf8))
}

// MARK: - Statistics and formatting

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return 0 }
  let mid = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

func spread(_ values: [Double]) -> String {
  "min \(formatSeconds(values.min() ?? 0)), max \(formatSeconds(values.max() ?? 0)), n=\(values.count)"
}

func formatSeconds(_ s: Double) -> String {
  s < 1 ? "\(fixed(s * 1000, 1)) ms" : "\(fixed(s, 2)) s"
}

func formatBytes(_ n: Int) -> String {
  n >= 1_000_000 ? "\(fixed(Double(n) / 1e6, 1)) MB" : n >= 1000 ? "\(fixed(Double(n) / 1e3, 1)) kB" : "\(n) B"
}

func formatRate(_ bytesPerSecond: Double) -> String {
  "\(fixed(bytesPerSecond / 1e6, 1)) MB/s"
}

/// `value` with `digits` fraction digits, without Foundation.
func fixed(_ value: Double, _ digits: Int) -> String {
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let scaled = Int((abs(value) * scale).rounded())
  let whole = scaled / Int(scale)
  var fraction = String(scaled % Int(scale))
  while fraction.count < digits { fraction = "0" + fraction }
  return (value < 0 && scaled != 0 ? "-" : "") + String(whole) + (digits > 0 ? "." + fraction : "")
}
