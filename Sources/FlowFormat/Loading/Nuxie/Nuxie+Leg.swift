import FlowExpression
import OrderedCollections

/// Nuxie's era E journey: a release (`nuxie.journey-release.v2`, the leg with its screens'
/// controls and text inputs) or a bare leg (`nuxie.experience-planes.v1`), compiled into the
/// one model (docs/dialects/nuxie.md): every step is `Flow.steps[id]`, an outlet a `.step`,
/// a control's `emit` the route of its (screen, event), and the entry step the start action.
extension DecodeContext {
  mutating func decodeNuxieRelease(
    _ object: JSONObject, at location: SourceLocation, defaultID: String
  ) -> FlowDocument? {
    guard let legValue = object.lookup("leg") else {
      return decodeNuxieLeg(object, release: nil, flowID: string(object, "id") ?? defaultID, at: location)
    }
    guard let leg = at("leg", { $0.object(legValue) }) else { return nil }
    let flowID = object.lookup("identity")?.objectValue?["experienceVersionId"]?.stringValue ?? defaultID
    return at("leg") { $0.decodeNuxieLeg(leg, release: object, flowID: flowID, at: legValue.location) }
  }

  private mutating func decodeNuxieLeg(
    _ leg: JSONObject, release: JSONObject?, flowID: String, at location: SourceLocation
  ) -> FlowDocument? {
    var screenIDs: [String] = []
    for (index, value) in (array(leg, "screens") ?? []).enumerated() {
      at("screens") { context in
        context.at(.index(index)) { context in
          guard let screen = context.object(value),
            let id = context.requiredString(screen, "id", in: "a leg screen", at: value.location)
          else { return }
          if screenIDs.contains(id) {
            context.error(.Load.duplicateScreenID, "duplicate screen id '\(id)'", at: screen.lookup("id")?.location)
          } else {
            screenIDs.append(id)
          }
        }
      }
    }
    // Routes: (host, event) → entry step; the host is a screen id, or nil for the journey.
    var routes: [String: String] = [:]
    func routeKey(_ screen: String?, _ event: String) -> String { (screen ?? "") + "\u{1F}" + event }
    at("routes") { context in
      for (index, value) in (context.array(leg, "routes") ?? []).enumerated() {
        context.at(.index(index)) { context in
          guard let route = context.object(value), let event = context.string(route, "eventName"),
            let entry = context.string(route, "entryStepId")
          else { return }
          let host = route.lookup("host")?.objectValue
          let screen = host?["kind"]?.stringValue == "screen" ? host?["screenId"]?.stringValue : nil
          let key = routeKey(screen, event)
          if routes[key] != nil {
            context.error(
              .Nuxie.duplicateID, "a second route for event '\(event)' at the same host", at: value.location)
          }
          routes[key] = entry
        }
      }
    }
    var experiments: [Experiment] = []
    var steps: [String: Action] = [:]
    var stepLocations: [(String, SourceLocation)] = []
    at("steps") { context in
      for (index, value) in (context.array(leg, "steps") ?? []).enumerated() {
        context.at(.index(index)) { context in
          guard let step = context.object(value),
            let id = context.requiredString(step, "id", in: "a leg step", at: value.location)
          else { return }
          if steps[id] != nil {
            context.error(.Nuxie.duplicateID, "duplicate step id '\(id)'", at: step.lookup("id")?.location)
            return
          }
          steps[id] = context.legStep(step, at: value.location, screens: screenIDs, experiments: &experiments)
          stepLocations.append((id, value.location))
        }
      }
    }
    // Every outlet and route names a step of the leg (admission).
    func checkStep(_ id: String, at location: SourceLocation?, _ what: String) {
      guard steps[id] == nil else { return }
      report(
        .error, .Nuxie.danglingOutlet, "\(what) names step '\(id)', which the leg does not have", at: location,
        notes: Self.didYouMean(id, Array(steps.keys).sorted()))
    }
    for (id, location) in stepLocations {
      for target in Self.stepTargets(steps[id]!) { checkStep(target, at: location, "an outlet of step '\(id)'") }
    }
    for (_, entry) in routes.sorted(by: { $0.key < $1.key }) {
      checkStep(entry, at: leg.lookup("routes")?.location, "a route")
    }
    let entry = string(leg, "entryStepId")
    if let entry { checkStep(entry, at: leg.lookup("entryStepId")?.location, "entryStepId") }
    // Screens: text inputs and controls from the release.
    var built: [Screen] = []
    let behaviors = release.flatMap { array($0, "screenBehaviors") } ?? []
    let inputs = release?.lookup("render")?.objectValue?["textInputs"]?.arrayValue ?? []
    for (order, id) in screenIDs.enumerated() {
      var blocks: [Block] = []
      func add(_ content: BlockContent, _ blockID: String) {
        blocks.append(
          Block(
            id: blockID, type: "nuxie", order: blocks.count, visible: true, visibleWhen: nil, content: content,
            location: location))
      }
      add(.text(TextBlock(text: template(id, at: nil), variant: "h1", richText: [])), "\(id).title")
      for input in inputs {
        guard let object = input.objectValue, object["screenId"]?.stringValue == id,
          let inputID = object["id"]?.stringValue
        else { continue }
        let label = object["textName"]?.stringValue ?? inputID
        let secure = object["secureTextEntry"]?.boolValue == true
        add(
          .input(
            InputBlock(
              fieldName: inputID, label: template(label, at: input.location), placeholder: nil,
              kind: secure ? .password : .text, required: false, pattern: nil, patternMessage: nil, minLength: nil,
              maxLength: nil, min: nil, max: nil, defaultValue: object["value"].map(Value.init))), inputID)
      }
      for behavior in behaviors where behavior.objectValue?["screenId"]?.stringValue == id {
        for control in behavior.objectValue?["controls"]?.arrayValue ?? [] {
          guard let object = control.objectValue, let actionID = object["actionId"]?.stringValue else { continue }
          var actions: [Action] = []
          for item in object["behavior"]?.objectValue?["program"]?.arrayValue ?? [] {
            guard let program = item.objectValue, program["type"]?.stringValue == "emit",
              let event = program["eventName"]?.stringValue
            else { continue }
            actions.append(.emit(name: event, properties: .object([:])))
            // The screen's route, else the journey's (`routes`: declaration and handler in one).
            if let entry = routes[routeKey(id, event)] ?? routes[routeKey(nil, event)] { actions.append(.step(entry)) }
          }
          add(
            .button(
              ButtonBlock(
                text: template(actionID, at: control.location), action: Self.joined(actions), variant: nil, preset: nil)
            ), actionID)
        }
      }
      built.append(
        Screen(
          id: id, name: id, kind: .custom, type: "nuxie", order: order,
          content: ScreenContent(usesBlocks: true, blocks: blocks, buttonText: template("Continue", at: nil)),
          location: location))
    }
    guard !built.isEmpty || entry != nil else {
      error(.Load.missingKey, "the leg has no screens and no entryStepId", at: location)
      return nil
    }
    if built.isEmpty {
      // A report-only leg (`render: null`, no screens): one screen stands for the journey.
      built.append(
        Screen(
          id: "journey", name: "journey", kind: .custom, type: "nuxie", order: 0,
          content: ScreenContent(usesBlocks: true, blocks: [], buttonText: template("Continue", at: nil)),
          location: location))
    }
    let start = entry.map { Action.step($0) }
    var flow = Flow(
      id: flowID, name: release?.lookup("metadata")?.objectValue?["name"]?.stringValue ?? flowID, version: 1,
      screens: built, startScreenID: entry.flatMap { steps[$0] }.flatMap(Self.firstNavigation),
      experiments: experiments, location: location)
    flow.steps = steps
    flow.startAction = start
    var document = FlowDocument(shape: .flow, flows: [flow], entryFlowID: flow.id, experiments: experiments)
    document.dialect = .nuxie
    document.experienceID = release?.lookup("identity")?.objectValue?["experienceId"]?.stringValue ?? flowID
    return document
  }

