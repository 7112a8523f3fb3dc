extension DecodeContext {
  /// Resolves the screen references collected while decoding `flows`, and checks field names.
  /// Unknown screens are `ref.*` errors: `check` fails on them, `run` treats them as no-ops.
  mutating func resolveScreenReferences(in flow: Flow) {
    let ids = flow.screens.map(\.id)
    for reference in screenReferences where flow.index(of: reference.target) == nil {
      append(
        Diagnostic(
          id: "ref.unknown-screen",
          severity: .error,
          message: "\(reference.what) goes to unknown screen '\(reference.target)' in flow '\(flow.id)'",
          file: file, location: reference.location, path: reference.path,
          notes: Self.didYouMean(reference.target, ids)))
    }
    screenReferences.removeAll()
    checkFieldNames(in: flow)
  }

  /// A field name twice on one screen is an error; on two screens of a flow, a warning.
  mutating func checkFieldNames(in flow: Flow) {
    var firstScreen: [String: (screen: String, location: SourceLocation)] = [:]
    for screen in flow.screens {
      var onThisScreen: [String: SourceLocation] = [:]
      for block in screen.content.flatBlocks {
        guard let field = block.fieldName else { continue }
        if let first = onThisScreen[field] {
          report(
            .error, "ref.duplicate-field", "field '\(field)' is collected twice on screen '\(screen.id)'",
            at: block.location, notes: [Diagnostic.Note("first collected here", at: first)])
        } else if let first = firstScreen[field], first.screen != screen.id {
          report(
            .warning, "ref.duplicate-field",
            "field '\(field)' is also collected on screen '\(first.screen)'; the later value overwrites the earlier",
            at: block.location, notes: [Diagnostic.Note("first collected here", at: first.location)])
        }
        onThisScreen[field] = onThisScreen[field] ?? block.location
        firstScreen[field] = firstScreen[field] ?? (screen.id, block.location)
      }
    }
  }

  /// Unknown sub-flows and cycles of sub-flows are load errors: a cycle would never end.
  mutating func checkSubflows(_ flows: [Flow]) {
    let ids = Set(flows.map(\.id))
    for reference in flowReferences where !ids.contains(reference.target) {
      append(
        Diagnostic(
          id: "load.unknown-flow", severity: .error,
          message: "\(reference.what) runs unknown flow '\(reference.target)'",
          file: file, location: reference.location, path: reference.path,
          notes: Self.didYouMean(reference.target, flows.map(\.id))))
    }
    flowReferences.removeAll()
    var children: [String: [(String, Screen)]] = [:]
    for flow in flows {
      children[flow.id] = flow.screens.compactMap { screen in screen.subflow.map { ($0, screen) } }
    }
    var state: [String: Int] = [:]  // 1: on the current path, 2: done
    var reported = Set<String>()
    func visit(_ id: String, _ path: [String]) {
      state[id] = 1
      for (child, screen) in children[id] ?? [] where ids.contains(child) {
        if state[child] == 1 {
          let cycle = (path.drop { $0 != child } + [id, child]).joined(separator: " → ")
          if reported.insert(cycle).inserted {
            append(
              Diagnostic(
                id: "load.subflow-cycle", severity: .error,
                message: "sub-flows form a cycle: \(cycle)", file: file, location: screen.location,
                notes: [Diagnostic.Note("screen '\(screen.id)' of flow '\(id)' runs flow '\(child)'")]))
          }
        } else if state[child] == nil {
          visit(child, path + [id])
        }
      }
      state[id] = 2
    }
    for flow in flows where state[flow.id] == nil { visit(flow.id, []) }
  }

  mutating func checkExperimentFlows(_ experiments: [Experiment], flows: [Flow]) {
    let ids = flows.map(\.id)
    for experiment in experiments {
      for variant in experiment.variants {
        if let flow = variant.flow, !ids.contains(flow) {
          append(
            Diagnostic(
              id: "load.unknown-flow", severity: .error,
              message: "variant '\(variant.id)' of experiment '\(experiment.id)' uses unknown flow '\(flow)'",
              file: file, location: experiment.location, notes: Self.didYouMean(flow, ids)))
        }
      }
    }
  }
}
