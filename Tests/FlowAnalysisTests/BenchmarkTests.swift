import FlowAnalysis
import FlowBenchSupport
import FlowFormat
import Foundation
import Testing

/// The benchmark hook on a small generated flow. FLOWRUN_BENCH_SCREENS=1001,10001 prints
/// timings of larger ones; with FLOWRUN_BENCH_OUT=DIR it only writes them (bench-N.json) so a
/// release build of `flowrun check` / `flowrun paths` can be timed on them.
@Suite struct BenchmarkTests {
  @Test func generatedFlowIsCleanAndCountsExactly() {
    let result = AnalysisBenchmark.run(screens: 81)
    #expect(result.diagnostics == 0)
    #expect(result.screens == 81)
    #expect(result.completedPaths == BigUInt.power(of2: 20))
    #expect(result.coveringPaths >= 2)
  }

  @Test func largeFlowsOnRequest() throws {
    let environment = ProcessInfo.processInfo.environment
    guard let sizes = environment["FLOWRUN_BENCH_SCREENS"] else { return }
    for size in sizes.split(separator: ",").compactMap({ Int($0) }) {
      if let directory = environment["FLOWRUN_BENCH_OUT"] {
        try AnalysisBenchmark.generateFlow(screens: size)
          .write(toFile: "\(directory)/bench-\(size).json", atomically: true, encoding: .utf8)
        continue  // time the files with a release build of flowrun
      }
      print("benchmark: \(AnalysisBenchmark.run(screens: size))")
    }
  }
}
