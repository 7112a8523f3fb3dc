import ArgumentParser
import FlowAnalysis
import FlowDriver
import FlowFormat
import FlowSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--watch`: a watcher on the flow file that wakes the line being read when it is saved,
/// and the driver's reload: the new version with its model changes, or its errors.
func watchedReload(_ path: String, options: LoadOptions) throws -> (FlowDocument) -> Reload? {
  guard let watcher = FileWatcher(path: path, onChange: { StopSignals.wake() }) else {
    Output.error.write("flowrun: cannot watch \(path): \(systemMessage(errno))\n")
    throw ExitCode(2)
  }
  return { current in
    guard watcher.takeChange() else { return nil }
    let result = FlowLoader.load(path: path, options: options)
    guard let document = result.document, result.isRunnable else {
      let errors = result.diagnostics.filter { $0.severity == .error }
      return .failed(diagnostics: DiagnosticFormatter(sources: [path: result.source]).text(errors))
    }
    return .loaded(document, changes: FlowChange.between(current, document).map(\.line))
  }
}
