import FlowExpression

extension DecodeContext {
  /// Detects the document's shape and decodes it. A tree handed over whole (`consume`) is freed
  /// flow by flow and screen by screen as it is decoded (`JSONValue.take`).
  mutating func decodeDocument(_ root: consuming JSONValue, defaultID: String) -> FlowDocument? {
    guard let object = root.objectValue else {
      error(
        .Load.notAFlow,
        "expected a flow (an object with 'screens') or a bundle (an object with 'flows'), found \(root.typeDescription)",
        at: root.location)
      return nil
    }
    let (signature, evidence) = DocumentSignature.of(object)
    if options.dialect == nil, case .foreign(let what, let key, let reader) = signature {
      report(
        .error, .Load.unsupportedDialect, "this is \(what); supported: \(DocumentSignature.supported)",
        at: evidence?.keyLocation,
        notes: [
          Diagnostic.Note(
            reader.map { "told by \(key); \($0)" }
              ?? "told by \(key); flowrun cannot run it yet (`--dialect` forces a dialect it runs)")
        ])
      return nil
    }
    switch options.dialect ?? signature.dialect {
    case .appdna: return decodeAppDNA(object, at: root.location, defaultID: defaultID)
    case .nuxie:
      if let schema = object.lookup("schemaVersion")?.stringValue,
        DocumentSignature.runnableNuxieSchemas.contains(schema)
      {
        return decodeNuxieRelease(object, at: root.location, defaultID: defaultID)
      }
      return decodeNuxieRemoteFlow(
        object, at: root.location, defaultID: defaultID, description: signature == .nuxieFlowDescription)
    case .sequence, nil: break
    }
    let location = root.location
    root = JSONValue(.null, at: location)
    if object.lookup("flows") != nil {
      return decodeBundle(consume object, at: location, defaultID: defaultID)
    }
    if object.lookup("screens") != nil {
      guard let flow = decodeFlow(consume object, at: location, defaultID: defaultID) else {
        return nil
      }
      checkSubflows([flow])
      checkExperimentFlows(flow.experiments, flows: [flow])
      return FlowDocument(
        shape: .flow, flows: [flow], entryFlowID: flow.id, experiments: flow.experiments, secretFields: secretFields)
    }
    var notes: [Diagnostic.Note] = []
    if let guess = closestMatch(to: "screens", in: object.keys) ?? closestMatch(to: "flows", in: object.keys) {
      notes.append(Diagnostic.Note("found '\(guess)'; did you mean 'screens' or 'flows'?"))
    }
    report(
      .error, .Load.notAFlow,
      "expected a flow (an object with 'screens') or a bundle (an object with 'flows')",
      at: location, notes: notes)
    return nil
  }

