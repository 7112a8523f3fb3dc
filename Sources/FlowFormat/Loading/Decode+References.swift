extension DecodeContext {
  /// Resolves the screen references collected while decoding `flows`, and checks field names
  /// (`fields`: those of `flow.screens`, screen by screen).
  /// Unknown screens are `ref.*` errors: `check` fails on them, `run` treats them as no-ops.
  mutating func resolveScreenReferences(in flow: Flow, fields: CollectedFields) {
    reportUnknown(
      screenReferences, .Ref.unknownScreen, isKnown: { flow.index(of: $0) != nil }, names: { flow.screens.map(\.id) },
      message: { "\($0.what) goes to unknown screen '\($0.target)' in flow '\(flow.id)'" })
    screenReferences.removeAll()
    checkFieldNames(in: flow, fields: fields)
  }

  /// Reports each of `references` whose target is not known, with a "did you mean" among
  /// `names` (listed and indexed for the first unknown target only).
  private mutating func reportUnknown(
    _ references: [Reference], _ id: DiagnosticID, isKnown: (String) -> Bool, names: () -> [String],
    message: (Reference) -> String
  ) {
    var known: SpellingIndex?
    // By index: `for … where` copied each reference (its strings and path retained and released).
    for i in references.indices where !isKnown(references[i].target) {
      let reference = references[i]
      if known == nil { known = SpellingIndex(names()) }
      append(
        Diagnostic(
          id, message: message(reference), file: file, location: reference.location, path: reference.path,
          notes: Self.didYouMean(reference.target, known!)))
    }
  }

  /// Field names "must be unique across your entire flow" and snake_case (document 000): a
  /// name collected twice is an error (the later value would overwrite the earlier), a name
  /// that is not snake_case a warning with the name to use. `fields` are those of
  /// `flow.screens`, screen by screen, hashed and tested where each screen was decoded.
  mutating func checkFieldNames(in flow: Flow, fields collected: CollectedFields) {
    // The first collection of each name, as `screen << 32 | field` (its position in `fields`),
    // in a table open-addressed by the names' hashes; -1 is an empty slot.
    let fields = collected.all
    var capacity = 16
    while capacity < 2 * fields.count { capacity *= 2 }
    let mask = capacity - 1
    var first = [Int](repeating: -1, count: capacity)
    var start = 0
    for (screen, end) in collected.ends.enumerated() {
      defer { start = end }
      for index in start..<end {
        var slot = fields[index].hash & mask
        var earlier: Int?
        while first[slot] >= 0 {
          let candidate = first[slot] & 0xFFFF_FFFF
          if fields[candidate].hash == fields[index].hash, fields[candidate].name == fields[index].name {
            earlier = first[slot] >> 32
            break
          }
          slot = (slot + 1) & mask
        }
        let field = fields[index]
        guard let earlier else {
          first[slot] = screen << 32 | index
          if !field.isSnakeCase { reportCase(of: field.name, at: field.location) }
          continue
        }
        let earlierField = fields[first[slot] & 0xFFFF_FFFF]
        let (earlierID, id) = (flow.screens[earlier].id, flow.screens[screen].id)
        let message =
          earlierID == id
          ? "field '\(field.name)' is collected twice on screen '\(id)'"
          : "field '\(field.name)' is also collected on screen '\(earlierID)'; field names must be unique across the flow"
        report(
          .error, .Ref.duplicateField, message, at: field.location,
          notes: [Diagnostic.Note("first collected here", at: earlierField.location)])
      }
    }
  }

  /// Warns that `field` is not snake_case, with the name to use when there is one.
  mutating func reportCase(of field: String, at location: SourceLocation) {
    var notes: [Diagnostic.Note] = []
    if let fixed = FieldNaming.snakeCase(field) {
      notes.append(Diagnostic.Note("rename it '\(fixed)' and read it as {\(fixed)}"))
    }
    report(.warning, .Load.fieldNameCase, "field name '\(field)' is not snake_case", at: location, notes: notes)
  }

  /// Unknown sub-flows and cycles of sub-flows are load errors: a cycle would never end.
  mutating func checkSubflows(_ flows: [Flow]) {
    let ids = Set(flows.map(\.id))
    reportUnknown(
      flowReferences, .Load.unknownFlow, isKnown: ids.contains, names: { flows.map(\.id) },
      message: { "\($0.what) runs unknown flow '\($0.target)'" })
    flowReferences.removeAll()
    var children: [String: [(String, Screen)]] = [:]
    for flow in flows {
      children[flow.id] = flow.screens.compactMap { screen in screen.subflow.map { ($0, screen) } }
    }
    // Depth-first with an explicit stack: a chain of 100,000 sub-flows is legal and must not
    // overflow the thread's stack. `onPath[id]` is the id's index in `path` while it is there.
    var onPath: [String: Int] = [:]
    var done = Set<String>()
    var reported = Set<String>()
    var path: [String] = []
    var next: [Int] = []  // per path entry, the index of the child to visit next
    for root in flows where !done.contains(root.id) {
      path = [root.id]
      next = [0]
      onPath[root.id] = 0
      while let id = path.last {
        let siblings = children[id] ?? []
        guard next[next.count - 1] < siblings.count else {
          done.insert(id)
          onPath[id] = nil
          path.removeLast()
          next.removeLast()
          continue
        }
        let (child, screen) = siblings[next[next.count - 1]]
        next[next.count - 1] += 1
        guard ids.contains(child), !done.contains(child) else { continue }
        if let start = onPath[child] {
          let cycle = (path[start...] + [child]).joined(separator: " → ")
          if reported.insert(cycle).inserted {
            append(
              Diagnostic(
                .Load.subflowCycle,
                message: "sub-flows form a cycle: \(cycle)", file: file, location: screen.location,
                notes: [Diagnostic.Note("screen '\(screen.id)' of flow '\(id)' runs flow '\(child)'")]))
          }
          continue
        }
        onPath[child] = path.count
        path.append(child)
        next.append(0)
      }
    }
  }

  mutating func checkExperimentFlows(_ experiments: [Experiment], flows: [Flow]) {
    let ids = flows.map(\.id)
    let known = Set(ids)
    var spelling: SpellingIndex?
    for experiment in experiments {
      for variant in experiment.variants {
        if let flow = variant.flow, !known.contains(flow) {
          if spelling == nil { spelling = SpellingIndex(ids) }
          append(
            Diagnostic(
              .Load.unknownFlow,
              message: "variant '\(variant.id)' of experiment '\(experiment.id)' uses unknown flow '\(flow)'",
              file: file, location: experiment.location, notes: Self.didYouMean(flow, spelling!)))
        }
      }
    }
  }
}
