import FlowExpression

/// AppDNA documents (a single flow, `{active_flow_id, flows}`, the remote-config bundle)
/// compiled into the one model (docs/dialects/appdna.md). Nothing after FlowFormat knows the
/// dialect: every command runs the compiled flows on the same engine.
extension DecodeContext {
  mutating func decodeAppDNA(
    _ object: JSONObject, at location: SourceLocation, defaultID: String
  ) -> FlowDocument? {
    if object.lookup("steps") != nil {
      guard let flow = decodeAppDNAFlow(object, at: location, defaultID: defaultID, keyed: nil) else { return nil }
      if Self.isDraft(object) {
        warning(
          .AppDNA.draftFlow, "flow '\(flow.id)' is a draft; it runs because the file holds only this flow",
          at: object.lookup("status")?.location)
      }
      var document = FlowDocument(shape: .flow, flows: [flow], entryFlowID: flow.id, experiments: [])
      document.dialect = .appdna
      return document
    }
    if let onboarding = object.lookup("onboarding") {
      checkKeys(object, known: AppDNAKeys.bundle, owner: "the AppDNA bundle")
      if let paywalls = object.member("paywalls") {
        warning(.AppDNA.notRunYet, "the bundle's paywalls are read but not run yet", at: paywalls.keyLocation)
      }
      guard
        var document = at(
          "onboarding",
          { context -> FlowDocument? in
            guard let inner = context.object(onboarding) else { return nil }
            return context.decodeAppDNAFlows(inner, at: onboarding.location)
          })
      else { return nil }
      if let experiments = object.lookup("experiments") {
        var flows = document.flows
        let experiment = at("experiments") {
          $0.appdnaExperiment(experiments, entry: document.entryFlowID, flows: &flows)
        }
        if let experiment {
          document.flows = flows
          document.experiments = [experiment]
        }
      }
      return document
    }
    if object.lookup("flows") != nil {
      return decodeAppDNAFlows(object, at: location)
    }
    error(
      .Load.notAFlow,
      "expected an AppDNA flow (an object with 'steps'), a flows document ('flows') or a bundle ('onboarding')",
      at: location)
    return nil
  }

  /// `{active_flow_id, flows}`: drafts are never chosen (document 001); the entry flow is
  /// `active_flow_id`, else the first flow that is not a draft.
  private mutating func decodeAppDNAFlows(_ object: JSONObject, at location: SourceLocation) -> FlowDocument? {
    checkKeys(object, known: AppDNAKeys.flows, owner: "the AppDNA flows document")
    guard let flowsValue = object.lookup("flows") else {
      error(.Load.missingKey, "the AppDNA flows document is missing required key 'flows'", at: location)
      return nil
    }
    var flows: [Flow] = []
    var drafts: Set<String> = []
    var audiences: [FlowAudience] = []
    at("flows") { context in
      var entries: [(key: String?, value: JSONValue, path: PathComponent)] = []
      switch flowsValue.kind {
      case .object(let byID): entries = byID.members.map { ($0.key, $0.value, .key($0.key)) }
      case .array(let items): entries = items.enumerated().map { (nil, $0.element, .index($0.offset)) }
      default: context.mismatch(flowsValue, expected: "an object of flows by id, or an array of flows")
      }
      for (index, entry) in entries.enumerated() {
        context.at(entry.path) { context in
          guard let flowObject = context.object(entry.value) else { return }
          let fallback = entry.key ?? "flow\(index + 1)"
          guard
            let flow = context.decodeAppDNAFlow(
              flowObject, at: entry.value.location, defaultID: fallback, keyed: entry.key)
          else { return }
          // iOS 1.0.70 never reads `status`: with --ios-quirks a draft is a flow like any other.
          if Self.isDraft(flowObject), !context.options.iosQuirks {
            drafts.insert(flow.id)
            context.warning(
              .AppDNA.draftFlow, "flow '\(flow.id)' is a draft; it is never chosen (document 001)",
              at: flowObject.lookup("status")?.location)
          }
          if let rules = flowObject.lookup("audience_rules"), !drafts.contains(flow.id),
            let audience = context.at("audience_rules", { $0.appdnaAudience(rules, flowID: flow.id) })
          {
            audiences.append(audience)
          }
          flows.append(flow)
        }
      }
    }
    guard !flows.isEmpty else {
      error(.Load.emptyBundle, "the AppDNA document has no flows", at: flowsValue.location)
      return nil
    }
    var entry = flows.first { !drafts.contains($0.id) }?.id
    if let activeValue = object.lookup("active_flow_id"), let active = string(activeValue, "active_flow_id") {
      if drafts.contains(active) {
        warning(
          .AppDNA.draftFlow, "active_flow_id names draft flow '\(active)'; it is not chosen", at: activeValue.location)
      } else if flows.contains(where: { $0.id == active }) {
        entry = active
      } else {
        report(
          .error, .Load.unknownFlow, "active_flow_id names unknown flow '\(active)'", at: activeValue.location,
          notes: Self.didYouMean(active, flows.map(\.id)))
      }
    }
    guard let entry else {
      error(.Load.emptyBundle, "every flow of the AppDNA document is a draft; none can be presented", at: location)
      return nil
    }
    // Drafts stay out of the document: `--flow` cannot choose them either.
    let delivered = flows.filter { !drafts.contains($0.id) }
    var document = FlowDocument(shape: .bundle, flows: delivered, entryFlowID: entry, experiments: [])
    document.dialect = .appdna
    // Highest priority first; ties keep the file's order (a stable sort).
    document.audiences = audiences.enumerated().sorted {
      ($1.element.priority, $0.offset) < ($0.element.priority, $1.offset)
    }
    .map(\.element)
    return document
  }

