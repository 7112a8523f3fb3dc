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
    Benchmark(name: keepHistory ? "engine steps (history)" : "engine steps (explorer)") { context in
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
  static let replayScripts = Benchmark(name: "replay scripts") { context in
    let flow = "sample-flows/fitness.json"
    guard context.fileSize(flow) > 0 else {
      return [Measurement(name: "replay 10,000 scripts", value: "skipped", detail: "run from the repository root")]
    }
    var rows: [Measurement] = []
    let count = context.replayScripts
    // The spawned runs first, while this process is small (see `Benchmark.all`).
    let spawned = try replayFiles(context, flow: flow, count: count)
    for jobs in context.replayJobs {
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
  static func replayFiles(_ context: BenchContext, flow: String, count: Int) throws -> [Measurement] {
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
    return context.replayJobs.map { jobs in
      let runs = context.measureSpawn(
        [flowrun, "test", directory, "--jobs", "\(jobs)", "--junit", "\(context.directory)/replay-junit.xml"],
        runs: context.runs)
      return row("flowrun test DIR of \(grouped(count)) script files, --jobs \(jobs) (spawned)", runs)
    }
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

/// `10000` → `10,000`.
func grouped(_ value: Int) -> String {
  var digits = Array(String(value.magnitude))
  var out: [Character] = []
  while digits.count > 3 {
    out = [","] + digits.suffix(3) + out
    digits.removeLast(3)
  }
  return (value < 0 ? "-" : "") + String(digits + out)
}

/// `1234567` → `1.23 M`.
func formatCount(_ value: Double) -> String {
  if value >= 1_000_000 { return "\(fixed(value / 1_000_000, 2)) M" }
  if value >= 1_000 { return "\(fixed(value / 1_000, 1)) k" }
  return fixed(value, 0)
}
