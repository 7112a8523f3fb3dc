import FlowExpression
import OrderedCollections

/// Nuxie action lists compiled into one `Action` (research §1.5, docs/dialects/nuxie.md): a
/// list runs in order; `navigate`, `back`, `dismiss` and `exit` end it; `purchase` and
/// `restore` wait for a result, and the result picks the outlet: the interactions of the
/// result's system event (`$purchase_completed`, …), then the rest of the list.
extension DecodeContext {
  /// A press on a component: its interactions, the screen's, then `__global__`'s, all of them.
  mutating func compileGesture(
    _ trigger: String, component: String, scope: inout NuxieScope, experiments: inout [Experiment]
  ) -> Action {
    let hosts = [component, scope.screen, "__global__"]
    let lists = hosts.flatMap { scope.interactions[$0] ?? [] }.filter { $0.trigger == trigger }
    return Self.joined(
      lists.map { compileActions($0.actions[...], scope: &scope, experiments: &experiments, depth: 0) })
  }

  /// An event's interactions (`scope.eventHosts`): era B the current screen's, then
  /// `__global__`'s; nil when none. `depth` counts the bridge outcomes on the way (an outcome's
  /// interactions may buy again).
  mutating func compileEvent(
    _ name: String, scope: inout NuxieScope, experiments: inout [Experiment], depth: Int = 0
  ) -> Action? {
    let lists = scope.eventHosts(name).flatMap { scope.interactions[$0] ?? [] }
      .filter { $0.trigger == "event" && $0.eventName == name }
    guard !lists.isEmpty else { return nil }
    return Self.joined(
      lists.map { compileActions($0.actions[...], scope: &scope, experiments: &experiments, depth: depth) })
  }

  static func joined(_ actions: [Action]) -> Action {
    let parts = actions.flatMap { action -> [Action] in
      if case .sequence(let inner) = action { return inner }
      return [action]
    }
    return parts.count == 1 ? parts[0] : .sequence(parts)
  }

  /// Bridge results: the outcome's system event and which `CustomAction` route it takes.
  static let bridgeOutcomes: [String: [(event: String, route: ActionOutcomeRoute)]] = [
    "purchase": [
      ("$purchase_completed", .success), ("$purchase_failed", .failure), ("$purchase_cancelled", .cancel),
    ],
    "restore": [("$restore_completed", .success), ("$restore_failed", .failure), ("$restore_no_purchases", .cancel)],
  ]

  enum ActionOutcomeRoute { case success, failure, cancel }

  /// How many bridge outcomes deep an outcome's interactions may buy or restore again.
  static let bridgeDepth = 4

  /// How many waits, purchases and restores one action list may hold (each nests the rest).
  static let foldLimit = 100

