import ArgumentParser
import FlowFormat

/// Loads one flow for commands that need a runnable document (`graph`, `paths`): on failure
/// prints the diagnostics to stderr and exits 2.
func loadRunnableFlow(_ path: String) throws -> (document: FlowDocument, result: LoadResult) {
  let result = FlowLoader.load(path: path)
  guard let document = result.document, result.isRunnable else {
    let errors = result.diagnostics.filter { $0.severity == .error }
    Output.error.write(DiagnosticFormatter(sources: [path: result.source]).text(errors))
    throw ExitCode(2)
  }
  return (document, result)
}
