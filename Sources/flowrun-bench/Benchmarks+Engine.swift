import FlowBenchSupport
import FlowEngine
import FlowExpression
import FlowFormat
import FlowGenerator
import FlowReplay
import FlowSupport

extension Benchmark {
  /// Engine steps per second: `Session.send` over input lists recorded beforehand, so the
  /// timing covers the reducer alone (choosing inputs reads `actions`, which is not a step).
  /// The outputs go to one reused buffer (`send(_:into:)`), as a driver that reads each step's
  /// outputs before the next would use it.
  /// Two benchmarks, so `--only` can pick one mode (e.g. under callgrind).
  static let engineSteps = engineSteps(keepHistory: true)
  static let engineStepsExplorer = engineSteps(keepHistory: false)

  static func engineSteps(keepHistory: Bool) -> Benchmark {
    Benchmark(name: keepHistory ? "engine steps (history)" : "engine steps (explorer)", hasTargets: !keepHistory) {
      context in
      var options = FlowGenerator.Options()
      options.seed = 11
      options.screens = 60
      options.branching = 3
      options.ruleDensity = 0.5
      let path = try context.input("engine", options)
      guard let document = FlowLoader.load(path: path).document else { throw BenchError("cannot load \(path)") }
      let walks = recordWalks(document, count: 400, length: 80)
      let steps = walks.reduce(0) { $0 + $1.count }
      // Explorer mode reads no events either (as a driver that only follows screens would).
      let config = SessionConfig(now: 1_767_225_600_000, recordsHistory: keepHistory, emitsEvents: keepHistory)
      let times = context.measure(runs: context.runs) {
        var outputs: [Output] = []
        for walk in walks {
          guard var session = try? Session.start(document: document, config: config).0 else { continue }
          for input in walk { session.send(input, into: &outputs) }
        }
      }
      let perSecond = Double(steps) / median(times)
      if !keepHistory {
        // #17 item 5 keeps the first round's target, met in the mode explorers and simulators use.
        context.targets.append(
          BenchTarget(
            "#17 item 5: engine steps, explorer mode (no history)", measured: perSecond, .atLeast, 1_000_000,
            unit: .perSecond("steps"), note: "in process, \(steps) steps, median of \(times.count)"))
      }
      return [
        Measurement(
          name: "engine steps/s (\(keepHistory ? "events and trace kept" : "explorer mode, no history"))",
          value: "\(formatCount(perSecond)) steps/s",
          detail: "\(steps) steps in \(walks.count) walks over a \(options.screens)-screen flow, \(spread(times))")
      ]
    }
  }

  /// Replays 10,000 generated 20-step scripts of the fitness sample flow (run from the
  /// repository root, where `sample-flows/` is).
  static let replayScripts = Benchmark(name: "replay scripts", hasTargets: true) { context in
    let flow = "sample-flows/fitness.json"
    guard context.fileSize(flow) > 0 else {
      context.targets.append(
        BenchTarget(
          "#17 item 5: 10,000 scripts replayed", measured: nil, .below, 5, unit: .seconds,
          note: "run from the repository root"))
      return [Measurement(name: "replay 10,000 scripts", value: "skipped", detail: "run from the repository root")]
    }
    var rows: [Measurement] = []
    let count = context.replayScripts
    // The spawned runs first, while this process is small (see `Benchmark.all`).
    let spawned = try replayFiles(&context, flow: flow, count: count)
    for jobs in context.replayJobs where !context.targetsOnly {
      let result = ReplayBenchmark.run(count: count, steps: 20, flowPath: flow, jobs: jobs)
      let parsePerScript = result.parseSeconds / Double(max(count, 1)) * 1e6
      rows.append(
        Measurement(
          name: "replay \(grouped(count)) scripts of 20 steps, \(jobs) job\(jobs == 1 ? "" : "s")",
          value: formatSeconds(result.seconds),
          detail:
            "\(formatCount(result.scriptsPerSecond)) scripts/s, YAML parsing \(formatSeconds(result.parseSeconds)) of it (\(fixed(parsePerScript, 0)) µs per script, summed over threads), peak RSS \(formatBytes(result.peakMemoryBytes)), \(result.failures) failures"
        ))
    }
    return rows + spawned
  }

  /// The same scripts as files replayed by a spawned `flowrun test DIR` (what CI runs): adds
  /// reading, directory walking, the JUnit report and the process around the replays.
  /// #17 item 5's target reads each job count's median (10,000 scripts under 5 s).
  static func replayFiles(_ context: inout BenchContext, flow: String, count: Int) throws -> [Measurement] {
    guard let flowrun = context.flowrun else { return [] }
    let directory = "\(context.directory)/replay-scripts"
    guard let flowBytes = try? TextFile.read(flow, limit: .flow).get(),
      TextFile.write(
        String(decoding: flowBytes, as: UTF8.self), to: "\(directory)/fitness.json", createDirectories: true) == nil
    else { throw BenchError("cannot write \(directory)") }
    for index in 0..<count {
      let script = ReplayBenchmark.fitnessScript(seed: UInt64(index), steps: 20, flow: "fitness.json")
      if let problem = TextFile.write(script, to: "\(directory)/bench-\(index).flow-test.yaml") {
        throw BenchError(problem)
      }
    }
    var rows: [Measurement] = []
    for jobs in context.replayJobs {
      let runs = context.measureSpawn(
        [flowrun, "test", directory, "--jobs", "\(jobs)", "--junit", "\(context.directory)/replay-junit.xml"],
        runs: context.runs)
      let passed = runs?.allSatisfy { $0.exitStatus == 0 } ?? false
      context.targets.append(
        BenchTarget(
          "#17 item 5: \(grouped(count)) scripts replayed, `flowrun test DIR --jobs \(jobs)`",
          measured: passed ? runs.map { median($0.map(\.seconds)) } : nil, .below, 5, unit: .seconds,
          note: passed ? "20 steps each, spawned, end to end" : "not every run passed"))
      rows.append(row("flowrun test DIR of \(grouped(count)) script files, --jobs \(jobs) (spawned)", runs))
    }
    return rows
  }

  /// Seeded walks: at each step one input picked from what the screen offers.
  static func recordWalks(_ document: FlowDocument, count: Int, length: Int) -> [[Input]] {
    var random = SplitMix64(seed: 42)
    let config = SessionConfig(now: 1_767_225_600_000, recordsHistory: false)
    return (0..<count).map { _ in
      guard var session = try? Session.start(document: document, config: config).0 else { return [] }
      var inputs: [Input] = []
      while inputs.count < length, !session.status.isEnded {
        var choices: [Input] = [.next, .back]
        choices += session.actions.map { .tap(.number($0.number)) }
        for block in session.visibleBlocks {
          guard let field = block.fieldName else { continue }
          switch block.content.field {
          case .input: choices.append(.set(field: field, value: "Alex"))
          case .choice(let choice): choices += choice.items.map { .pick(field: field, items: [$0.id]) }
          case .slider(let slider): choices.append(.set(field: field, value: .number(slider.max)))
          case .toggle: choices.append(.set(field: field, value: true))
          case nil: break
          }
        }
        if case .awaiting = session.status { choices = [.result(.success(nil)), .result(.cancelled)] }
        let input = choices[Int(random.next() % UInt64(choices.count))]
        _ = session.send(input)
        inputs.append(input)
      }
      return inputs
    }
  }
}
