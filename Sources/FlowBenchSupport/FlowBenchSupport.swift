// FlowBenchSupport: the benchmark workloads `flowrun-bench` runs and the tests check, kept out
// of the product (see Package.swift): they generate their inputs with FlowGenerator, which the
// shipped `flowrun` must not link.
//
// - `ReplayBenchmark`: generated replay scripts for the fitness sample, parsed and replayed.
// - `AnalysisBenchmark`: a generated flow of N screens through load, `check` and `paths`.

extension Duration {
  /// The duration in seconds.
  var seconds: Double {
    let (whole, attoseconds) = components
    return Double(whole) + Double(attoseconds) / 1e18
  }
}
