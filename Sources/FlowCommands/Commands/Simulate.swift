import ArgumentParser
import FlowEngine
import FlowFormat
import FlowSimulation
import FlowStore
import FlowSupport
import FlowTerminal
import Foundation

extension Flowrun {
  /// `flowrun simulate FLOW`: a population of simulated users through the engine, reported
  /// per variant; `flowrun simulate merge PARTS…` adds up the partials of `--shard`.
  struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "simulate",
      abstract: "Simulate a population of users through a flow: funnels per variant.",
      discussion: """
        Each user is a session of the engine (the one `run` drives) whose answers, controls, \
        drop-offs, dwell times and action outcomes are drawn from the behaviour model \
        (--model; without one, the defaults of docs/simulate.md: uniform over valid answers, \
        3 % drop-off per screen, 1 to 6 s per screen). User I draws from a random stream seeded \
        by --seed and I alone, so a run is the same on any number of threads or shards. \
        Intervals are 95 % Wilson score intervals; variants are compared on completion with a \
        pooled two-sided two-proportion z-test against the first variant.
        """,
      subcommands: [SimulateRun.self, SimulateMerge.self],
      defaultSubcommand: SimulateRun.self
    )
  }

  struct SimulateRun: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "run",
      abstract: "Simulate users through FLOW (the default: `flowrun simulate FLOW …`).",
      discussion: """
        Exit 0; 1 when the session cannot start or --html/--store cannot be written; 2 when the \
        flow or the model cannot be read; 64 for wrong usage.
        """
    )

    @Argument(help: "A flow or bundle file (any dialect the engine reads).")
    var flow: String

    @OptionGroup(title: "Loading")
    var loading: LoadingOptions

    @Option(help: "A behaviour model (YAML, docs/simulate.md); without it, the documented defaults.")
    var model: String?

    @Option(help: "Simulated users, 1 to 1,000,000,000.")
    var users = Checked(SimulatedUsers(value: 10_000))

    @Option(help: "The seed of every user's random numbers (0 to 2^64-1).")
    var seed: UInt64 = 1

    @Option(help: "Threads, 1 to 1,000 (default: the number of cores).")
    var jobs: Checked<Jobs>?

    @Option(help: "Simulate the I-th of N slices of the users and print a partial for `simulate merge`.")
    var shard: Checked<Shard>?

    @Option(help: "Output format: text, json or csv (the funnel table).")
    var format: SimulationFormat = .text

    @Option(
      help: ArgumentHelp(
        "Write every simulated session into this store (SQLite file or postgres:// URL).", valueName: "url"))
    var store: Checked<StoreLocation>?

    @Option(
      help: ArgumentHelp("Also write the report as one self-contained HTML page (SVG funnels).", valueName: "file"))
    var html: String?

    func validate() throws {
      _ = try store?.get()
      _ = try users.get()
      _ = try jobs?.get()
      if shard != nil, html != nil {
        throw ValidationError("--html needs the whole run: write it with `simulate merge --html`")
      }
      if let shard = try shard?.get(), shard.count > (try users.get().value) {
        throw ValidationError("--shard \(shard) has more slices than --users \(try users.get().value)")
      }
    }

    func run() throws {
      let users = try self.users.get().value
      let store = try store?.get()
      let inputs = [FileIdentity.Role("the flow", flow)] + (model.map { [FileIdentity.Role("--model", $0)] } ?? [])
      let outputs = [("--store", store?.url.sqlitePath), ("--html", html)].compactMap { option, path in
        path.map { FileIdentity.Role(option, $0) }
      }
      if let clash = FileIdentity.clash(inputs: inputs, outputs: outputs) {
        Output.error.write("flowrun: \(clash)\n")
        throw ExitCode(2)
      }
      let (document, loaded) = try loadRunnableFlow(flow, options: loading.load, keepingBytes: true)
      let (model, modelBytes) = try loadModel(document)
      let plan = SimulationPlan(document: document, model: model, seed: seed, recordsEvents: store != nil)
      do {
        _ = try Session.start(document: document, config: plan.probeConfig)
      } catch {
        Output.error.write("flowrun: cannot start a session of \(flow): \(error.message)\n")
        throw ExitCode(1)
      }
      let slice = try shard?.get()
      let range = slice.map { users * ($0.index - 1) / $0.count..<users * $0.index / $0.count } ?? 0..<users
      let progress = TerminalInfo.isTTY(STDERR_FILENO) ? ProgressBar(total: range.count) : nil
      let jobs = try self.jobs?.get().value ?? max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
      var shown: (@Sendable (Int) -> Void)?
      if let progress { shown = { progress.show($0) } }
      let writer = try store.map { SimulationStoreWriter(store: try $0.open(creates: true), seed: seed) }
      var finished: (@Sendable (FinishedUser) -> Void)?
      if let writer { finished = { writer.add($0) } }
      let copy = Self.planCopy(
        (flow, loaded.source), options: loading.load, model: (self.model ?? "", modelBytes), seed: seed,
        recordsEvents: store != nil)
      let tally = Simulation.run(
        plan, users: range, jobs: jobs, copy: copy, progress: shown, finished: finished)
      progress?.finish()
      let storeFailure = writer?.finish()
      let result = SimulationResult(
        flow: flow, fingerprint: SimulationResult.fingerprint(loaded.source, modelBytes), seed: seed, users: users,
        shard: slice?.description, model: self.model, screens: plan.screenKeys,
        variants: VariantAssignment.declaredVariants(in: document).flatMap { experiment in
          experiment.variants.map { "\(experiment.experiment)=\($0)" }
        }, tally: tally)
      let report = SimulationReport(result)
      Output.standard.write(slice != nil ? try result.partialJSON() : format.render(report))
      if let html, let problem = TextFile.write(report.html, to: html) {
        Output.error.write("flowrun: cannot write --html file \(html): \(problem)\n")
        throw ExitCode(1)
      }
      if let storeFailure {
        // The report is whole; the store lacks the sessions after the failed write.
        Output.error.write("flowrun: \(storeFailure.message); the store lacks sessions from there on\n")
        throw ExitCode(1)
      }
    }

    /// Builds, for each thread after the first, its own plan: the flow and the model decoded
    /// again from the bytes already read, so the threads share no object whose reference count
    /// both cores would write (docs/simulate.md, "Threads"). Nil keeps the first plan.
    private static func planCopy(
      _ flow: (path: String, bytes: [UInt8]), options: LoadOptions, model: (path: String, bytes: [UInt8]),
      seed: UInt64, recordsEvents: Bool
    ) -> @Sendable () -> SimulationPlan? {
      {
        guard let document = FlowLoader.load(bytes: flow.bytes, file: flow.path, options: options).document else {
          return nil
        }
        let read =
          model.bytes.isEmpty
          ? BehaviourModel() : BehaviourModelReader.read(model.bytes, file: model.path, document: document).0
        return read.map { SimulationPlan(document: document, model: $0, seed: seed, recordsEvents: recordsEvents) }
      }
    }

    /// Reads --model (the defaults without it): its diagnostics on stderr; exit 2 when it
    /// cannot be read or has errors (warnings are said and the run goes on).
    private func loadModel(_ document: FlowDocument) throws -> (BehaviourModel, [UInt8]) {
      guard let path = model else { return (BehaviourModel(), []) }
      let bytes: [UInt8]
      switch TextFile.read(path, limit: .script) {
      case .success(let read): bytes = read
      case .failure(let failure):
        Output.error.write("flowrun: cannot read the model \(path): \(failure.message)\n")
        throw ExitCode(2)
      }
      let (model, diagnostics) = BehaviourModelReader.read(bytes, file: path, document: document)
      Output.error.write(DiagnosticFormatter(sources: [path: bytes]).text(diagnostics))
      guard let model else { throw ExitCode(2) }
      return (model, bytes)
    }
  }

  struct SimulateMerge: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "merge",
      abstract: "Add up the partials of `simulate --shard I/N` into the report of the whole run.",
      discussion: """
        The partials must come from the same flow, model, seed and --users, one per slice \
        1/N to N/N; the report equals that of the single run. Exit 2 when a partial cannot be \
        read or they do not belong together.
        """
    )

    @Argument(help: "The partial files (JSON printed by `simulate --shard`).")
    var parts: [String]

    @Option(help: "Output format: text, json or csv (the funnel table).")
    var format: SimulationFormat = .text

    @Option(
      help: ArgumentHelp("Also write the report as one self-contained HTML page (SVG funnels).", valueName: "file"))
    var html: String?

    func run() throws {
      var partials: [(String, SimulationResult)] = []
      for path in parts {
        guard let data = FileManager.default.contents(atPath: path) else {
          Output.error.write("flowrun: cannot read \(path)\n")
          throw ExitCode(2)
        }
        do {
          partials.append((path, try SimulationResult.partial(from: data)))
        } catch {
          Output.error.write("\(path): error: \(error)\n")
          throw ExitCode(2)
        }
      }
      switch SimulationResult.merge(partials) {
      case .success(let result):
        let report = SimulationReport(result)
        Output.standard.write(format.render(report))
        if let html, let problem = TextFile.write(report.html, to: html) {
          Output.error.write("flowrun: cannot write --html file \(html): \(problem)\n")
          throw ExitCode(1)
        }
      case .failure(let problem):
        Output.error.write("flowrun: \(problem.message)\n")
        throw ExitCode(2)
      }
    }
  }
}

/// `simulate --users`: 1 to 1,000,000,000.
struct SimulatedUsers: BoundedCount {
  static let option = "--users"
  static let range = 1...1_000_000_000
  let value: Int
}

enum SimulationFormat: String, ExpressibleByArgument, CaseIterable {
  case text, json, csv

  func render(_ report: SimulationReport) -> String {
    switch self {
    case .text: report.text
    case .json: report.json
    case .csv: report.csv
    }
  }
}
