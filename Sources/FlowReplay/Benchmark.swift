import FlowEngine
import FlowFormat

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