  mutating func decodeBundle(
    _ object: consuming JSONObject,
    at location: SourceLocation,
    defaultID: String
  ) -> FlowDocument? {
    checkKeys(object, known: KnownKeys.bundle, owner: "the bundle")
    var flows: [Flow] = []
    guard var flowsValue = object.take("flows") else { return nil }
    let flowsLocation = flowsValue.location
    at("flows") { context in
      // Each flow is taken out of the tree before it is decoded, so that its screens die as
      // they are decoded (see `decodeDocument`). Not a `switch` on the kind: its subject is a
      // copy that would hold the whole tree until the switch ends.
      if var byID = flowsValue.objectValue {
        flowsValue = JSONValue(.null, at: flowsLocation)
        for i in byID.members.indices {
          let key = byID.members[i].key
          let location = byID.members[i].value.location
          context.at(key) { context in
            guard let flowObject = context.object(byID.members[i].value.take()) else { return }
            if let flow = context.decodeFlow(consume flowObject, at: location, defaultID: key) {
              if flow.id != key {
                context.warning(
                  .Load.flowIDMismatch,
                  "flow id '\(flow.id)' differs from its key '\(key)'; the key is used",
                  at: location)
              }
              var keyed = flow
              keyed.id = key
              flows.append(keyed)
            }
          }
        }
      } else if var items = flowsValue.arrayValue {
        flowsValue = JSONValue(.null, at: flowsLocation)
        for index in items.indices {
          let location = items[index].location
          context.at(.index(index)) { context in
            guard let flowObject = context.object(items[index].take()) else { return }
            if flowObject.lookup("id") == nil {
              context.error(.Load.missingKey, "a flow in a bundle array needs an 'id'", at: location)
            }
            if let flow = context.decodeFlow(consume flowObject, at: location, defaultID: "flow\(index + 1)") {
              flows.append(flow)
            }
          }
        }
      } else {
        context.mismatch(flowsValue, expected: "an object of flows by id, or an array of flows")
      }
    }
    var seen: [String: SourceLocation] = [:]
    for flow in flows {
      if let first = seen[flow.id] {
        report(
          .error, .Load.duplicateFlowID, "duplicate flow id '\(flow.id)'", at: flow.location,
          notes: [Diagnostic.Note("first defined here", at: first)])
      } else {
        seen[flow.id] = flow.location
      }
    }
    guard !flows.isEmpty else {
      error(.Load.emptyBundle, "the bundle has no flows", at: flowsLocation)
      return nil
    }
    var entry = flows[0].id
    if let active = string(object, "activeFlow") {
      if seen[active] != nil {
        entry = active
      } else {
        let notes =
          closestMatch(to: active, in: flows.map(\.id)).map { [Diagnostic.Note("did you mean '\($0)'?")] } ?? []
        at("activeFlow") {
          $0.report(
            .error, .Load.unknownFlow, "activeFlow names unknown flow '\(active)'",
            at: object.lookup("activeFlow")?.location, notes: notes)
        }
      }
    }
    let bundleExperiments = at("experiments") { $0.decodeExperiments(object.lookup("experiments")) }
    let experiments = bundleExperiments + (flows.first { $0.id == entry }?.experiments ?? [])
    checkSubflows(flows)
    checkExperimentFlows(experiments, flows: flows)
    return FlowDocument(shape: .bundle, flows: flows, entryFlowID: entry, experiments: experiments)
  }

  mutating func decodeFlow(_ object: consuming JSONObject, at location: SourceLocation, defaultID: String) -> Flow? {
    checkKeys(object, known: KnownKeys.flow, owner: "a flow")
    let id = string(object, "id") ?? defaultID
    let name = string(object, "name") ?? id
    let version = integer(object, "version")
    if object.lookup("version") == nil {
      warning(.Load.missingVersion, "flow '\(id)' has no 'version' (Sequence requires it); assuming 1", at: location)
    }
    guard var screenValues = array(object, "screens") else {
      if object.lookup("screens") == nil {
        error(.Load.missingKey, "flow '\(id)' is missing required key 'screens'", at: location)
      }
      return nil
    }
    if screenValues.isEmpty {
      at("screens") { $0.error(.Load.emptyFlow, "flow '\(id)' has no screens", at: object.lookup("screens")?.location) }
      return nil
    }
    // The object lets go of its screens, and each screen is taken out before it is decoded: its
    // subtree dies once decoded (see `decodeDocument`).
    let screensOffset = object.take("screens")?.location.offset ?? -1
    screenReferences.removeAll()
    // Where each decoded screen's id is written (`idLocations`): duplicates point at the id
    // itself, since that is what needs changing. (Remembered while decoding: searching the
    // values for each screen afterwards was quadratic in the number of screens.)
    var decoded = BuiltScreens()
    if var runs = decodedScreens.removeValue(forKey: screensOffset),
      runs.reduce(0, { $0 + $1.count }) == screenValues.count
    {
      // Decoded while the file was parsed (`ScreenSplit`, `ScreenPipeline`): the same screens and reports, in
      // the same order. A half's columns are taken whole or appended, its screens moved, not
      // copied (`MovedElements`).
      for i in runs.indices {
        var run = runs[i]
        runs[i] = DecodedRun()
        for screen in run.screens {
          merge(screen.reports)
          decoded.count += 1
          if let model = screen.screen {
            decoded.screens.append(model)
            decoded.idLocations.append(screen.idLocation)
            decoded.fields.append(screen.fields)
          }
        }
        decoded.append(moving: &run.built)
        merge(run.reports)
      }
    } else {
      decoded.idLocations.reserveCapacity(screenValues.count)
      at("screens") { context in
        for index in screenValues.indices {
          let value = screenValues[index].take()
          context.at(.index(index)) { context in
            if let screen = context.decodeScreen(value, index: index) {
              decoded.idLocations.append(value.objectValue?.lookup("id")?.location)
              decoded.fields.append(fieldsOf: screen)
              decoded.screens.append(screen)
            }
          }
        }
      }
    }
    var screens = decoded.screens.removeAll()
    let idLocations = decoded.idLocations
    var fields = decoded.fields
    decoded = BuiltScreens()
    // Each id's first screen, by position, to find duplicates and `startScreen`.
    var firstByID: [String: Int] = [:]
    firstByID.reserveCapacity(screens.count)
    for i in screens.indices {
      // One hash a screen: a duplicate puts the first position back.
      if let first = firstByID.updateValue(i, forKey: screens[i].id) {
        firstByID[screens[i].id] = first
        report(
          .error, .Load.duplicateScreenID, "duplicate screen id '\(screens[i].id)'",
          at: idLocations[i] ?? screens[i].location,
          notes: [Diagnostic.Note("first defined here", at: idLocations[first] ?? screens[first].location)])
      }
    }
    let order = screens.indices.map { (screens[$0].order, $0) }
    let sorted = !order.indices.dropFirst().contains { order[$0] < order[$0 - 1] }
    if !sorted {
      screens = screens.inOrder(of: order) { $0 < $1 }
      fields = fields.inOrder(screens.indices.sorted { order[$0] < order[$1] })
    }
    var start: String?
    if let startID = string(object, "startScreen") {
      if firstByID[startID] != nil {
        start = startID
      } else {
        at("startScreen") {
          $0.report(
            .error, .Ref.unknownScreen, "startScreen names unknown screen '\(startID)'",
            at: object.lookup("startScreen")?.location, notes: Self.didYouMean(startID, screens.map(\.id)))
        }
      }
    }
    let flow = Flow(
      id: id, name: name, version: version ?? 1, screens: screens, startScreenID: start,
      settings: at("settings") { $0.decodeSettings(object.lookup("settings")) },
      progressIndicator: at("progressIndicator") { $0.decodeProgressIndicator(object.lookup("progressIndicator")) },
      assignedExperiment: at("experiment") { $0.decodeAssignedExperiment(object.lookup("experiment")) },
      experiments: at("experiments") { $0.decodeExperiments(object.lookup("experiments")) },
      transitions: at("transitions") { $0.decodeTransitions(object.lookup("transitions")) },
      location: location)
    resolveScreenReferences(in: flow, fields: fields)
    secretFields = fields.secretNames
    return flow
  }

