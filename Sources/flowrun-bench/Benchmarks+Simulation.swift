import FlowFormat
import FlowGenerator
import FlowSimulation

extension Benchmark {
  /// `flowrun simulate` (docs/simulate.md): simulated users per second over a generated
  /// 10-screen flow with rules, in process on 1 and 2 threads; then the spawned command at two
  /// population sizes, whose peak memory should not grow with the users.
  static let simulation = Benchmark(name: "simulate") { context in
    var options = FlowGenerator.Options()
    options.seed = 14
    options.screens = 10
    options.branching = 3
    options.ruleDensity = 0.5
    options.experiments = 1
    let path = try context.input("simulate", options)
    guard let document = FlowLoader.load(path: path).document else { throw BenchError("cannot load \(path)") }
    let plan = SimulationPlan(document: document, seed: 1)
    let users = 100_000
    var rows: [Measurement] = []
    for jobs in [1, 2] {
      let times = context.measure(runs: context.runs) { _ = Simulation.run(plan, users: 0..<users, jobs: jobs) }
      rows.append(
        Measurement(
          name: "simulate, \(jobs) thread\(jobs == 1 ? "" : "s")",
          value: "\(formatCount(Double(users) / median(times))) users/s",
          detail: "\(grouped(users)) users of a \(options.screens)-screen flow with rules, \(spread(times))"))
    }
    guard let flowrun = context.flowrun else { return rows }
    for population in [100_000, 1_000_000] {
      let runs = context.measureSpawn(
        [flowrun, "simulate", path, "--users", "\(population)", "--format", "json"], runs: 1, warmUp: false)
      guard let run = runs?.first, run.exitStatus == 0 else {
        rows.append(Measurement(name: "flowrun simulate --users \(grouped(population))", value: "failed", detail: ""))
        continue
      }
      rows.append(
        Measurement(
          name: "flowrun simulate --users \(grouped(population)) (spawned)", value: formatSeconds(run.seconds),
          detail:
            "\(formatCount(Double(population) / run.seconds)) users/s end to end, peak RSS \(formatBytes(run.maxRSS))"))
    }
    return rows
  }
}
