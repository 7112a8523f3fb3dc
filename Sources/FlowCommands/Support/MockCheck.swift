import ArgumentParser
import FlowAnalysis
import FlowFormat

/// A mock (`--mock ID=…`) for an identifier no custom action or native screen of the document
/// has would never answer anything: a usage error with a "did you mean", as for `--variant`
/// (issue 19 item 8).
func refuseUnusedMocks(_ identifiers: some Sequence<String>, used: [String]) throws {
  if let problem = identifiers.sorted().lazy.compactMap({ unusedMock($0, used: used) }).first {
    throw ValidationError("--mock " + problem)
  }
}

/// The `mocks:` of a script given to `run --answers` that no identifier of the flow has: a
/// warning (the script may serve several flows).
func warnAboutUnusedMocks(_ identifiers: some Sequence<String>, used: [String]) {
  for identifier in identifiers.sorted() {
    if let problem = unusedMock(identifier, used: used) {
      Output.error.write("flowrun: warning: --answers mocks \(problem)\n")
    }
  }
}

/// `x: the flow has no custom action or native screen 'x' (did you mean 'y'?); identifiers: …`,
/// or nil when the flow uses `identifier`.
private func unusedMock(_ identifier: String, used: [String]) -> String? {
  guard !used.contains(identifier) else { return nil }
  var message = "\(identifier): the flow has no custom action or native screen '\(identifier)'"
  if let guess = closestMatch(to: identifier, in: used) { message += " (did you mean '\(guess)'?)" }
  return message + (used.isEmpty ? "; it has none" : "; identifiers: \(used.joined(separator: ", "))")
}

/// The identifiers of every custom action (results' routing included) and native screen, in
/// document order.
func actionIdentifiers(in document: FlowDocument) -> [String] {
  var found: [String] = []
  func add(_ action: Action?) {
    guard case .custom(let custom)? = action else { return }
    if !found.contains(custom.identifier) { found.append(custom.identifier) }
    add(custom.onSuccess)
    add(custom.onFailure)
    add(custom.onCancel)
  }
  let graph = FlowGraph(document: document)
  for (f, flow) in document.flows.enumerated() {
    for (s, screen) in flow.screens.enumerated() {
      if screen.kind == .native, let identifier = screen.content.identifier, !found.contains(identifier) {
        found.append(identifier)
      }
      for control in graph.controls[ScreenNode(flow: f, screen: s)] ?? [] { add(control.action) }
      for rule in screen.rules { add(rule.then) }
    }
  }
  return found
}
