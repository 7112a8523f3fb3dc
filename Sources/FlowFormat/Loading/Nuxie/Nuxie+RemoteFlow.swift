import FlowExpression
import OrderedCollections

/// Nuxie's era B `RemoteFlow` compiled into the one model (docs/dialects/nuxie.md): each screen
/// becomes a block screen whose buttons are the components a user presses, whose `onEnter` is
/// its `$screen_shown` interactions, and whose view-model values are shown as text. Nothing
/// after FlowFormat knows the dialect.
extension DecodeContext {
  /// The interactions of one host (`__global__`, a screen id or a component id) by trigger.
  struct NuxieInteraction {
    var id: String
    var trigger: String
    var eventName: String?
    /// A `did_set` trigger's view-model path (`Model.property`).
    var path: [String]? = nil
    var actions: [JSONValue]
    var location: SourceLocation
  }

  /// What the action compiler reads while compiling one screen's interactions.
  struct NuxieScope {
    var screenIDs: [String]
    var interactions: [String: [NuxieInteraction]]
    var screen: String
    /// Era C: the events each host declares (`events`; the journey host is `__global__`), and
    /// whether the journey host is declaration-strict; nil for era B, which declares nothing.
    var declared: (events: [String: Set<String>], journeyStrict: Bool)? = nil
    /// Waits, purchases and restores being compiled around the rest of their list: each nests
    /// the rest inside it, so their number bounds the nesting (`nuxieFoldLimit`).
    var folds = 0
    /// The rest of a list after a wait, a purchase or a restore, as a step of its own: each
    /// outcome runs it by name (`Action.step`) instead of holding a copy.
    var continuations: [String: Action] = [:]

    /// The hosts whose handlers an event runs on this screen. Era B: the screen's, then
    /// `__global__`'s. Era C (declaration-strict, research §1.3): the screen's when it declares
    /// the event, otherwise the journey's when the journey may take it — never both.
    func eventHosts(_ name: String) -> [String] {
      guard let declared else { return [screen, "__global__"] }
      if declared.events[screen]?.contains(name) == true { return [screen] }
      if !declared.journeyStrict || declared.events["__global__"]?.contains(name) == true { return ["__global__"] }
      return []
    }

    mutating func continuation(_ rest: Action) -> Action {
      if case .sequence(let actions) = rest, actions.isEmpty { return rest }
      let id = "~\(screen).\(continuations.count + 1)"
      continuations[id] = rest
      return .step(id)
    }
  }