  static func didYouMean(_ word: String, _ candidates: [String]) -> [Diagnostic.Note] {
    note(closestMatch(to: word, in: candidates))
  }

  /// The same for repeated questions over one set of candidates.
  static func didYouMean(_ word: String, _ candidates: SpellingIndex) -> [Diagnostic.Note] {
    note(candidates.closest(to: word))
  }

  private static func note(_ guess: String?) -> [Diagnostic.Note] {
    guess.map { [Diagnostic.Note("did you mean '\($0)'?")] } ?? []
  }

  mutating func decodeSettings(_ value: JSONValue?) -> FlowSettings {
    guard let value, let object = object(value) else { return FlowSettings() }
    checkKeys(object, known: KnownKeys.settings, owner: "settings")
    return FlowSettings(
      allowBack: bool(object, "allowBack") ?? true,
      showProgress: bool(object, "showProgress") ?? true,
      dismissAllowed: bool(object, "dismissAllowed") ?? true)
  }

  mutating func decodeProgressIndicator(_ value: JSONValue?) -> ProgressIndicator? {
    guard let value, let object = object(value) else { return nil }
    checkKeys(object, known: KnownKeys.progressIndicator, owner: "progressIndicator")
    if object.lookup("enabled") == nil {
      warning(
        .Load.missingKey, "progressIndicator is missing 'enabled' (Sequence requires it); assuming true",
        at: value.location)
    }
    var variant = ProgressIndicator.Variant.bar
    if let raw = string(object, "variant") {
      if let known = ProgressIndicator.Variant(rawValue: raw) {
        variant = known
      } else {
        at("variant") {
          $0.warning(
            .Load.unknownValue, "unknown progress variant '\(raw)' (bar, dots, steps, minimal); using bar",
            at: object.lookup("variant")?.location)
        }
      }
    }
    var skip: [Int] = []
    if let items = array(object, "skipScreens") {
      at("skipScreens") { context in
        for (index, item) in items.enumerated() {
          if case .number(let d, _) = item.kind, d.rounded() == d, d >= 0, d < 1e9 {
            skip.append(Int(d))
          } else {
            context.at(.index(index)) { $0.mismatch(item, expected: "a screen index (a whole number)") }
          }
        }
      }
    }
    return ProgressIndicator(
      enabled: bool(object, "enabled") ?? true, variant: variant,
      position: string(object, "position") ?? "top",
      startScreen: integer(object, "startScreen"), endScreen: integer(object, "endScreen"),
      skipScreens: skip)
  }

