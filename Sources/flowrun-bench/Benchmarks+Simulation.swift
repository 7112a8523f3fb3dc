import FlowBenchSupport
import FlowFormat
import FlowGenerator
import FlowSimulation

extension Benchmark {
  /// Populations of the spawned `flowrun simulate` runs: the larger gives the rate, the two
  /// peaks whether memory grows with the users.
  static let simulatedPopulations = [100_000, 1_000_000]

  /// `flowrun simulate` (docs/simulate.md) over a generated 10-screen flow with rules: first the
  /// spawned command on every core at two population sizes (#14 item 6: at least 200,000 users/s
  /// end to end, a peak that does not grow with the users; spawned first, while this process is
  /// small, as a child's peak starts from its parent's), then in process on 1 and 2 threads.
  static let simulation = Benchmark(name: "simulate", hasTargets: true) { context in
    var options = FlowGenerator.Options()
    options.seed = 14
    options.screens = 10
    options.branching = 3
    options.ruleDensity = 0.5
    options.experiments = 1
    let path = try context.input("simulate", options)
    var rows: [Measurement] = []
    var spawned: [(users: Int, run: ChildRun)] = []
    for population in simulatedPopulations {
      guard let flowrun = context.flowrun,
        let run = spawn([flowrun, "simulate", path, "--users", "\(population)", "--format", "json"]),
        run.exitStatus == 0
      else {
        rows.append(Measurement(name: "flowrun simulate --users \(grouped(population))", value: "failed", detail: ""))
        continue
      }
      spawned.append((population, run))
      rows.append(
        Measurement(
          name: "flowrun simulate --users \(grouped(population)) (spawned)", value: formatSeconds(run.seconds),
          detail:
            "\(formatCount(Double(population) / run.seconds)) users/s end to end, \(formatSeconds(run.cpuSeconds)) of CPU, peak RSS \(formatBytes(run.maxRSS))"
        ))
    }
    let measured = spawned.count == simulatedPopulations.count
    let (small, large) = (spawned.first, spawned.last)
    context.targets += [
      BenchTarget(
        "#14 item 6: `simulate`, \(options.screens)-screen flow, every core",
        measured: large.map { Double($0.users) / $0.run.seconds },
        .atLeast, 200_000, unit: .perSecond("users"),
        note: large.map { "\(grouped($0.users)) users spawned, end to end" } ?? "did not run"),
      BenchTarget(
        "#14 item 6: its peak RSS, \(grouped(simulatedPopulations.last ?? 0)) / \(grouped(simulatedPopulations.first ?? 0)) users",
        measured: measured ? Double(large?.run.maxRSS ?? 0) / Double(max(small?.run.maxRSS ?? 1, 1)) : nil, .atMost,
        1.1,
        unit: .ratio,
        note: measured
          ? "\(formatBytes(large?.run.maxRSS ?? 0)) / \(formatBytes(small?.run.maxRSS ?? 0))" : "did not run"),
    ]
    guard !context.targetsOnly else { return rows }
    guard let document = FlowLoader.load(path: path).document else { throw BenchError("cannot load \(path)") }
    let plan = SimulationPlan(document: document, seed: 1)
    // Each thread after the first walks its own plan, as `flowrun simulate` does.
    let copy: @Sendable () -> SimulationPlan? = {
      FlowLoader.load(path: path).document.map { SimulationPlan(document: $0, seed: 1) }
    }
    let users = 100_000
    for jobs in [1, 2] {
      let times = context.measure(runs: context.runs) {
        _ = Simulation.run(plan, users: 0..<users, jobs: jobs, copy: copy)
      }
      rows.append(
        Measurement(
          name: "simulate, \(jobs) thread\(jobs == 1 ? "" : "s")",
          value: "\(formatCount(Double(users) / median(times))) users/s",
          detail: "\(grouped(users)) users of a \(options.screens)-screen flow with rules, \(spread(times))"))
    }
    return rows
  }
}
