import ArgumentParser
import FlowAnalysis
import FlowEngine
import FlowExpression
import FlowFormat
import FlowRender
import FlowReplay
import FlowSupport
import FlowTerminal
import Foundation

extension Flowrun {
  /// `flowrun paths FLOW`: explore every path through the engine, count them, pick a covering
  /// set, emit it as replay scripts, or measure the coverage of existing scripts.
  struct Paths: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "paths",
      abstract: "Enumerate a flow's paths through the engine; coverage and test generation.",
      discussion: """
        Explores the flow by forking engine sessions: each option, boundary values around the \
        numbers conditions and validation compare with, valid and invalid text, each control, \
        back, dismiss, each action outcome (success data suggested by the conditions, failure, \
        cancelled), each experiment variant, filler waits. States are de-duplicated (screen, \
        sub-flow stack, status, pending action and the data conditions read), so the path count \
        is exact even when it is astronomically large. The covering set is greedy, not minimum.
        Exit 1 when a session fails on the way (an onEnter or rule loop exhausts the step \
        budget) or --min-coverage is not met.
        """
    )

    @Argument(help: "A flow or bundle JSON file.")
    var flow: String

    @OptionGroup(title: "Loading")
    var loading: LoadingOptions

    @Option(help: "Stop following a path after this many steps (1 to 1,000,000).")
    var maxDepth = Checked(MaxDepth(value: 10_000))

    @Option(help: "Stop exploring after this many distinct states (1 to 100,000,000).")
    var maxStates = Checked(MaxStates(value: 200_000))

    @Option(help: "Largest multi-select combination tried.")
    var maxSelections = Checked(MaxSelections(value: 2))

    @Option(help: "Write the covering paths as replay scripts into this directory.")
    var emit: String?

    @Option(
      name: .customLong("coverage"), parsing: .upToNextOption,
      help: "Replay these scripts (files or directories) and report what they leave uncovered.")
    var coverage: [String] = []

    @Option(help: "With --coverage: exit 1 when total coverage is below this percentage (0 to 100).")
    var minCoverage: Checked<Percentage>?

    @Flag(help: "List every covering path's screens.")
    var verbose = false

    @Option(help: "Output format: text, or json (one object; path counts are decimal strings).")
    var format: PathsFormat = .text

    @Option(help: ArgumentHelp("Colour error: and note: in the text format: auto, always or never.", valueName: "when"))
    var color: ColorMode = .auto

    func validate() throws {
      if minCoverage != nil && coverage.isEmpty {
        throw ValidationError("--min-coverage needs --coverage SCRIPT...")
      }
      _ = try maxDepth.get()
      _ = try maxStates.get()
      _ = try maxSelections.get()
      _ = try minCoverage?.get()
    }

    func run() throws {
      let (maxDepth, maxStates) = (try self.maxDepth.get().value, try self.maxStates.get().value)
      let minCoverage = try self.minCoverage?.get().value
      let (document, _) = try loadRunnableFlow(flow, options: loading.load)
      let explorer = PathExplorer(
        document: document,
        options: .init(maxDepth: maxDepth, maxStates: maxStates, multiSelectBound: try maxSelections.get().value))
      let progress = ProgressLine()
      defer { progress.finish() }
      let exploration = explorer.explore { states, frontier in
        progress.update("paths: \(states) states explored, \(frontier) to expand")
      }
      var report: PathsReport
      if !coverage.isEmpty {
        report = PathsReport(flow: flow, exploration: exploration, maxStates: maxStates, maxDepth: maxDepth)
        report.coverage = try measureCoverage(document: document, reachable: report.reachable)
      } else {
        // The report (its path counts) is made on the second core while the covering set is
        // chosen: both only read the exploration.
        let counted = MadeOnce { [flow] in
          PathsReport(flow: flow, exploration: exploration, maxStates: maxStates, maxDepth: maxDepth)
        }
        counted.startInBackground()
        // With --emit, the replay that confirms each chosen path also writes its script's steps;
        // their text is made on another thread while the next path is replayed.
        let writer = emit.map { ScriptText(flow: flow, directory: $0) }
        let scripts = BackgroundTexts()
        var chosen = 0
        let (paths, unconfirmed) = exploration.coveringSet(
          scriptSecrets: writer == nil ? nil : SecretPolicy.none,
          progress: { paths, uncovered in
            progress.update(
              "paths: \(exploration.states.count) states; covering set: \(paths) paths, \(uncovered) items to go")
          },
          scripted: { path, steps, final in
            chosen += 1
            let number = chosen
            scripts.add { writer!.text(of: path, number: number, steps: steps, final: final) }
          })
        report = counted.value()
        report.covering = (paths, unconfirmed)
        // Shown with --verbose only: hashing every item of every path was a twentieth of the run.
        if verbose { report.coveringAdds = PathsReport.newItems(paths) }
        if let emit { report.emitted = (emit, try write(scripts.all, to: emit)) }
      }
      progress.finish()
      if format == .json {
        Output.standard.write(report.json())
      } else if color.enabledForStandardOutput {
        // Coloured line by line: the pieces end at line ends.
        report.text(verbose: verbose) {
          Output.standard.write(StatusColors.diagnostics(terminalSafe($0)), styled: true)
        }
      } else {
        report.text(verbose: verbose) { Output.standard.write($0) }
      }
      var failed = !report.failures.isEmpty
      if !failed, let minCoverage, let coverage = report.coverage, coverage.report.percent + 1e-9 < minCoverage {
        if format == .text {
          Output.standard.write(
            "coverage \(PathsReport.percent(coverage.report.percent)) is below --min-coverage \(PathsReport.percent(minCoverage))\n"
          )
        }
        failed = true
      }
      // Exit here rather than return, as `check` does: releasing the state graph, the report
      // and the document object by object was a fiftieth of the run on a bundle of 250 flows.
      withExtendedLifetime((explorer, exploration, report)) { Flowrun.finish(failed ? ExitCode(1) : nil) }
    }

    /// Writes the scripts, numbered in order; returns the files written.
    private func write(_ scripts: [String], to directory: String) throws -> [String] {
      if let problem = TextFile.makeDirectories(directory) { throw cannotWrite(directory, problem) }
      let stem = ScriptText.stem(of: flow)
      let width = String(scripts.count).count
      var written: [String] = []
      for (index, text) in scripts.enumerated() {
        let number = String(index + 1)
        let name = "\(stem)-path-\(String(repeating: "0", count: width - number.count))\(number).flow-test.yaml"
        let file = (directory as NSString).appendingPathComponent(name)
        if let problem = TextFile.write(text, to: file) { throw cannotWrite(file, problem) }
        written.append(file)
      }
      return written
    }

    /// A file of `--emit` that cannot be written: the system's words on stderr, exit 1.
    private func cannotWrite(_ path: String, _ problem: String) -> ExitCode {
      Output.error.write("flowrun: cannot write \(path): \(problem)\n")
      return ExitCode(1)
    }

    /// Replays the scripts given with --coverage that run this flow.
    private func measureCoverage(document: FlowDocument, reachable: [CoverageItem]) throws -> PathsReport.Coverage {
      var covered = Set<CoverageItem>()
      var scripts: [String] = []
      for argument in coverage {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue {
          let files = FileManager.default.enumerator(atPath: argument)?.compactMap { $0 as? String } ?? []
          scripts += files.filter { $0.hasSuffix(".flow-test.yaml") || $0.hasSuffix(".flow-test.json") }.sorted()
            .map { (argument as NSString).appendingPathComponent($0) }
        } else {
          scripts.append(argument)
        }
      }
      let target = URL(fileURLWithPath: flow).standardizedFileURL.path
      var used = 0
      for path in scripts {
        let parsed = ScriptParser.load(path: path)
        guard let script = parsed.script else {
          Output.error.write(DiagnosticFormatter(sources: [path: parsed.source]).text(parsed.diagnostics))
          throw ExitCode(2)
        }
        guard URL(fileURLWithPath: script.flowPath).standardizedFileURL.path == target else { continue }
        guard let items = ScriptCoverage.items(of: script, document: document) else { continue }
        covered.formUnion(items)
        used += 1
      }
      return .init(report: CoverageReport(reachable: reachable, covered: covered), scripts: scripts.count, used: used)
    }
  }
}

enum PathsFormat: String, ExpressibleByArgument, CaseIterable {
  case text, json
}

/// `to` as a path relative to the directory `from` (both relative to the working directory).
func relativePath(from directory: String, to file: String) -> String {
  let base = URL(fileURLWithPath: directory).standardizedFileURL.pathComponents
  let target = URL(fileURLWithPath: file).standardizedFileURL.pathComponents
  var common = 0
  while common < base.count, common < target.count, base[common] == target[common] { common += 1 }
  let ups = Array(repeating: "..", count: base.count - common)
  return (ups + target[common...]).joined(separator: "/")
}