  mutating func compileActions(
    _ list: ArraySlice<JSONValue>, scope: inout NuxieScope, experiments: inout [Experiment], depth: Int
  ) -> Action {
    var out: [Action] = []
    var index = list.startIndex
    while index < list.endIndex {
      let value = list[index]
      index += 1
      guard let action = object(value), let type = string(action, "type") else {
        error(.Load.missingKey, "an action needs a 'type'", at: value.location)
        continue
      }
      switch type {
      case "navigate":
        guard let target = string(action, "screenId"), !target.isEmpty else { continue }
        if !scope.screenIDs.contains(target) {
          report(
            .error, .Ref.unknownScreen, "navigate to unknown screen '\(target)'",
            at: action.lookup("screenId")?.location,
            notes: Self.didYouMean(target, scope.screenIDs))
        }
        out.append(.screen(target))
        return Self.joined(out)
      case "back":
        out.append(.back(steps: max(1, action.integerValue("steps") ?? 1)))
        return Self.joined(out)
      case "dismiss":
        out.append(.dismiss)
        return Self.joined(out)
      case "exit":
        let reason = string(action, "reason") ?? "completed"
        out.append(reason == "dismissed" || reason == "cancelled" ? .dismiss : .complete)
        return Self.joined(out)
      case "open_link":
        if case .string(let url)? = nuxieLiteral(action, "url"), !url.isEmpty { out.append(.openURL(url)) }
      case "send_event":
        guard let name = string(action, "eventName") else { continue }
        let properties = action.lookup("properties").map(Value.init) ?? .object([:])
        out.append(.emit(name: name, properties: properties))
        out.append(
          .emit(
            name: "$event_sent", properties: .object(["event_name": .string(name), "event_properties": properties])))
      case "call_delegate":
        // Fire and forget (document 004): the message and payload are in the event.
        let message = string(action, "message") ?? ""
        let payload = action.lookup("payload").map(Value.init) ?? .null
        out.append(
          .emit(name: "$delegate_called", properties: .object(["message": .string(message), "payload": payload])))
      case "set_view_model":
        guard let path = nuxiePath(action), let literal = nuxieLiteral(action, "value") else { continue }
        out.append(.set(path: path, value: literal))
        // The value changed: the `did_set` interactions of that exact path (the screen's, then
        // `__global__`'s) run inline, as many levels deep as bridge outcomes may.
        let watchers = [scope.screen, "__global__"].flatMap { scope.interactions[$0] ?? [] }
          .filter { $0.trigger == "did_set" && $0.path == path }
        guard !watchers.isEmpty else { continue }
        guard depth < Self.bridgeDepth else {
          error(
            .Nuxie.tooDeep,
            "did_set interactions set values that trigger each other more than \(Self.bridgeDepth) deep",
            at: value.location)
          continue
        }
        out += watchers.map {
          compileActions($0.actions[...], scope: &scope, experiments: &experiments, depth: depth + 1)
        }
      case "condition":
        var branches: [ActionBranch] = []
        at("branches") { context in
          for (number, branchValue) in (context.array(action, "branches") ?? []).enumerated() {
            context.at(.index(number)) { context in
              guard let branch = context.object(branchValue), let condition = branch.lookup("condition"),
                let envelope = context.at("condition", { $0.irEnvelope(condition) })
              else { return }
              let inner = context.compileActions(
                (context.array(branch, "actions") ?? [])[...], scope: &scope, experiments: &experiments, depth: depth)
              branches.append(
                ActionBranch(
                  id: context.string(branch, "id") ?? "branch\(number + 1)", condition: .ir(envelope), action: inner))
            }
          }
        }
        let otherwise = array(action, "defaultActions").map {
          compileActions($0[...], scope: &scope, experiments: &experiments, depth: depth)
        }
        out.append(.branch(branches, otherwise: otherwise))
      case "experiment":
        guard let id = string(action, "experimentId") else { continue }
        var arms: [ExperimentArm] = []
        var variants: [Experiment.Variant] = []
        for variantValue in array(action, "variants") ?? [] {
          guard let variant = object(variantValue), let variantID = string(variant, "id") else { continue }
          variants.append(Experiment.Variant(id: variantID, weight: number(variant, "percentage") ?? 0))
          arms.append(
            ExperimentArm(
              variant: variantID,
              action: compileActions(
                (array(variant, "actions") ?? [])[...], scope: &scope, experiments: &experiments, depth: depth)))
        }
        if !experiments.contains(where: { $0.id == id }) {
          experiments.append(Experiment(id: id, salt: nil, variants: variants, location: value.location))
        }
        out.append(.experiment(id: id, arms: arms))
      case "purchase", "restore":
        // Waits for a result; each outcome sends its system event, runs that event's
        // interactions, then the rest of this list.
        guard depth < Self.bridgeDepth else {
          error(
            .Nuxie.tooDeep,
            "purchase and restore lead to each other through their outcome events more than \(Self.bridgeDepth) deep",
            at: value.location)
          return Self.joined(out)
        }
        guard let rest = rest(after: list[index...], at: value, scope: &scope, experiments: &experiments, depth: depth)
        else { return Self.joined(out) }
        var routes: [ActionOutcomeRoute: Action] = [:]
        for (event, route) in Self.bridgeOutcomes[type] ?? [] {
          var properties: OrderedDictionary<String, Value> = [:]
          if type == "purchase", let product = nuxieLiteral(action, "productId") { properties["product_id"] = product }
          var parts: [Action] = [.emit(name: event, properties: .object(properties))]
          if let handlers = compileEvent(event, scope: &scope, experiments: &experiments, depth: depth + 1) {
            parts.append(handlers)
          }
          parts.append(rest)
          routes[route] = Self.joined(parts)
        }
        out.append(
          .custom(
            CustomAction(
              identifier: type, awaitResult: true, onSuccess: routes[.success], onFailure: routes[.failure],
              onCancel: routes[.cancel])))
        return Self.joined(out)
      case "delay", "time_window", "wait_until":
        guard let rest = rest(after: list[index...], at: value, scope: &scope, experiments: &experiments, depth: depth)
        else { return Self.joined(out) }
        if let wait = nuxieWait(type, action, rest: rest, scope: &scope, experiments: &experiments, depth: depth) {
          out.append(.wait(wait))
        } else {
          out.append(rest)
        }
        return Self.joined(out)
      case "milestone":
        var properties: OrderedDictionary<String, Value> = [
          "milestone_id": .string(string(action, "milestoneId") ?? "")
        ]
        if let label = string(action, "label") { properties["label"] = .string(label) }
        out.append(.emit(name: "$journey_milestone", properties: .object(properties)))
      case "update_customer":
        // The user's attributes: the `customer` object, which conditions read as `User`.
        guard let attributes = action.lookup("attributes").flatMap({ object($0) }) else { continue }
        for member in attributes.members {
          out.append(.set(path: ["customer", member.key], value: Value(member.value)))
        }
        let keys = attributes.members.map { Value.string($0.key) }
        out.append(.emit(name: "$customer_updated", properties: .object(["attributes_updated": .list(keys)])))
      case "goal":
        // `$journey_goal_hit` (research §1.7); under `campaign --run` it joins the campaign's
        // events, where a goal of kind event can be met by it.
        guard let goal = string(action, "goalId")?.trimmingWhitespace, !goal.isEmpty else {
          error(
            .Load.missingKey, "a goal action needs a non-empty 'goalId'",
            at: action.lookup("goalId")?.location ?? value.location)
          continue
        }
        var properties: OrderedDictionary<String, Value> = ["goal_id": .string(goal)]
        if let label = string(action, "label") { properties["goal_label"] = .string(label) }
        out.append(.emit(name: "$journey_goal_hit", properties: .object(properties)))
      case "set_response_field",
        "submit_response", "request_notifications", "request_permission", "request_tracking", "remote", "fire_trigger",
        "list_insert", "list_remove", "list_swap", "list_move", "list_set", "list_clear":
        warning(.Nuxie.notRunYet, "action '\(type)' is not run yet; it is skipped", at: action.lookup("type")?.location)
      default:
        report(
          .warning, .Load.unknownActionType, "unknown action type '\(type)': skipped, as the SDK does",
          at: action.lookup("type")?.location, notes: Self.didYouMean(type, NuxieKeys.actions))
      }
    }
    return Self.joined(out)
  }

