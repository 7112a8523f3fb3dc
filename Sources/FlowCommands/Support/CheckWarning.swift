import FlowAnalysis
import FlowFormat

/// Before a run: the errors `flowrun check` would report beyond the loader's (which `run`
/// prints already), and its warnings with a "did you mean", so a designer walking a broken
/// flow is told so at the start (issue 19 items 5 and 8). The run goes on: such a flow still
/// runs, as far as its faults allow.
func warnAboutCheckErrors(_ loaded: LoadResult, path: String) {
  // The lint rules cost about what `check` costs; past 4 MiB (generated flows, not a designer's)
  // a run starts without them (docs/cli.md).
  guard loaded.sourceCount <= 4 << 20 else { return }
  let printed = Set(loaded.diagnostics)
  // Errors, and warnings that suggest a near name (a misspelt variable reads as missing for
  // ever, a typo no run can get past).
  let errors = FlowChecker.check(loaded, rules: warningRules).filter { diagnostic in
    !printed.contains(diagnostic)
      && (diagnostic.severity == .error || diagnostic.notes.contains { $0.message.hasPrefix("did you mean") })
  }
  guard !errors.isEmpty else { return }
  let shown = 3
  let formatter = DiagnosticFormatter(loaded)
  let count = errors.count { $0.severity == .error }
  let typos = errors.count - count
  let found = [(count, "error"), (typos, "likely typo")].filter { $0.0 > 0 }.map { plural($0.0, $0.1) }
  var text =
    "flowrun: warning: `flowrun check` finds \(found.joined(separator: " and ")) in this flow; the run goes on.\n"
  text += formatter.text(Array(errors.prefix(shown)))
  if errors.count > shown { text += "… and \(errors.count - shown) more: flowrun check \(path)\n" }
  Output.error.write(text)
}

/// The rules that can report what the warning shows: the error rules, and
/// `check.uncollected-variable`, the one warning rule whose reports can carry a "did you mean"
/// (unknown references, the other, are errors). The other warning rules cost a third of the
/// pass on a 1,000-screen flow and could add nothing.
private let warningRules = LintRegistry.rules.filter { $0.severity == .error || $0 is UncollectedVariableRule }
