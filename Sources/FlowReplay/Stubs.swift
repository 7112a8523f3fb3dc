import FlowEngine
import FlowFormat

/// Reads replay scripts (YAML with Yams' node positions; JSON with `JSONParser`).
public enum ScriptParser {
  /// Reads and parses the script at `path`; an unreadable file is one `script.io` error.
  public static func load(path: String) -> ScriptParseResult {
    ScriptParseResult(script: nil, diagnostics: [], source: [])
  }

  /// Parses script text; `file` names it in diagnostics and is the base of relative paths.
  public static func parse(bytes: [UInt8], file: String) -> ScriptParseResult {
    ScriptParseResult(script: nil, diagnostics: [], source: bytes)
  }
}

/// Loads each flow file once, shared by every script of a run (thread-safe).
public final class FlowCache: @unchecked Sendable {
  public init() {}
  /// The load result of `path` (loaded on first use).
  public func load(path: String) -> LoadResult { FlowLoader.load(path: path) }
}

/// Replays scripts against the engine.
public enum Replayer {
  /// Runs one parsed script.
  public static func run(
    _ script: ReplayScript, cache: FlowCache = FlowCache(), options: ReplayOptions = ReplayOptions()
  ) -> ScriptOutcome {
    ScriptOutcome(file: script.file, name: script.name, status: .skipped)
  }

  /// Parses and runs the script at `path`.
  public static func run(
    path: String, cache: FlowCache = FlowCache(), options: ReplayOptions = ReplayOptions()
  ) -> ScriptOutcome {
    ScriptOutcome(file: path, name: path, status: .skipped)
  }
}

/// Finding, selecting and running many scripts: `flowrun test`.
public enum TestSuite {
  /// Script files for command-line arguments: files as given, directories expanded to every
  /// `*.flow-test.yaml` / `*.flow-test.json` below them (sorted). Missing paths are returned
  /// separately.
  public static func discover(_ arguments: [String]) -> (files: [String], missing: [String]) {
    (arguments, [])
  }

  /// Runs `files` on `jobs` threads; outcomes come back in the order of `files`. Files not
  /// selected (shard, filter) are left out; with `failFast`, scripts not started after the
  /// first failure are `skipped`.
  public static func run(
    _ files: [String], selection: TestSelection = TestSelection(), jobs: Int = 1,
    failFast: Bool = false, options: ReplayOptions = ReplayOptions(), cache: FlowCache = FlowCache(),
    onOutcome: (@Sendable (Int, ScriptOutcome) -> Void)? = nil
  ) -> [ScriptOutcome] {
    []
  }

  /// `N passed, N failed` (plus `, N skipped` when some were).
  public static func summaryLine(_ outcomes: [ScriptOutcome]) -> String { "" }
}

/// JUnit XML and JSON reports.
public enum ReplayReport {
  /// JUnit XML: testsuites/testsuite/testcase with failure/error elements.
  public static func junit(_ outcomes: [ScriptOutcome], suiteName: String = "flowrun") -> String { "" }
  /// A deterministic JSON report (durations aside).
  public static func json(_ outcomes: [ScriptOutcome]) -> String { "" }
}

/// Figures of one benchmark run.
public struct BenchmarkResult: Hashable, Sendable {
  public var scripts: Int
  public var stepsPerScript: Int
  public var seconds: Double
  public var scriptsPerSecond: Double
  /// Peak resident set size of the process, bytes (0 when unknown).
  public var peakMemoryBytes: Int
  public var failures: Int
}

/// Generates scripts for a sample flow and replays them: for `flowrun-bench`.
public enum ReplayBenchmark {
  /// Generates `count` scripts of `steps` steps for `flowPath` and replays them on `jobs` threads.
  public static func run(
    count: Int = 10_000, steps: Int = 20, flowPath: String = "sample-flows/fitness.json", jobs: Int = 1
  ) -> BenchmarkResult {
    BenchmarkResult(scripts: 0, stepsPerScript: steps, seconds: 0, scriptsPerSecond: 0, peakMemoryBytes: 0, failures: 0)
  }
}