  /// The rest of a list after a wait, a purchase or a restore, as a continuation step; nil
  /// (reported) past `foldLimit` of them.
  private mutating func rest(
    after list: ArraySlice<JSONValue>, at value: JSONValue, scope: inout NuxieScope, experiments: inout [Experiment],
    depth: Int
  ) -> Action? {
    guard scope.folds < Self.foldLimit else {
      error(
        .Nuxie.tooDeep, "more than \(Self.foldLimit) waits, purchases and restores in one action list",
        at: value.location)
      return nil
    }
    scope.folds += 1
    defer { scope.folds -= 1 }
    return scope.continuation(compileActions(list, scope: &scope, experiments: &experiments, depth: depth))
  }

  /// `delay {durationMs}`, `time_window {startTime, endTime, timezone, daysOfWeek (1 = Sunday),
  /// successActions}`, `wait_until {condition, maxTimeMs, successActions, timeoutActions}`, with
  /// the rest of the list after each outcome; nil when malformed (reported; the SDK goes on).
  private mutating func nuxieWait(
    _ type: String, _ action: JSONObject, rest: Action, scope: inout NuxieScope, experiments: inout [Experiment],
    depth: Int
  ) -> ActionWait? {
    func branch(_ key: String, _ context: inout DecodeContext) -> Action {
      guard let list = context.array(action, key) else { return rest }
      return Self.joined([
        context.compileActions(list[...], scope: &scope, experiments: &experiments, depth: depth), rest,
      ])
    }
    switch type {
    case "delay":
      let ms = number(action, "durationMs") ?? 0
      guard ms >= 0, ms <= Double(Limits.durationMs.upperBound) else {
        error(
          .Campaign.negativeDuration,
          "durationMs must be between 0 and 1,000,000,000,000 ms, found \(NumberFormatting.javaScriptString(ms))",
          at: action.lookup("durationMs")?.location)
        return nil
      }
      return ActionWait(until: .duration(ms: Int64(ms.rounded(.up))), then: rest, otherwise: rest)
    case "time_window":
      // Both times are told about before the window is dropped.
      let minutes = ["startTime", "endTime"].compactMap { key -> Int? in
        guard let text = string(action, key), let value = TimeWindow.minutes(text) else {
          error(
            .Campaign.malformedTime, "\(key) must be HH:MM (00:00–23:59)",
            at: action.lookup(key)?.location ?? action.lookup("type")?.location)
          return nil
        }
        return value
      }
      guard minutes.count == 2 else { return nil }
      var days: Set<Int> = []
      for day in array(action, "daysOfWeek") ?? [] {
        guard let n = day.numberValue, n.rounded() == n, (1...7).contains(n) else {
          warning(
            .Nuxie.dayOutOfRange, "daysOfWeek holds 1 (Sunday) to 7 (Saturday); this day is ignored",
            at: day.location)
          continue
        }
        days.insert(Int(n) - 1)
      }
      var zone = string(action, "timezone") ?? "UTC"
      if zone == "__current_device__" { zone = "UTC" }
      return ActionWait(
        until: .window(TimeWindow(start: minutes[0], end: minutes[1], days: days), zone: zone),
        then: branch("successActions", &self), otherwise: rest)
    default:
      guard let conditionValue = action.lookup("condition"),
        let condition = at("condition", { $0.irEnvelope(conditionValue) })
      else {
        error(.Load.missingKey, "wait_until needs a 'condition'", at: action.lookup("type")?.location)
        return nil
      }
      let maxMs = number(action, "maxTimeMs").map { Int64(min(max(0, $0), Double(Limits.durationMs.upperBound))) }
      return ActionWait(
        until: .condition(.ir(condition), maxMs: maxMs), then: branch("successActions", &self),
        otherwise: branch("timeoutActions", &self))
    }
  }

  /// A value expression: `{literal: x}` or a plain JSON value; a `ref` to another value is
  /// not read yet (nil, a warning).
  mutating func nuxieLiteral(_ object: JSONObject, _ key: String) -> Value? {
    guard let value = object.lookup(key) else { return nil }
    if let inner = value.objectValue {
      if let literal = inner["literal"] { return Value(literal) }
      if inner["ref"] != nil {
        warning(.Nuxie.notRunYet, "a value that refers to a view-model value is not read yet", at: value.location)
        return nil
      }
    }
    return Value(value)
  }

  /// A `set_view_model` path: `"Model.property"` or a list of names.
  mutating func nuxiePath(_ object: JSONObject) -> [String]? {
    guard let value = object.lookup("path") else { return nil }
    if let text = value.stringValue { return text.split(separator: ".").map(String.init) }
    if let items = value.arrayValue, items.allSatisfy({ $0.stringValue != nil }) {
      return items.compactMap(\.stringValue)
    }
    warning(.Nuxie.notRunYet, "a view-model path by ids is not read yet; write \"Model.property\"", at: value.location)
    return nil
  }
}
