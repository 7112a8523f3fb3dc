import FlowBenchSupport
import FlowSupport

extension Benchmark {
  /// Screens of the piped walk (the corpus's `many-screens 1000`).
  static let pipedRunScreens = 1_000

  /// Issue #17 item 4: `flowrun run` on a chain of 1,000 screens with its walk piped in (`x`,
  /// then `1` for the button, on each screen: 2,000 lines, to completion), against `check` of
  /// the same flow, spawned alternately; the target is at most 2x `check`'s time.
  static let pipedRun = Benchmark(name: "piped run", hasTargets: true) { context in
    let target = "#17 item 4: piped \(grouped(pipedRunScreens))-screen `run` walk / `check`"
    guard let flowrun = context.flowrun else {
      context.targets.append(BenchTarget(target, measured: nil, .atMost, 2, unit: .ratio, note: "no flowrun"))
      return [Measurement(name: "piped run", value: "skipped", detail: "no flowrun next to flowrun-bench")]
    }
    let path = try context.input(
      "many-screens", arguments: ["--shape", "many-screens", "--target-bytes", "\(pipedRunScreens * 400)"])
    let walk = "\(context.directory)/many-screens.walk"
    if let problem = TextFile.write(String(repeating: "x\n1\n", count: pipedRunScreens), to: walk) {
      throw BenchError(problem)
    }
    let (runs, checks) = try context.measureAlternately(
      [flowrun, "run", path], [flowrun, "check", path], runs: context.runs, stdin: walk)
    let (time, reference) = (median(runs.map(\.seconds)), median(checks.map(\.seconds)))
    let completed = runs.allSatisfy { $0.exitStatus == 0 }
    context.targets.append(
      BenchTarget(
        target, measured: completed ? time / reference : nil, .atMost, 2, unit: .ratio,
        note: completed
          ? "\(formatSeconds(time)) / \(formatSeconds(reference)), alternating, median of \(runs.count)"
          : "the walk did not complete the flow (exit \(runs.first?.exitStatus.map(String.init) ?? "-"))"))
    return [
      row("flowrun run, \(grouped(pipedRunScreens)) screens, walk piped in (spawned)", runs),
      row("  flowrun check of the same flow (spawned, alternating)", checks),
    ]
  }
}