  mutating func decodeAssignedExperiment(_ value: JSONValue?) -> AssignedExperiment? {
    guard let value, let object = object(value) else { return nil }
    checkKeys(object, known: KnownKeys.assignedExperiment, owner: "experiment")
    let id = string(object, "id")
    let variantID = string(object, "variantId") ?? string(object, "variant")
    guard let id, let variantID else {
      report(
        .error, .Load.experimentShape,
        "experiment needs 'id' and a variant ('variantId' or 'variant')", at: value.location,
        notes: [Diagnostic.Note("expected {\"id\", \"variantId\", \"variantName\"} or {\"id\", \"variant\"}")])
      return nil
    }
    return AssignedExperiment(id: id, variantID: variantID, variantName: string(object, "variantName") ?? variantID)
  }

  mutating func decodeExperiments(_ value: JSONValue?) -> [Experiment] {
    guard let value else { return [] }
    guard let items = value.arrayValue else {
      mismatch(value, expected: "an array of experiments")
      return []
    }
    var experiments: [Experiment] = []
    for (index, item) in items.enumerated() {
      at(.index(index)) { context in
        guard let object = context.object(item) else { return }
        context.checkKeys(object, known: KnownKeys.experiment, owner: "an experiment")
        guard let id = context.requiredString(object, "id", in: "an experiment", at: item.location) else { return }
        var variants: [Experiment.Variant] = []
        let variantValues = context.array(object, "variants") ?? []
        context.at("variants") { context in
          for (vIndex, variantValue) in variantValues.enumerated() {
            context.at(.index(vIndex)) { context in
              guard let variant = context.object(variantValue) else { return }
              context.checkKeys(variant, known: KnownKeys.variant, owner: "an experiment variant")
              guard let variantID = context.requiredString(variant, "id", in: "a variant", at: variantValue.location)
              else { return }
              let weight = context.number(variant, "weight") ?? 1
              if !(0...Limits.magnitude).contains(weight) {
                context.at("weight") {
                  $0.error(
                    .Load.badWeight,
                    "variant weight must be \(Limits.text(0...Limits.magnitude)), found \(NumberFormatting.javaScriptString(weight))",
                    at: variant.lookup("weight")?.location)
                }
              }
              if variants.contains(where: { $0.id == variantID }) {
                context.error(
                  .Load.duplicateVariant, "duplicate variant id '\(variantID)' in experiment '\(id)'",
                  at: variantValue.location)
              }
              variants.append(
                Experiment.Variant(
                  id: variantID, weight: Limits.clamp(weight, to: 0...Limits.magnitude),
                  flow: context.string(variant, "flow")))
            }
          }
        }
        if variants.isEmpty {
          context.error(.Load.emptyExperiment, "experiment '\(id)' has no variants", at: item.location)
          return
        }
        if variants.allSatisfy({ $0.weight == 0 }) {
          context.error(.Load.badWeight, "experiment '\(id)' has no variant with a positive weight", at: item.location)
          return
        }
        var fallback = context.string(object, "default")
        if let name = fallback, !variants.contains(where: { $0.id == name }) {
          context.at("default") {
            $0.report(
              .error, .Ref.unknownVariant,
              "experiment '\(id)' has no variant '\(name)' to default to; variants: \(variants.map(\.id).joined(separator: ", "))",
              at: object.lookup("default")?.location, notes: Self.didYouMean(name, variants.map(\.id)))
          }
          fallback = nil
        }
        experiments.append(
          Experiment(
            id: id, salt: context.string(object, "salt"), variants: variants, defaultVariant: fallback,
            location: item.location))
      }
    }
    return experiments
  }
}
