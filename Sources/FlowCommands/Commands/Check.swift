import ArgumentParser
import FlowAnalysis
import FlowExpression
import FlowFormat
import FlowRender
import FlowReplay
import FlowSupport
import FlowTerminal

extension Flowrun {
  /// `flowrun check FLOW...`: load every flow and report every problem with file:line:col.
  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "check",
      abstract: "Load and lint flows: every problem with file:line:col.",
      discussion: """
        Runs the loader's checks and the lint rules of docs/checks.md. Exits 0 when no flow \
        has an error, 1 when one does (or a warning, with --strict), and 2 when a file cannot \
        be read or parsed at all.
        """
    )

    @Argument(help: "Flow, bundle or Nuxie campaigns JSON files.")
    var flows: [String]

    @Option(help: "Output format: text, json, github (Actions annotations) or sarif (SARIF 2.1.0).")
    var format: DiagnosticOutputFormat = .text

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    @OptionGroup(title: "Loading")
    var loading: LoadingOptions

    @Option(
      help: ArgumentHelp(
        "Colour the text format: auto (a terminal without NO_COLOR), always or never.", valueName: "when"))
    var color: ColorMode = .auto

    func run() throws {
      BigBlocks.giveOwnPages()
      // One report a file; the lint rules' long texts are written when the report reaches them.
      var reports: [CheckReport] = []
      var sources: [String: [UInt8]] = [:]
      var files: [String: HeldFile] = [:]
      var unreadable = false
      // Documents are left for the process exit to free all at once (see below): freeing a
      // big file's value by value costs a tenth of loading it. Past 256 MB of sources they are
      // freed as usual, so checking many files does not hold them all (the sources themselves
      // are kept for the excerpts of the report, or a big file held open to read them back).
      var results: [LoadResult] = []
      var retainedBytes = 0
      // A directory stands for every flow file below it (`*.json` but replay scripts), sorted, as
      // `test DIR` takes every script below it; a path that does not exist is the loader's to report.
      var empty: [String] = []
      let paths = flows.flatMap { path in
        let found = TestSuite.discover([path]) { $0.hasSuffix(".json") && !$0.hasSuffix(".flow-test.json") }
        if found.files.isEmpty, found.missing.isEmpty { empty.append(path) }
        return found.missing.isEmpty ? found.files : [path]
      }
      // Checking nothing is not a pass (as for `test DIR`).
      for directory in empty { Output.error.write("error: no *.json flow files below \(directory)\n") }
      for path in paths {
        // A text report reads back only its excerpts; the other formats' JSON paths need the
        // whole file after lint, read back then it raised the peak (docs/performance.md).
        let result = FlowLoader.load(path: path, options: loading.load, keepSyntax: true, holding: format == .text)
        if let held = result.held { files[path] = held } else { sources[path] = result.source }
        if let root = result.syntax, let own = Self.campaignInputDiagnostics(root, file: path, source: result.source) {
          // A Nuxie campaigns payload or user profile: their own checks (docs/dialects/nuxie.md).
          let syntax = result.diagnostics.filter { $0.id.hasPrefix(DiagnosticID.JSON.prefix) }
          var report = CheckReport(syntax + own)
          if strict { report.raiseWarnings() }
          reports.append(report)
          continue
        }
        unreadable = unreadable || result.document == nil
        // The loader freed the JSON tree screen by screen while it built the model (the
        // freeing costs little there; docs/performance.md, "Seventh round"). The lint rules
        // find JSON paths in the bytes.
        var report = FlowChecker.report(result, jsonPaths: format != .text)
        if strict { report.raiseWarnings() }
        reports.append(report)
        retainedBytes += result.sourceCount
        if retainedBytes <= 256 << 20 { results.append(result) }
      }
      let output = Output.standard
      // Counted on the reports, no diagnostic made for it: `hasErrors` of the lazily joined
      // sequence, generic across modules, copied every diagnostic (64 M instructions for
      // `lint-chain`'s 21,714).
      let count = reports.reduce(0) { $0 + $1.count }
      let errors = reports.reduce(0) { $0 + $1.count(.error) }
      let warnings = reports.reduce(0) { $0 + $1.count(.warning) }
      // Each diagnostic made when its turn comes, by position (no lazily joined sequence: its
      // generic type made at run time cost 2 M instructions).
      let (all, diagnostic) = CheckReport.diagnostics(of: reports)
      switch format {
      case .text:
        // Written in chunks as it is formatted: a big file's report can run to hundreds of
        // megabytes, which need not be held (and copied) as one string. A chunk grows by
        // doubling: at a mebibyte, its buffers were 1.6 MB of `lint-chain`'s peak.
        let formatter = DiagnosticFormatter(sources: sources, files: files)
        let styled = color.enabledForStandardOutput
        // Each chunk is made terminal-safe before the severity words get their colours.
        func write(_ text: String) {
          if styled {
            output.write(StatusColors.diagnostics(terminalSafe(text)), styled: true)
          } else {
            output.write(text)
          }
        }
        writeInChunks(min(all, Limits.shownDiagnostics), { formatter.text(diagnostic($0)) }, to: write)
        write(DiagnosticFormatter.notShown(count, hint: " (--format json lists them all)"))
        write(summary(errors: errors, warnings: warnings, files: paths.count) + "\n")
      case .json:
        DiagnosticFormatter.writeJSON(count: all, diagnostic: diagnostic) { output.write($0) }
      case .github:
        writeInChunks(all, { DiagnosticExport.github(diagnostic($0)) }) { output.write($0) }
      case .sarif:
        DiagnosticExport.sarif(count: all, diagnostic: diagnostic, version: Flowrun.version) { output.write($0) }
      }
      // Exit here rather than return: releasing the documents of a big file object by object
      // costs more than the kernel takes to drop the whole address space. The output is
      // already written (`Output` does not buffer), so nothing is lost.
      let status: Int32 = unreadable ? 2 : errors > 0 || !empty.isEmpty ? 1 : 0
      withExtendedLifetime(results) { Flowrun.finish(status == 0 ? nil : ExitCode(status)) }
    }

    /// The `count` texts that `text` makes handed to `write` joined in pieces of 64 KiB or
    /// more, the last one shorter (perhaps empty): a report of tens of thousands of diagnostics
    /// is never held whole.
    private func writeInChunks(_ count: Int, _ text: (Int) -> String, to write: (String) -> Void) {
      var chunk = ""
      for index in 0..<count {
        chunk += text(index)
        if chunk.utf8.count >= 1 << 16 {
          write(chunk)
          chunk = ""
        }
      }
      write(chunk)
    }

    /// The diagnostics of a campaigns payload or a user profile; nil for any other document.
    private static func campaignInputDiagnostics(_ root: JSONValue, file: String, source: [UInt8]) -> [Diagnostic]? {
      if CampaignLoader.isCampaigns(root) {
        return CampaignLoader.campaigns(root: root, file: file, source: source).diagnostics
      }
      if CampaignLoader.isProfile(root) {
        return CampaignLoader.profile(root: root, file: file, source: source).diagnostics
      }
      return nil
    }

    private func summary(errors: Int, warnings: Int, files count: Int) -> String {
      let files = plural(count, "file")
      if errors == 0 && warnings == 0 { return "checked \(files): no problems" }
      return "checked \(files): \(plural(errors, "error")), \(plural(warnings, "warning"))"
    }
  }
}

/// How diagnostics are printed.
enum DiagnosticOutputFormat: String, ExpressibleByArgument, CaseIterable {
  case text, json, github, sarif
}

func plural(_ count: Int, _ noun: String) -> String {
  "\(count) \(noun)\(count == 1 ? "" : "s")"
}