  /// A RemoteFlow, or (`description`) an era C flow description read into the same terms.
  mutating func decodeNuxieRemoteFlow(
    _ object: JSONObject, at location: SourceLocation, defaultID: String, description isDescription: Bool = false
  ) -> FlowDocument? {
    // Interactions are compiled once per screen that shows them: their problems are told once.
    let firstDiagnostic = diagnostics.count
    defer { dropRepeatedDiagnostics(since: firstDiagnostic) }
    checkKeys(
      object, known: isDescription ? NuxieKeys.flowDescription : NuxieKeys.remoteFlow,
      owner: isDescription ? "the Nuxie flow description" : "the Nuxie RemoteFlow")
    let flowID = string(object, "id") ?? defaultID
    var screens: [(id: String, name: String, viewModel: String?, location: SourceLocation)] = []
    at("screens") { context in
      for (index, value) in (context.array(object, "screens") ?? []).enumerated() {
        context.at(.index(index)) { context in
          guard let screen = context.object(value) else { return }
          context.checkKeys(screen, known: NuxieKeys.screen, owner: "a Nuxie screen")
          guard let id = context.requiredString(screen, "id", in: "a Nuxie screen", at: value.location) else { return }
          if screens.contains(where: { $0.id == id }) {
            context.error(.Load.duplicateScreenID, "duplicate screen id '\(id)'", at: screen.lookup("id")?.location)
            return
          }
          screens.append(
            (id, context.string(screen, "name") ?? id, context.string(screen, "defaultViewModelId"), value.location))
        }
      }
    }
    guard !screens.isEmpty else {
      error(.Load.missingKey, "the Nuxie RemoteFlow has no screens", at: object.lookup("screens")?.location ?? location)
      return nil
    }
    let description = isDescription ? nuxieDescription(object) : nil
    let (viewModels, initialData) =
      description.map { ([:], $0.initialData) } ?? at("viewModels") { $0.nuxieViewModels(object) }
    let interactions = description?.interactions ?? at("interactions") { $0.nuxieInteractions(object) }
    let components =
      description?.controls ?? at("components") { $0.nuxieComponents(object, screens: screens.map(\.id)) }
    // Without `components` every component host is a control of every screen: bounded, so a
    // big flow gets a clear error instead of millions of controls.
    let everywhere = Self.componentHosts(interactions, screens: screens.map(\.id))
    if description == nil, object.lookup("components") == nil, screens.count * everywhere.count > Self.controlsLimit {
      error(
        .Nuxie.tooManyControls,
        "\(everywhere.count) components on each of \(screens.count) screens make more than "
          + "\(Self.controlsLimit) controls; add the `components` extension ({screenId: [{id, label}]}) to say "
          + "which screen shows which",
        at: object.member("interactions")?.keyLocation ?? location)
      return nil
    }
    var experiments: [Experiment] = []
    var steps: [String: Action] = [:]
    var built: [Screen] = []
    for (order, screen) in screens.enumerated() {
      var scope = NuxieScope(screenIDs: screens.map(\.id), interactions: interactions, screen: screen.id)
      scope.declared = description?.declared
      var blocks: [Block] = []
      func add(_ content: BlockContent, _ id: String, at location: SourceLocation) {
        blocks.append(
          Block(
            id: id, type: "nuxie", order: blocks.count, visible: true, visibleWhen: nil, content: content,
            location: location))
      }
      add(
        .text(TextBlock(text: template(screen.name, at: screen.location), variant: "h1", richText: [])),
        "\(screen.id).title", at: screen.location)
      if let viewModel = screen.viewModel, let model = viewModels[viewModel] {
        for property in model.properties {
          let text = "\(model.name).\(property) = {\(model.name).\(property)}"
          add(
            .text(TextBlock(text: template(text, at: nil), variant: "body", richText: [])), "\(screen.id).\(property)",
            at: screen.location)
        }
      }
      let shown = components[screen.id] ?? (description == nil ? everywhere : [])
      for component in shown {
        // Era C: a control sends the event its screen declares.
        let action =
          description == nil
          ? compileGesture("press", component: component.id, scope: &scope, experiments: &experiments)
          : compileEvent(component.id, scope: &scope, experiments: &experiments) ?? .sequence([])
        add(
          .button(
            ButtonBlock(
              text: template(component.label, at: component.location), action: action, variant: nil, preset: nil)),
          component.id, at: component.location)
        // A long press is a control of its own where any host on the way has one.
        let hosts = [component.id, screen.id, "__global__"]
        if description == nil,
          hosts.contains(where: { interactions[$0]?.contains { $0.trigger == "long_press" } == true })
        {
          let longPress = compileGesture(
            "long_press", component: component.id, scope: &scope, experiments: &experiments)
          add(
            .button(
              ButtonBlock(
                text: template(component.label + " (long press)", at: component.location), action: longPress,
                variant: nil, preset: nil)),
            component.id + "~long_press", at: component.location)
        }
      }
      let onEnter = compileEvent("$screen_shown", scope: &scope, experiments: &experiments)
      steps.merge(scope.continuations) { first, _ in first }
      built.append(
        Screen(
          // A name that shows values (`{Offer.headline}`) is the screen's title; headers say the id.
          id: screen.id, name: screen.name.contains("{") ? screen.id : screen.name, kind: .custom, type: "nuxie",
          order: order,
          content: ScreenContent(usesBlocks: true, blocks: blocks, buttonText: template("Continue", at: nil)),
          onEnter: onEnter, location: screen.location))
    }
    // `start` interactions run before any screen (`Flow.startAction`); the screen their first
    // navigation goes to is the first one (the graph starts there), else `screens[0]`.
    var startScope = NuxieScope(screenIDs: screens.map(\.id), interactions: interactions, screen: screens[0].id)
    startScope.declared = description?.declared
    startScope.screen = "start"
    let starts =
      description == nil
      ? (interactions["__global__"] ?? []).filter { $0.trigger == "start" }
      : Self.nuxieEntryHandlers(interactions, scope: startScope)
    let startAction = Self.joined(
      starts.map { compileActions($0.actions[...], scope: &startScope, experiments: &experiments, depth: 0) })
    steps.merge(startScope.continuations) { first, _ in first }
    var flow = Flow(
      id: flowID, name: string(object, "name") ?? flowID, version: 1, screens: built,
      startScreenID: Self.firstNavigation(startAction), experiments: experiments, location: location)
    flow.initialData = initialData
    flow.startAction = starts.isEmpty ? nil : startAction
    flow.steps = steps
    var document = FlowDocument(shape: .flow, flows: [flow], entryFlowID: flow.id, experiments: experiments)
    document.dialect = .nuxie
    return document
  }

  /// The screen an action goes to first when it runs straight through, if any.
  static func firstNavigation(_ action: Action) -> String? {
    switch action {
    case .screen(let id): id
    case .sequence(let actions): actions.lazy.compactMap(firstNavigation).first
    default: nil
    }
  }

  /// Component hosts without the `components` extension: every host that is neither a screen
  /// nor `__global__` and has a press or a long press, shown on every screen (the SDK takes any
  /// component id on any screen).
  static func componentHosts(_ interactions: [String: [NuxieInteraction]], screens: [String]) -> [NuxieComponent] {
    interactions.keys.sorted().compactMap { host in
      guard host != "__global__", !screens.contains(host),
        let press = interactions[host]?.first(where: { $0.trigger == "press" || $0.trigger == "long_press" })
      else { return nil }
      return NuxieComponent(id: host, label: host, location: press.location)
    }
  }

