import FlowAnalysis
import FlowFormat

/// Before a run: the errors `flowrun check` would report beyond the loader's (which `run`
/// prints already), so a designer walking a broken flow is told so at the start (issue 19
/// item 5). The run goes on: such a flow still runs, as far as its faults allow.
func warnAboutCheckErrors(_ loaded: LoadResult, path: String) {
  let printed = Set(loaded.diagnostics)
  let errors = FlowChecker.check(loaded).filter { $0.severity == .error && !printed.contains($0) }
  guard !errors.isEmpty else { return }
  let shown = 3
  let formatter = DiagnosticFormatter(sources: [path: loaded.source])
  var text = "flowrun: warning: `flowrun check` finds \(plural(errors.count, "error")) in this flow; the run goes on.\n"
  text += formatter.text(Array(errors.prefix(shown)))
  if errors.count > shown { text += "… and \(errors.count - shown) more: flowrun check \(path)\n" }
  Output.error.write(text)
}
