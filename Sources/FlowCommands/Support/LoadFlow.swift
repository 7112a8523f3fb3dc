import ArgumentParser
import FlowFormat

/// Loads one flow for the commands that need a runnable document (`run`, `render`, `graph`,
/// `paths`). On failure prints the errors to stderr and exits 2 when no document could be
/// built (unreadable, not JSON, not a flow), 1 when the flow parsed but has errors that stop a
/// run (docs/loading.md, the same split as `check`). `allDiagnostics` prints warnings and
/// `ref.*` errors of a runnable flow too (`run` shows them before the session). A big file's
/// bytes are let go once loaded (`holding`) unless `keepingBytes`: the caller reads them.
func loadRunnableFlow(
  _ path: String, options: LoadOptions = LoadOptions(), allDiagnostics: Bool = false, keepingBytes: Bool = false
) throws -> (document: FlowDocument, result: LoadResult) {
  let result = FlowLoader.load(path: path, options: options, holding: !keepingBytes)
  let formatter = DiagnosticFormatter(result)
  guard let document = result.document, result.isRunnable else {
    let shown = allDiagnostics ? result.diagnostics : result.diagnostics.filter { $0.severity == .error }
    Output.error.write(formatter.text(shown))
    throw ExitCode(loadFailureExitCode(result))
  }
  if allDiagnostics && !result.diagnostics.isEmpty {
    Output.error.write(formatter.text(result.diagnostics))
  }
  return (document, result)
}

/// 2 when the file could not be read or parsed into a document at all, else 1.
func loadFailureExitCode(_ result: LoadResult) -> Int32 {
  result.document == nil ? 2 : 1
}