  /// The steps an action's outlets go to.
  static func stepTargets(_ action: Action) -> [String] {
    switch action {
    case .step(let id): [id]
    case .sequence(let actions): actions.flatMap(stepTargets)
    case .branch(let branches, let otherwise):
      branches.flatMap { stepTargets($0.action) } + (otherwise.map(stepTargets) ?? [])
    case .experiment(_, let arms): arms.flatMap { stepTargets($0.action) }
    case .wait(let wait): stepTargets(wait.then) + stepTargets(wait.otherwise)
    case .custom(let custom):
      [custom.onSuccess, custom.onFailure, custom.onCancel].compactMap { $0 }.flatMap(stepTargets)
    default: []
    }
  }

  /// One step: `{kind: complete, outcome}` or `{kind: action, action, outlets}`.
  private mutating func legStep(
    _ step: JSONObject, at location: SourceLocation, screens: [String], experiments: inout [Experiment]
  ) -> Action {
    if string(step, "kind") == "complete" { return .complete }
    guard let action = step.lookup("action").flatMap({ object($0) }), let type = string(action, "type") else {
      error(.Load.missingKey, "an action step needs an 'action' with a 'type'", at: location)
      return .sequence([])
    }
    var outlets: [String: String] = [:]
    for member in step.lookup("outlets")?.objectValue?.members ?? [] {
      if let target = member.value.stringValue { outlets[member.key] = target }
    }
    // A missing outlet ends the route (the journey stays on its screen).
    func outlet(_ name: String) -> Action { outlets[name].map(Action.step) ?? .sequence([]) }
    switch type {
    case "navigate":
      guard let target = string(action, "screenId") else { return .sequence([]) }
      if !screens.contains(target) {
        report(
          .error, .Ref.unknownScreen, "navigate to unknown screen '\(target)'", at: action.lookup("screenId")?.location,
          notes: Self.didYouMean(target, screens))
      }
      return .screen(target)
    case "back": return .back(steps: max(1, action.integerValue("steps") ?? 1))
    case "dismiss": return .dismiss
    case "exit": return string(action, "reason") == "dismissed" ? .dismiss : .complete
    case "condition":
      var branches: [ActionBranch] = []
      for value in array(action, "branches") ?? [] {
        guard let branch = object(value), let id = string(branch, "id"), let condition = branch.lookup("condition")
        else { continue }
        let journey = at("condition") { $0.journeyCondition(condition) }
        branches.append(ActionBranch(id: id, condition: .journey(journey), action: outlet(id)))
      }
      return .branch(branches, otherwise: outlets["default"].map(Action.step))
    case "experiment":
      guard let id = string(action, "experimentId") else { return .sequence([]) }
      var arms: [ExperimentArm] = []
      var variants: [Experiment.Variant] = []
      for value in array(action, "variants") ?? [] {
        guard let variant = value.objectValue?["id"]?.stringValue else { continue }
        // Without a durable assignment the first variant runs (executor vectors): it weighs all.
        variants.append(Experiment.Variant(id: variant, weight: variants.isEmpty ? 1 : 0))
        arms.append(ExperimentArm(variant: variant, action: outlet(variant)))
      }
      if !experiments.contains(where: { $0.id == id }) {
        experiments.append(Experiment(id: id, salt: nil, variants: variants, location: location))
      }
      return .experiment(id: id, arms: arms)
    case "delay":
      let ms = number(action, "durationMs") ?? 0
      guard ms >= 0 else {
        error(.Campaign.negativeDuration, "durationMs must not be negative", at: action.lookup("durationMs")?.location)
        return .sequence([])
      }
      return .wait(ActionWait(until: .duration(ms: Int64(ms)), then: outlet("next"), otherwise: outlet("next")))
    case "time_window":
      guard let start = string(action, "startTime").flatMap(TimeWindow.minutes),
        let end = string(action, "endTime").flatMap(TimeWindow.minutes)
      else {
        error(.Campaign.malformedTime, "startTime and endTime must be HH:MM (00:00–23:59)", at: location)
        return .sequence([])
      }
      var days: Set<Int> = []
      for day in array(action, "daysOfWeek") ?? [] {
        guard let n = day.numberValue, n.rounded() == n, (0...6).contains(n) else {
          warning(.Nuxie.dayOutOfRange, "daysOfWeek holds 0 (Sunday) to 6 (Saturday) in a leg", at: day.location)
          continue
        }
        days.insert(Int(n))
      }
      let zone = action.lookup("timezone")?.objectValue
      let name = zone?["kind"]?.stringValue == "iana" ? zone?["identifier"]?.stringValue ?? "UTC" : "UTC"
      return .wait(
        ActionWait(
          until: .window(TimeWindow(start: start, end: end, days: days), zone: name == "Etc/UTC" ? "UTC" : name),
          then: outlet("inside"), otherwise: .sequence([])))
    case "wait_until":
      guard let condition = action.lookup("condition") else { return .sequence([]) }
      let journey = at("condition") { $0.journeyCondition(condition) }
      let maxMs = number(action, "maxTimeMs").map { Int64(max(0, $0)) }
      // `trigger {kind: event, eventName}`: only that event re-checks the condition.
      let trigger = action.lookup("trigger")?.objectValue
      let event = trigger?["kind"]?.stringValue == "event" ? trigger?["eventName"]?.stringValue : nil
      return .wait(
        ActionWait(
          until: .condition(.journey(journey), maxMs: maxMs), then: outlet("satisfied"), otherwise: outlet("timeout"),
          event: event))
    case "purchase", "restore":
      let names: [(outlet: String, event: String)] =
        type == "purchase"
        ? [("completed", "$purchase_completed"), ("failed", "$purchase_failed"), ("cancelled", "$purchase_cancelled")]
        : [
          ("restored", "$restore_completed"), ("failed", "$restore_failed"), ("no_purchases", "$restore_no_purchases"),
        ]
      let routes = names.map { Self.joined([.emit(name: $0.event, properties: .object([:])), outlet($0.outlet)]) }
      return .custom(
        CustomAction(
          identifier: type, awaitResult: true, onSuccess: routes[0], onFailure: routes[1], onCancel: routes[2]))
    case "send_event":
      guard let name = string(action, "eventName") else { return outlet("next") }
      return Self.joined([
        .emit(name: name, properties: action.lookup("properties").map(Value.init) ?? .object([:])), outlet("next"),
      ])
    case "call_delegate":
      let message = string(action, "message") ?? ""
      let payload = action.lookup("payload").map(Value.init) ?? .null
      return Self.joined([
        .emit(name: "$delegate_called", properties: .object(["message": .string(message), "payload": payload])),
        outlet("next"),
      ])
    case "grant_entitlement", "connector_action", "device_available", "handoff":
      error(
        .Nuxie.serverOnly, "'\(type)' runs on the server, never in a device leg", at: action.lookup("type")?.location)
      return .sequence([])
    default:
      report(
        .error, .Load.unknownActionType, "unknown action type '\(type)' in a leg", at: action.lookup("type")?.location,
        notes: Self.didYouMean(type, NuxieKeys.actions))
      return .sequence([])
    }
  }