  private static func isDraft(_ object: JSONObject) -> Bool {
    object.lookup("status")?.stringValue?.lowercased() == "draft"
  }

  /// One AppDNA flow. `keyed`: its key in a flows map, which wins over its `id`.
  mutating func decodeAppDNAFlow(
    _ object: JSONObject, at location: SourceLocation, defaultID: String, keyed: String?
  ) -> Flow? {
    checkKeys(object, known: AppDNAKeys.flow, owner: "an AppDNA flow")
    var id = keyed ?? string(object, "id")
    if id == nil {
      warning(.AppDNA.generatedID, "the flow has no 'id'; using '\(defaultID)'", at: location)
      id = defaultID
    }
    guard let id else { return nil }
    let version = integer(object, "version") ?? 1
    let settingsObject = object.lookup("settings").flatMap { value in at("settings") { $0.object(value) } }
    var settings = FlowSettings()
    var progress: ProgressIndicator?
    if let settingsObject {
      at("settings") { context in
        context.checkKeys(settingsObject, known: AppDNAKeys.settings, owner: "the flow settings")
        settings.allowBack = context.appdnaBool(settingsObject, "allow_back") ?? true
        settings.dismissAllowed = context.appdnaBool(settingsObject, "dismiss_allowed") ?? true
        settings.showProgress = context.appdnaBool(settingsObject, "show_progress") ?? true
        let style = context.string(settingsObject, "progress_style") ?? "continuous_bar"
        let variant: ProgressIndicator.Variant =
          switch style {
          case "dots": .dots
          case "segmented_bar": .steps
          case "fraction": .minimal
          default: .bar
          }
        progress = ProgressIndicator(enabled: settings.showProgress && style != "none", variant: variant)
      }
    }
    let stepValues = array(object, "steps") ?? []
    let nodes = object.lookup("graph_nodes")?.objectValue
    let stepIDs = stepValues.enumerated().map { index, value in
      value.objectValue?.lookup("id")?.stringValue ?? "step-\(index + 1)"
    }
    var screens: [Screen] = []
    at("steps") { context in
      for (index, value) in stepValues.enumerated() {
        context.at(.index(index)) { context in
          let step = AppDNAStepContext(
            flowID: id, index: index, stepIDs: stepIDs, graphNodes: nodes)
          if let screen = context.decodeAppDNAStep(value, step: step) { screens.append(screen) }
        }
      }
    }
    guard !screens.isEmpty else {
      error(.Load.emptyFlow, "AppDNA flow '\(id)' has no steps", at: object.lookup("steps")?.location ?? location)
      return nil
    }
    var flow = Flow(
      id: id, name: string(object, "name") ?? id, version: version, screens: screens,
      settings: settings, progressIndicator: progress, location: location)
    flow.versionGiven = object.lookup("version") != nil
    checkFieldNames(in: flow, fields: CollectedFields(of: flow.screens))
    return flow
  }

  /// A boolean, or the SDK's sanitized `"true"`/`"false"` string (with a warning).
  mutating func appdnaBool(_ object: JSONObject, _ key: String) -> Bool? {
    guard let value = object.lookup(key) else { return nil }
    if let text = value.stringValue, let flag = ["true": true, "false": false][text.lowercased()] {
      at(key) {
        $0.warning(.AppDNA.sanitizedBool, "'\(key)' is the string \"\(text)\"; read as \(flag)", at: value.location)
      }
      return flag
    }
    return bool(object, key)
  }
}

/// What compiling one step needs to know about its flow.
struct AppDNAStepContext {
  var flowID: String
  var index: Int
  var stepIDs: [String]
  var graphNodes: JSONObject?

  var stepID: String { stepIDs[index] }
  var isLast: Bool { index == stepIDs.count - 1 }
}
