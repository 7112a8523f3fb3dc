import ArgumentParser
import FlowAnalysis
import FlowFormat
import FlowReplay

extension Flowrun {
  /// `flowrun diff OLD NEW`: what a change to a flow does to users, on the engine.
  struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "diff",
      abstract: "Compare the behaviour of two versions of a flow or bundle.",
      discussion: """
        Reports screens, fields, rules, actions and texts added, removed or changed (matched by \
        id, however the JSON is laid out); paths whose outcome or collected data changes, each \
        with the shortest inputs that show it (both versions are explored as `paths` does and \
        every transition is replayed on both); events whose names or properties change; and \
        with --scripts, replay scripts that pass on OLD and fail on NEW.
        Exit 0 when the behaviour is identical, 1 when it differs, 2 when a version cannot be \
        loaded, 64 on wrong usage.

        Example:
          flowrun diff main/fitness.json fitness.json --format markdown > comment.md
        """
    )

    @Argument(help: "The old version (a flow or bundle JSON file).")
    var old: String

    @Argument(help: "The new version.")
    var new: String

    @OptionGroup(title: "Loading")
    var loading: LoadingOptions

    @Option(help: "Replay the scripts in this directory (or file) on both versions.")
    var scripts: [String] = []

    @Option(help: "Output format: text, json or markdown.")
    var format: DiffFormat = .text

    func run() throws {
      let oldDocument = try load(old)
      let newDocument = try load(new)
      var report = DiffReport(
        oldPath: old, newPath: new, changes: FlowChange.between(oldDocument, newDocument),
        behaviour: BehaviourDiff.compare(oldDocument, newDocument))
      if !scripts.isEmpty { try replayScripts(into: &report) }
      switch format {
      case .text: Output.standard.write(report.text())
      case .json: Output.standard.write(report.json())
      case .markdown: Output.standard.write(report.markdown())
      }
      if !report.isIdentical { throw ExitCode(1) }
    }

    /// A version that does not load is exit 2 (1 means "differs").
    private func load(_ path: String) throws -> FlowDocument {
      do {
        return try loadRunnableFlow(path, options: loading.load).document
      } catch is ExitCode {
        throw ExitCode(2)
      }
    }

    /// Runs every script on OLD and on NEW (whatever flow it names) and keeps those that pass
    /// on OLD and not on NEW.
    private func replayScripts(into report: inout DiffReport) throws {
      let (files, missing) = TestSuite.discover(scripts)
      if let first = missing.first {
        Output.error.write("error: --scripts \(first): no such file or directory\n")
        throw ExitCode(2)
      }
      let cache = FlowCache()
      for file in files {
        let parsed = ScriptParser.load(path: file)
        guard var script = parsed.script, script.campaigns == nil else { continue }
        report.scriptsRun += 1
        script.flowPath = old
        guard Replayer.run(script, cache: cache).status == .passed else { continue }
        script.flowPath = new
        let outcome = Replayer.run(script, cache: cache)
        if outcome.status != .passed { report.brokenScripts.append((file, outcome.summary)) }
      }
    }
  }
}

enum DiffFormat: String, ExpressibleByArgument, CaseIterable {
  case text, json, markdown
}
