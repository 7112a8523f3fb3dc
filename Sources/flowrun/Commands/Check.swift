import ArgumentParser
import FlowAnalysis
import FlowFormat

extension Flowrun {
  /// `flowrun check FLOW...`: load every flow and report every problem with file:line:col.
  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Load and lint flows: every problem with file:line:col.",
      discussion: """
        Runs the loader's checks and the lint rules of docs/checks.md. Exits 0 when no flow \
        has an error, 1 when one does (or a warning, with --strict), and 2 when a file cannot \
        be read or parsed at all.
        """
    )

    @Argument(help: "Flow or bundle JSON files.")
    var flows: [String]

    @Option(help: "Output format: text, json, github (Actions annotations) or sarif (SARIF 2.1.0).")
    var format: DiagnosticOutputFormat = .text

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    func run() throws {
      var diagnostics: [Diagnostic] = []
      var sources: [String: [UInt8]] = [:]
      var unreadable = false
      for path in flows {
        let result = FlowLoader.load(path: path)
        sources[path] = result.source
        unreadable = unreadable || result.document == nil
        diagnostics += FlowChecker.check(result).map { strict ? $0.strict : $0 }
      }
      let output = Output.standard
      switch format {
      case .text:
        output.write(DiagnosticFormatter(sources: sources).text(diagnostics))
        output.write(summary(diagnostics) + "\n")
      case .json:
        output.write(DiagnosticFormatter.json(diagnostics) + "\n")
      case .github:
        output.write(DiagnosticExport.github(diagnostics))
      case .sarif:
        output.write(DiagnosticExport.sarif(diagnostics, version: Flowrun.version))
      }
      if unreadable { throw ExitCode(2) }
      if diagnostics.hasErrors { throw ExitCode(1) }
    }

    private func summary(_ diagnostics: [Diagnostic]) -> String {
      let errors = diagnostics.count { $0.severity == .error }
      let warnings = diagnostics.count { $0.severity == .warning }
      let files = flows.count == 1 ? "1 file" : "\(flows.count) files"
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

extension Diagnostic {
  /// The diagnostic with a warning raised to an error (`--strict`).
  var strict: Diagnostic {
    var copy = self
    if copy.severity == .warning { copy.severity = .error }
    return copy
  }
}