  /// An era E JourneyCondition: `Truthy`, `Compare`, `Contains`, `All`, `Any`, `Not`; values
  /// `Null Boolean Number String Array Object Event.Field Response.Field`. An unknown type is an
  /// error in a leg (admission) and unknown at run time.
  mutating func journeyCondition(_ value: JSONValue) -> JourneyCondition {
    guard let object = value.objectValue, let type = object["type"]?.stringValue else {
      error(.Load.missingKey, "a condition needs a 'type'", at: value.location)
      return .unknown("")
    }
    func operand(_ key: String) -> JourneyValue { object[key].map(journeyValue) ?? .literal(.null) }
    func list(_ key: String) -> [JourneyCondition] { (object[key]?.arrayValue ?? []).map { journeyCondition($0) } }
    switch type {
    case "Truthy": return .truthy(operand("value"))
    case "Compare": return .compare(CompareOperator(object["op"]?.stringValue ?? ""), operand("left"), operand("right"))
    case "Contains": return .contains(collection: operand("collection"), value: operand("value"))
    case "All": return .all(list("conditions"))
    case "Any": return .any(list("conditions"))
    case "Not": return .not(object["condition"].map { journeyCondition($0) } ?? .unknown("Not"))
    default:
      error(.Nuxie.unknownCondition, "unknown condition type '\(type)'", at: object["type"]?.location)
      return .unknown(type)
    }
  }

  private func journeyValue(_ value: JSONValue) -> JourneyValue {
    guard let object = value.objectValue, let type = object["type"]?.stringValue else { return .literal(Value(value)) }
    switch type {
    case "Null": return .literal(.null)
    case "Boolean", "Number", "String": return .literal(object["value"].map(Value.init) ?? .null)
    case "Array": return .array((object["items"]?.arrayValue ?? []).map(journeyValue))
    case "Object":
      return .object((object["fields"]?.objectValue?.members ?? []).map { ($0.key, journeyValue($0.value)) })
    case "Event.Field": return .eventField(object["key"]?.stringValue ?? "")
    case "Response.Field": return .responseField(object["key"]?.stringValue ?? "")
    default: return .literal(Value(value))
    }
  }
}