  /// The most controls the screens of a RemoteFlow without `components` may have in all.
  static let controlsLimit = 10_000

  struct NuxieComponent {
    var id: String
    var label: String
    var location: SourceLocation
  }

  struct NuxieViewModel {
    var name: String
    var properties: [String]
  }

  /// `viewModels` (by id: name and property names) and the values the session starts with:
  /// each view model's defaults under its name, overridden by `viewModelInstances` values.
  private mutating func nuxieViewModels(
    _ object: JSONObject
  ) -> ([String: NuxieViewModel], OrderedDictionary<String, Value>) {
    var models: [String: NuxieViewModel] = [:]
    var names: [String: String] = [:]
    var data: OrderedDictionary<String, Value> = [:]
    for (index, value) in (array(object, "viewModels") ?? []).enumerated() {
      at(.index(index)) { context in
        guard let model = context.object(value),
          let id = context.requiredString(model, "id", in: "a Nuxie view model", at: value.location)
        else { return }
        let name = context.string(model, "name") ?? id
        var defaults: OrderedDictionary<String, Value> = [:]
        var properties: [String] = []
        if let members = model.lookup("properties")?.objectValue {
          for member in members.members {
            properties.append(member.key)
            defaults[member.key] = member.value.objectValue?["defaultValue"].map(Value.init) ?? .null
          }
        }
        models[id] = NuxieViewModel(name: name, properties: properties)
        names[id] = name
        data[name] = .object(defaults)
      }
    }
    at("viewModelInstances") { context in
      for (index, value) in (context.array(object, "viewModelInstances") ?? []).enumerated() {
        guard let instance = value.objectValue, let model = instance["viewModelId"]?.stringValue,
          let name = names[model], let values = instance["values"]?.objectValue
        else {
          context.at(.index(index)) {
            $0.warning(
              .Nuxie.notRunYet, "a view-model instance without a known viewModelId and values is ignored",
              at: value.location)
          }
          continue
        }
        var current: OrderedDictionary<String, Value> = [:]
        if case .object(let object)? = data[name] { current = object }
        for member in values.members { current[member.key] = Value(member.value) }
        data[name] = .object(current)
      }
    }
    return (models, data)
  }

  private mutating func nuxieInteractions(_ object: JSONObject) -> [String: [NuxieInteraction]] {
    guard let hosts = object.lookup("interactions") else { return [:] }
    guard let byHost = self.object(hosts) else { return [:] }
    var result: [String: [NuxieInteraction]] = [:]
    for member in byHost.members {
      at(member.key) { context in
        guard let list = member.value.arrayValue else {
          context.mismatch(member.value, expected: "an array of interactions")
          return
        }
        for (index, value) in list.enumerated() {
          context.at(.index(index)) { context in
            guard let interaction = context.object(value) else { return }
            if context.bool(interaction, "enabled") == false { return }
            guard let trigger = interaction.lookup("trigger").flatMap({ context.object($0) }),
              let type = context.string(trigger, "type")
            else {
              context.error(.Load.missingKey, "an interaction needs 'trigger' with a 'type'", at: value.location)
              return
            }
            if !NuxieKeys.triggers.contains(type) {
              context.warning(
                .Nuxie.unknownTrigger, "unknown trigger type '\(type)': the interaction never runs",
                at: interaction.lookup("trigger")?.location)
            }
            result[member.key, default: []].append(
              NuxieInteraction(
                id: context.string(interaction, "id") ?? "\(member.key).\(index)", trigger: type,
                eventName: trigger["eventName"]?.stringValue,
                path: type == "did_set" ? context.at("trigger") { $0.nuxiePath(trigger) } : nil,
                actions: context.array(interaction, "actions") ?? [], location: value.location))
          }
        }
      }
    }
    return result
  }

  /// `components` (flowrun extension): `{screenId: [{id, label?}]}`, the components each screen shows.
  private mutating func nuxieComponents(_ object: JSONObject, screens: [String]) -> [String: [NuxieComponent]] {
    guard let value = object.lookup("components"), let byScreen = self.object(value) else { return [:] }
    var result: [String: [NuxieComponent]] = [:]
    for member in byScreen.members {
      at(member.key) { context in
        if !screens.contains(member.key) {
          context.report(
            .error, .Ref.unknownScreen, "components of unknown screen '\(member.key)'", at: member.keyLocation,
            notes: Self.didYouMean(member.key, screens))
        }
        for (index, item) in (member.value.arrayValue ?? []).enumerated() {
          context.at(.index(index)) { context in
            guard let component = context.object(item),
              let id = context.requiredString(component, "id", in: "a component", at: item.location)
            else { return }
            result[member.key, default: []].append(
              NuxieComponent(id: id, label: context.string(component, "label") ?? id, location: item.location))
          }
        }
      }
    }
    return result
  }
}
