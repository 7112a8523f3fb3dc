import ArgumentParser
import FlowFormat
import FlowPattern
import FlowRender
import FlowReplay
import FlowStore
import FlowSupport
import FlowTerminal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Flowrun {
  /// `flowrun test SCRIPT|DIR...`: replay scripted answers and check expectations (CI).
  struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "test",
      abstract: "Replay scripted answers through flows and check expectations (CI).",
      discussion: """
        A directory runs every *.flow-test.yaml / *.flow-test.json below it, sorted by path. \
        The last line is `N passed, N failed` (plus `, N skipped`). Exits 0 when every script \
        passed, 1 when one failed or none was selected (a --filter matching nothing, no scripts \
        found; a --shard left empty is fine; SIGINT, SIGTERM or SIGHUP stopped the run: the \
        reports then hold the scripts that finished), 2 when a script or flow could not be read \
        or parsed, a report could not be written or would overwrite an input, 64 on wrong usage.
        """
    )

    @Argument(help: "Replay scripts or directories of them.")
    var paths: [String]

    @Option(help: "Scripts run in parallel, 1 to 1,000 (default: the number of cores).")
    var jobs: Checked<Jobs>?

    @Option(help: "Run the I-th of N deterministic slices, I in 1...N (for CI matrices).")
    var shard: Checked<Shard>?

    @Option(help: "Run only scripts whose name or path matches this regular expression.")
    var filter: String?

    @Flag(help: "Stop starting scripts after the first failure (the rest are skipped).")
    var failFast = false

    @Option(help: "Write a JUnit XML report to this file.")
    var junit: String?

    @Option(help: "Write a JSON report to this file.")
    var json: String?

    @Flag(help: "Rewrite snapshot: transcript files instead of comparing them.")
    var update = false

    @Flag(help: "Print every decision of each session.")
    var trace = false

    @Option(help: "Width of rendered screens in failures and snapshots, 20 to 1000 columns.")
    var width = Checked(Width(value: 80))

    @OptionGroup(title: "Earlier answers")
    var earlier: DataOptions

    @Option(
      help: ArgumentHelp(
        "Colour PASS, FAIL and the summary: auto (a terminal without NO_COLOR), always or never.", valueName: "when"))
    var color: ColorMode = .auto

    @Flag(help: "Show secret answers in clear in the collected data of failure messages (masked everywhere else).")
    var showSecrets = false

    @Option(
      help: ArgumentHelp(
        "Save each script's submission after every accepted input: sqlite:PATH, a file path or postgres://….",
        valueName: "url"))
    var store: Checked<StoreLocation>?

    func validate() throws {
      _ = try store?.get()
      _ = try jobs?.get()
      _ = try shard?.get()
      _ = try width.get()
      if let filter {
        do { _ = try Pattern(filter, anchoring: .anywhere) } catch {
          throw ValidationError("--filter is not a valid regular expression: \(filter) (\(error))")
        }
      }
    }

    func run() throws {
      // A --filter that cannot be checked against a script within the pattern limits is wrong usage.
      do { try runScripts() } catch let error as FilterTooComplex { throw ValidationError(error.description) }
    }

    private func runScripts() throws {
      let (files, missing) = TestSuite.discover(paths)
      let store = try store?.get()
      let reports = [("--junit", junit), ("--json", json), ("--store", store?.url.sqlitePath)].compactMap {
        option, path in path.map { FileIdentity.Role(option, $0) }
      }
      let scripts = files.map { FileIdentity.Role("the script", $0) }
      if let clash = FileIdentity.clash(inputs: scripts, outputs: reports) {
        Output.error.write("flowrun: \(clash)\n")
        throw ExitCode(2)
      }
      let output = Output.standard
      for path in missing {
        Output.error.write(
          DiagnosticFormatter().text(Diagnostic(.Script.io, message: "no such file or directory", file: path)))
      }
      let shard = try shard?.get()
      var selection = TestSelection(filter: filter)
      if let shard { selection.shard = (shard.index, shard.count) }
      // Each directory given is a suite: its scripts' snapshots stay inside it.
      let submissions = try store?.open(creates: true)
      let options = ReplayOptions(
        updateSnapshots: update, trace: trace, width: try width.get().value, showSecrets: showSecrets,
        suiteRoots: TestSuite.directories(among: paths), store: submissions, presetData: try earlier.values())
      let cores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
      let showTrace = trace
      let styled = color.enabledForStandardOutput
      let cache = FlowCache()
      // SIGINT, SIGTERM and SIGHUP stop starting scripts; the reports of those that finished
      // are still written.
      StopSignals.startCatching()
      defer { StopSignals.stopCatching() }
      let outcomes = try TestSuite.run(
        files, selection: selection, jobs: try jobs?.get().value ?? max(1, cores), failFast: failFast, options: options,
        cache: cache, shouldStop: { StopSignals.pending != nil },
        onOutcome: { outcome in
          var text: String
          switch outcome.status {
          case .passed: text = "PASS \(outcome.file)  (\(outcome.name))\n"
          case .skipped: text = "SKIP \(outcome.file)  (\(outcome.name))\n"
          case .failed: text = "FAIL \(outcome.file)  (\(outcome.name))\n" + outcome.message
          case .error: text = "ERROR \(outcome.file)\n" + outcome.message
          }
          for path in outcome.updatedSnapshots { text += "  updated \(path)\n" }
          if showTrace, !outcome.trace.isEmpty {
            text += "  trace:\n" + outcome.trace.map { "    \($0)\n" }.joined()
          }
          if styled {
            output.write(StatusColors.outcome(terminalSafe(text)), styled: true)
          } else {
            output.write(text)
          }
        })
      let stop = StopSignals.pending
      if let stop {
        Output.error.write(
          "flowrun: \(StopSignals.name(stop)) stopped the run; the reports hold the \(plural(outcomes.count, "script")) that finished\n"
        )
      }
      // Reports are written whatever happens to stdout; a report that cannot be written (or
      // would overwrite a flow the scripts ran or a snapshot) is said on stderr and makes the exit code 2,
      // and the summary stays the last stdout line.
      var reportsWritten = true
      let flows = cache.paths.map { FileIdentity.Role("the flow", $0) }
      let snapshots = outcomes.flatMap(\.snapshots).map { FileIdentity.Role("the snapshot", $0) }
      if let clash = FileIdentity.clash(inputs: flows + snapshots, outputs: reports) {
        Output.error.write("flowrun: \(clash); no report written\n")
        reportsWritten = false
      } else {
        if let junit {
          reportsWritten = write(ReplayReport.junit(outcomes), to: junit, report: "JUnit") && reportsWritten
        }
        if let json { reportsWritten = write(ReplayReport.json(outcomes), to: json, report: "JSON") && reportsWritten }
      }
      // Running nothing is not a pass: a filter that matches nothing or a directory without
      // scripts exits 1. A shard that gets no script of a small suite is not an error (a CI
      // matrix may be wider than the suite).
      var nothingRan = false
      if outcomes.isEmpty && missing.isEmpty && stop == nil {
        if files.isEmpty {
          Output.error.write("error: no scripts matched: no *.flow-test.yaml or *.flow-test.json scripts found\n")
          nothingRan = true
        } else if let filter, filterMatchesNothing(filter, in: files) {
          Output.error.write(
            "error: no scripts matched --filter \(filter) (of \(plural(files.count, "script")) found)\n")
          nothingRan = true
        } else if let shard {
          Output.error.write("note: shard \(shard) selected no scripts\n")
        }
      }
      // A store that failed stopped taking rows: said once, and the run fails.
      if let failure = submissions?.failure {
        Output.error.write("flowrun: \(failure.message); later submissions were not saved\n")
      }
      let summary = TestSuite.summaryLine(outcomes)
      output.write((styled ? StatusColors.summary(summary) : summary) + "\n", styled: styled)
      var code = ExitStatus.of(outcomes)
      if submissions?.failure != nil { code = max(code, 1) }
      if nothingRan || stop != nil { code = max(code, 1) }
      if !missing.isEmpty || !reportsWritten { code = 2 }
      if code != 0 { throw ExitCode(code) }
    }

    /// Whether `--filter` alone (without `--shard`) selects none of `files`.
    private func filterMatchesNothing(_ filter: String, in files: [String]) -> Bool {
      let names = files.map {
        (file: $0, name: ScriptParser.load(path: $0).script?.name ?? ScriptParser.defaultName(for: $0))
      }
      return (try? TestSuite.select(names, selection: TestSelection(filter: filter)))?.isEmpty ?? true
    }

    /// Writes one report file; false (after saying why on stderr) when it could not be written.
    private func write(_ text: String, to path: String, report: String) -> Bool {
      guard let problem = TextFile.write(text, to: path) else { return true }
      Output.error.write("flowrun: cannot write the \(report) report \(path): \(problem)\n")
      return false
    }
  }
}
