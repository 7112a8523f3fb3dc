import FlowExpression
import FlowFormat
import OrderedCollections

/// Where an action sends the session; `drive` carries it out (iteratively: `onEnter` chains and
/// rule loops never recurse, and the step budget stops them).
enum Move: Hashable, Sendable {
  case stay
  case to(Frame)
  /// The current flow is done: complete the run, or return from a sub-flow.
  case finishFlow
  case back
  case dismiss
  /// Run this step of the flow's step graph next (`Action.step`): `drive` runs it, so a long
  /// chain of steps is a loop, never a deep recursion.
  case step(String)
}

extension Session {
  // MARK: Start

  mutating func begin() {
    // Properties are built only for sessions that emit events (the simulator starts one per user).
    var started: OrderedDictionary<String, Value> = [:]
    if context.emitsEvents {
      started["flow_version"] = .number(Double(currentFlow.version))
      if context.settings.reportsPlatform { started["platform"] = .string(context.settings.platform) }
    }
    let assignedFirst = EventVocabulary.assignsBeforeStart(context.document.dialect)
    if !assignedFirst { emit(.onboardingStarted, .object(started), atScreen: false) }
    for (experiment, variant) in context.variants {
      // A local experiment whose flag is unavailable keeps its default (Session.start).
      let unavailable =
        context.settings.unavailableFlags.contains(experiment) && user.variantOverrides[experiment] == nil
        && context.document.experiments.contains(where: { $0.id == experiment })
      if unavailable, tracing {
        record(.action, "experiment '\(experiment)': flag unavailable → default variant '\(variant)'")
      }
      emit(
        .experimentVariantAssigned, Self.assignedProperties(experiment, variant, unavailable: unavailable),
        atScreen: false, experiment: (experiment, variant))
    }
    if assignedFirst { emit(.onboardingStarted, .object(started), atScreen: false) }
    // A session started on a chosen screen (`--start`, `render`) starts there.
    // The settings and the flow read in place: `config` builds a whole configuration, and
    // `flows[frame.flow]` copies the whole flow, per simulated user.
    guard context.settings.startScreen == nil,
      let start = context.document.flows.withUnsafeBufferPointer({ $0[frame.flow].startAction })
    else {
      return drive(.to(frame))
    }
    // The start actions run before any screen: a navigation picks the first screen; without
    // one, the flow's first screen is shown (a wait they started keeps waiting there).
    let move = perform(start, via: .start, validate: false)
    guard !hasEnded else { return }
    guard move == .stay else { return drive(move) }
    let parked = pending
    drive(.to(frame))
    if let parked, !hasEnded { pending = parked }
  }

  /// `experiment_variant_assigned`'s properties.
  static func assignedProperties(_ experiment: String, _ variant: String, unavailable: Bool) -> Event.Properties {
    var properties: OrderedDictionary<String, Value> = [
      "experiment_id": .string(experiment), "variant_id": .string(variant),
    ]
    if unavailable { properties["reason"] = .string("flag_unavailable") }
    return .object(properties)
  }

  // MARK: Actions

  /// Runs an action on the current screen and says where it leads. Events and trace entries of
  /// the action itself are emitted here; the move is carried out by `drive`.
  mutating func perform(_ action: Action, via: Via, validate: Bool) -> Move {
    switch action {
    case .next:
      return leaveForward(via: via, validate: validate, commit: true)
    case .unknown(let type):
      if tracing { record(.action, "unknown action type '\(type)' runs as next") }
      return leaveForward(via: via, validate: validate, commit: true)
    case .previous:
      return .back
    case .screen(let id):
      if validate, !validateCurrentScreen(via: via) { return .stay }
      guard let index = context.screenIndex(of: id, inFlow: frame.flow) else {
        outbox.append(.notice("goto '\(id)': no such screen in flow '\(currentFlowID)' → staying"))
        if tracing {
          record(
            .noOp, "leaving \(currentScreenID) via \(via)",
            details: ["screen '\(id)' does not exist in flow '\(currentFlowID)' → staying"])
        }
        return .stay
      }
      commitDefaults()
      if tracing {
        record(.leave, "leaving \(currentScreenID) via \(via)", details: ["screen action → \(id)"], destination: id)
      }
      return .to(Frame(flow: frame.flow, screen: index))
    case .complete:
      if validate, !validateCurrentScreen(via: via) { return .stay }
      commitDefaults()
      if tracing {
        record(
          .leave, "leaving \(currentScreenID) via \(via)", details: ["complete action → $complete"],
          destination: "$complete")
      }
      return .finishFlow
    case .skip:
      return skip(via: via)
    case .dismiss:
      guard context.document.flows[frame.flow].settings.dismissAllowed else {
        if tracing { record(.noOp, "dismiss via \(via) ignored: settings.dismissAllowed is false") }
        return .stay
      }
      return .dismiss
    case .openURL(let url):
      outbox.append(.notice("opened \(url) (not followed)"))
      if tracing { record(.action, "open url \(url) via \(via); staying on \(currentScreenID)") }
      return .stay
    case .custom(let custom):
      return startCustomAction(custom, via: via)
    case .sequence(let actions):
      return performSequence(actions, via: via, validate: validate)
    case .back(let steps):
      return back(steps: steps, via: via)
    case .set(let path, let value):
      return set(path, to: value, via: via)
    case .emit(let name, let properties):
      return emitOwn(name, properties)
    case .branch(let branches, let otherwise):
      return branch(branches, otherwise: otherwise, via: via, validate: validate)
    case .experiment(let id, let arms):
      return experiment(id, arms, via: via, validate: validate)
    case .wait(let wait):
      return startWait(wait, via: via)
    case .step(let id):
      return .step(id)
    }
  }

  /// `screen_skipped`, then `skipAction` (never validating), else leave forward.
  mutating func skip(via: Via) -> Move {
    let name = currentScreenName
    emit(.screenSkipped, .screenName(name))
    skipping = true
    let move: Move
    if let skipAction = context.document.flows[frame.flow].screens[frame.screen].content.skipAction, skipAction != .skip
    {
      if tracing {
        record(.action, "skip of \(currentScreenID) runs skipAction (\(skipAction.typeName)) without validation")
      }
      switch skipAction {
      case .next, .unknown: move = leaveForward(via: .skip, validate: false, commit: false)
      default: move = perform(skipAction, via: .skip, validate: false)
      }
    } else {
      move = leaveForward(via: .skip, validate: false, commit: false)
    }
    // A skip that stays (an awaited action, a link) leaves the screen to a later submission.
    if move == .stay { skipping = false }
    return move
  }

  /// Validate, commit defaults, then the first matching rule, `next`, the following screen, or
  /// completion.
  mutating func leaveForward(via: Via, validate: Bool, commit: Bool) -> Move {
    if commit, !submitChat() { return .stay }
    if validate, !validateCurrentScreen(via: via) { return .stay }
    if commit { commitDefaults() }
    if commit, context.settings.asksHooks || currentScreen.webhook != nil { return askBeforeLeave(via: via) }
    return forwardMove(via: via)
  }

  /// Decides where leaving the current screen forward goes, and records why.
  mutating func forwardMove(via: Via) -> Move {
    let flowIndex = frame.flow
    let screenIndex = frame.screen
    // Read in place: `flows[flowIndex]` would copy the whole flow, `screens[screenIndex].rules`
    // the whole screen.
    let screens = context.document.flows.withUnsafeBufferPointer { $0[flowIndex].screens }
    let rules = screens.withUnsafeBufferPointer { $0[screenIndex].rules }
    // The screen's id is read only for the trace.
    let screenID = tracing ? screens.withUnsafeBufferPointer { $0[screenIndex].id } : ""
    let recording = context.settings.recordsHistory
    var outcomes: [RuleOutcome] = []
    var target: Target?
    // The target's index when the document's tables resolved it (nil: look the id up).
    let tables = context.tables
    var resolved: Int?
    if !rules.isEmpty {
      let environment = environment
      // The rule whose own action runs (`Rule.then`), and its number.
      var ruleAction: (Action, Int)?
      // Read in place: an `Array` subscript copied the whole rule for each field read.
      rules.withUnsafeBufferPointer { rules in
        for index in rules.indices {
          let matched: Bool
          if let condition = rules[index].when {
            if recording {
              let outcome = EngineExpressions.evaluate(condition, in: environment)
              matched = outcome.result
              outcomes.append(
                RuleOutcome(
                  number: index + 1, source: condition.source, summary: outcome.summary, matched: matched,
                  target: rules[index].traceTarget))
            } else {
              matched = EngineExpressions.holds(condition, in: environment)
            }
          } else {
            matched = true
            if recording {
              outcomes.append(
                RuleOutcome(
                  number: index + 1, source: "(always)", summary: "→ true", matched: true,
                  target: rules[index].traceTarget))
            }
          }
          guard matched else { continue }
          if let name = rules[index].emits { routedEvents.append((name, rules[index].emitsProperties)) }
          // A rule that passes on (an AppDNA analytics node without a target) sent its event.
          if rules[index].passesOn { continue }
          target = rules[index].goto
          resolved = tables?.index(ofRule: index, flow: flowIndex, screen: screenIndex)
          if let action = rules[index].then { ruleAction = (action, index + 1) }
          return
        }
      }
      if let (action, number) = ruleAction {
        return performRuleAction(action, number: number, via: via, outcomes: outcomes)
      }
    }
    var details: [String] = []
    if target == nil {
      let prefix = rules.isEmpty ? "" : "no rule matched → "
      // Read only when no rule routed (a copy of the target).
      if let next = screens.withUnsafeBufferPointer({ $0[screenIndex].next }) {
        target = next
        resolved = tables?.index(next: true, flow: flowIndex, screen: screenIndex)
        if recording { details.append(prefix + "next key → \(next)") }
      } else if screenIndex + 1 < screens.count {
        let following = screens.withUnsafeBufferPointer { $0[screenIndex + 1].id }
        target = .screen(following)
        resolved = tables?.index(next: false, flow: flowIndex, screen: screenIndex)
        if recording { details.append(prefix + "next by order → \(following)") }
      } else {
        target = .complete
        if recording { details.append(prefix + "last screen → $complete") }
      }
    }
    switch target ?? .complete {
    case .complete:
      if tracing {
        record(
          .leave, "leaving \(screenID) via \(via)", rules: outcomes, details: details,
          destination: "$complete")
      }
      return .finishFlow
    case .screen(let id):
      guard let index = resolved ?? context.screenIndex(of: id, inFlow: flowIndex) else {
        if recording {
          details.append("screen '\(id)' does not exist in flow '\(context.document.flows[flowIndex].id)' → staying")
        }
        if tracing { record(.leave, "leaving \(screenID) via \(via)", rules: outcomes, details: details) }
        return .stay
      }
      if tracing {
        record(
          .leave, "leaving \(screenID) via \(via)", rules: outcomes, details: details, destination: id)
      }
      return .to(Frame(flow: flowIndex, screen: index))
    }
  }

  /// A routing rule's own action (`Rule.then`): the screen's completion goes out first (the
  /// SDK sends it at submission), then the action runs; one that parks (a paywall) leaves the
  /// screen when its answer routes.
  mutating func performRuleAction(_ action: Action, number: Int, via: Via, outcomes: [RuleOutcome]) -> Move {
    if tracing {
      let runs =
        if case .custom(let custom) = action { "waits for \(custom.identifier)" } else { "runs \(action.typeName)" }
      record(.leave, "leaving \(currentScreenID) via \(via)", rules: outcomes, details: ["rule \(number) \(runs)"])
    }
    if shown {
      emitCompleted(at: frame, nextScreenID: nil)
      completionSent = true
    }
    return perform(action, via: .rule(number), validate: false)
  }

  // MARK: Custom actions and results

  mutating func startCustomAction(_ custom: CustomAction, via: Via) -> Move {
    emit(
      .actionRequested,
      ["identifier": .string(custom.identifier), "await_result": .bool(custom.awaitResult)])
    let awaiting = PendingAction(
      identifier: custom.identifier, source: .customAction(custom), flowID: currentFlowID,
      screenID: currentScreenID)
    guard custom.awaitResult else {
      outbox.append(.notice("sent custom action '\(custom.identifier)' (not awaited)"))
      if tracing { record(.action, "custom action '\(custom.identifier)' via \(via) (not awaited); staying") }
      return .stay
    }
    if let mock = context.settings.mocks[custom.identifier] {
      if tracing { record(.action, "custom action '\(custom.identifier)' via \(via): mock answers \(mock.statusName)") }
      return deliver(mock, to: awaiting)
    }
    if context.settings.waitsForResults {
      if tracing { record(.action, "custom action '\(custom.identifier)' via \(via): waiting for a result") }
      pending = awaiting
      outbox.append(.awaitingResult(identifier: custom.identifier))
      return .stay
    }
    if tracing { record(.action, "custom action '\(custom.identifier)' via \(via): no mock in a non-interactive run") }
    return deliver(.failure("unhandled action: \(custom.identifier)"), to: awaiting)
  }

  /// `action_result`, merges success data, then routes.
  mutating func deliver(_ result: ActionResult, to awaited: PendingAction) -> Move {
    emit(.actionResult, Self.resultProperties(result, of: awaited))
    pending = nil
    var merged: [String] = []
    var marksCompleted = false
    if case .success(let payload?) = result {
      if case .object(let object) = payload {
        for (key, value) in object {
          if key == ActionResult.markOnboardingCompletedKey {
            marksCompleted = value == .bool(true)
            continue
          }
          fields[key] = value
          validationErrors.removeValue(forKey: key)
          merged.append(key)
        }
      }
    }
    let mergedNote = merged.isEmpty ? [] : ["merged data: " + merged.joined(separator: ", ")]
    let id = awaited.identifier
    if marksCompleted {
      // The host called `markOnboardingCompleted()` before `sendSuccessResult` (document 000,
      // returning users): the onboarding ends completed instead of routing onwards.
      if tracing {
        record(
          .action, "result of '\(id)': success marks onboarding completed → complete", details: mergedNote,
          destination: "$complete")
      }
      finishCompleted()
      return .stay
    }
    switch awaited.source {
    case .customAction(let custom):
      switch result {
      case .success:
        let action = custom.onSuccess ?? .next
        if tracing {
          record(
            .action,
            "result of '\(id)': success → "
              + (custom.onSuccess == nil ? "default next" : "onSuccess (\(action.typeName))"), details: mergedNote)
        }
        return perform(action, via: .onSuccess(id), validate: true)
      case .failure(let error):
        if let action = custom.onFailure {
          if tracing { record(.action, "result of '\(id)': failure → onFailure (\(action.typeName))") }
          return perform(action, via: .onFailure(id), validate: true)
        }
        let message = error ?? "\(id) failed"
        if tracing { record(.action, "result of '\(id)': failure → default: stay and show '\(message)'") }
        lastActionError = message
        outbox.append(.actionFailed(identifier: id, message: message))
        return .stay
      case .cancelled:
        if let action = custom.onCancel {
          if tracing { record(.action, "result of '\(id)': cancelled → onCancel (\(action.typeName))") }
          return perform(action, via: .onCancel(id), validate: true)
        }
        if tracing { record(.action, "result of '\(id)': cancelled → default: stay") }
        outbox.append(.notice("'\(id)' cancelled; no onCancel → staying"))
        return .stay
      }
    case .nativeScreen:
      switch result {
      case .success:
        if tracing { record(.action, "native screen '\(id)' answered success → next", details: mergedNote) }
        let move = perform(.next, via: .nativeResult, validate: true)
        // A hook asked on the way keeps its own wait.
        if move == .stay, !hasEnded, !isPending { pending = awaited }
        return move
      case .failure(let error):
        let message = error ?? "\(id) failed"
        if tracing { record(.action, "native screen '\(id)' answered failure → stay and show '\(message)'") }
        lastActionError = message
        outbox.append(.actionFailed(identifier: id, message: message))
        pending = awaited
        return .stay
      case .cancelled:
        if tracing { record(.action, "native screen '\(id)' answered cancelled → stay") }
        outbox.append(.notice("native screen '\(id)' cancelled → staying; it waits for :ok, :fail or :cancel again"))
        pending = awaited
        return .stay
      }
    case .hook, .timer:
      // A waiting hook takes `.hookAnswered` only, a wait only time and events (`handle`
      // rejects `.result`).
      return .stay
    }
  }

  // MARK: Carrying out moves

  mutating func drive(_ first: Move) {
    var move = first
    while !hasEnded {
      switch move {
      case .stay:
        // A rule's action that stays without waiting (a paywall routed to `stay`) leaves the
        // screen unfinished: a later submission sends its completion again.
        if completionSent, !isPending { completionSent = false }
        return
      case .back:
        goBack()
        return
      case .dismiss:
        finishDismissed()
        return
      case .step(let id):
        move = runStep(id)
      case .to(let target):
        if tracing { recordTransition(to: target) }
        // The next screen's id is read only for `screen_completed`, built only for events.
        leaveShown(
          nextScreenID: context.emitsEvents ? context.document.flows[target.flow].screens[target.screen].id : nil)
        move = enter(target)
      case .finishFlow:
        guard let parent = callStack.last else {
          finishCompleted()
          return
        }
        let child = (frame: frame, stack: callStack, shown: shown)
        frame = parent
        callStack.removeLast()
        let next = forwardMove(via: .subflowCompletion(context.document.flows[child.frame.flow].id))
        if next == .stay {
          (frame, callStack) = (child.frame, child.stack)
          return
        }
        let nextID: String? =
          if case .to(let target) = next { context.document.flows[target.flow].screens[target.screen].id } else { nil }
        if child.shown {
          emitCompleted(at: child.frame, nextScreenID: nextID)
          backStack.append(HistoryEntry(frame: child.frame, callStack: child.stack))
        }
        shown = false
        pending = nil
        move = next
      }
    }
  }

  /// The transition the move animates with (document 000's nine), when the flow names one: a
  /// graphical SDK draws it, a trace says it.
  mutating func recordTransition(to target: Frame) {
    guard shown, target.flow == frame.flow else { return }
    let flow = context.document.flows[target.flow]
    let (from, to) = (currentScreenID, flow.screens[target.screen].id)
    guard let (transition, source) = flow.transition(from: from, to: to) else { return }
    record(.action, "transition \(from) → \(to): \(transition.rawValue) (\(source))", destination: to)
  }

  /// `screen_completed` for the shown screen and a back-stack entry.
  mutating func leaveShown(nextScreenID: String?) {
    guard shown else { return }
    emitCompleted(at: frame, nextScreenID: nextScreenID)
    backStack.append(HistoryEntry(frame: frame, callStack: callStack))
    shown = false
    pending = nil
  }

  mutating func emitCompleted(at frame: Frame, nextScreenID: String?, leaving: EventVocabulary.Leave? = nil) {
    let leave = leaving ?? (skipping ? .skip : .forward)
    defer {
      let routed = routedEvents
      if !routed.isEmpty { routedEvents = [] }
      for routed in routed {
        let type = EventType(rawValue: routed.name) ?? .flowEvent
        let properties = Event.Properties.object(
          .init(uniqueKeysWithValues: routed.properties.sorted { $0.key < $1.key }))
        emit(type, properties, at: frame, named: type == .flowEvent ? routed.name : nil)
      }
    }
    guard !completionSent else {
      completionSent = false
      return
    }
    guard EventVocabulary.completes(leave, in: context.document.dialect) else { return }
    // Read only for the event's properties (built only when events are emitted).
    let name = context.emitsEvents ? context.document.flows[frame.flow].screens[frame.screen].name : ""
    let duration = virtualNow - enteredAt
    emit(.screenCompleted, .screenCompleted(name: name, nextScreenID: nextScreenID, durationMs: duration), at: frame)
  }

  /// Counts a transition; false (and the session failed) when the budget is spent.
  mutating func countStep() -> Bool {
    steps += 1
    guard steps > context.settings.stepBudget else { return true }
    let message =
      "step budget of \(context.settings.stepBudget) transitions exhausted at screen '\(currentScreenID)' "
      + "of flow '\(currentFlowID)' (a loop of onEnter actions or rules?)"
    ended = .failed(message)
    pending = nil
    outbox.append(.error(message))
    outbox.append(.ended(.failed(message)))
    return false
  }

  /// Enters a screen: sub-flow screens descend, `onEnter` runs, then the screen is shown.
  mutating func enter(_ target: Frame) -> Move {
    frame = target
    guard countStep() else { return .stay }
    shown = false
    pending = nil
    hostDeclined = false
    enteredAt = virtualNow
    validationErrors = [:]
    lastActionError = nil
    let screens = context.document.flows[target.flow].screens
    if screens[target.screen].kind == .flow {
      if let subflow = screens[target.screen].subflow,
        let flowIndex = context.document.flowIndex(subflow),
        let start = context.screenIndex(of: context.document.flows[flowIndex].startScreenID, inFlow: flowIndex)
      {
        if tracing { record(.action, "flow screen \(screens[target.screen].id) enters sub-flow '\(subflow)'") }
        callStack.append(target)
        return .to(Frame(flow: flowIndex, screen: start))
      }
      if tracing {
        record(
          .noOp,
          "flow screen \(screens[target.screen].id): sub-flow '\(screens[target.screen].subflow ?? "")' not found; shown as a plain screen"
        )
      }
    }
    if let onEnter = screens[target.screen].onEnter {
      if tracing { record(.onEnter, "onEnter of \(screens[target.screen].id) runs \(onEnter.typeName)") }
      let move = perform(onEnter, via: .onEnter(screens[target.screen].id), validate: false)
      if move != .stay || hasEnded { return move }
    }
    if askBeforeShow() { return .stay }
    return reveal()
  }

  /// Shows the entered screen; a native one then waits for the host (a mock answers at once).
  mutating func reveal() -> Move {
    show()
    if context.document.flows[frame.flow].screens[frame.screen].kind == .native, !isPending {
      let awaited = nativePending()
      if let mock = context.settings.mocks[awaited.identifier] {
        if tracing { record(.action, "native screen '\(awaited.identifier)': mock answers \(mock.statusName)") }
        return deliver(mock, to: awaited)
      }
      pending = awaited
      outbox.append(.awaitingResult(identifier: awaited.identifier))
    }
    return .stay
  }

  func nativePending() -> PendingAction {
    PendingAction(
      identifier: context.document.flows[frame.flow].screens[frame.screen].content.identifier ?? currentScreenID,
      source: .nativeScreen,
      flowID: currentFlowID, screenID: currentScreenID)
  }

  /// `screen_viewed`, `screen_first_viewed` the first time.
  mutating func show() {
    shown = true
    skipping = false
    completionSent = false
    // Read only for the events' properties (built only when events are emitted).
    let name = context.emitsEvents ? currentScreenName : ""
    emit(.screenViewed, .screenName(name))
    if seen.insert(context.screenBase[frame.flow] + frame.screen) {
      emit(.screenFirstViewed, .screenName(name))
    }
    if let chat = currentScreen.chat { openChat(chat) }
    if context.settings.recordsHistory || context.settings.recordsPath { path.append(currentScreenID) }
    outbox.append(.screenShown(flowID: currentFlowID, screenID: currentScreenID))
  }

  mutating func goBack() {
    guard let entry = backStack.last else {
      if !shown {
        show()
      } else {
        if tracing { record(.noOp, "back on \(currentScreenID): nothing to go back to") }
      }
      return
    }
    let from = currentScreenID
    let to = context.document.flows[entry.frame.flow].screens[entry.frame.screen].id
    guard countStep() else { return }
    backStack.removeLast()
    if shown { emitCompleted(at: frame, nextScreenID: to, leaving: .back) }
    if tracing { record(.action, "back from \(from) to \(to)", destination: to) }
    frame = entry.frame
    callStack = entry.callStack
    enteredAt = virtualNow
    validationErrors = [:]
    lastActionError = nil
    pending = nil
    hostDeclined = false
    if askBeforeShow() { return }
    show()
    if context.document.flows[frame.flow].screens[frame.screen].kind == .native {
      pending = nativePending()
      outbox.append(.awaitingResult(identifier: pending!.identifier))
    }
  }

  mutating func finishCompleted() {
    if shown { emitCompleted(at: frame, nextScreenID: nil) }
    // The collected data is built only for the event (a session without events never reads it).
    let (collected, duration) = (context.emitsEvents ? fields.dictionary : [:], virtualNow - context.startTime)
    emit(.onboardingCompleted, ["collected_data": .object(collected), "duration_ms": .number(Double(duration))])
    ended = .completed
    pending = nil
    outbox.append(.ended(.completed))
  }

  mutating func finishDismissed() {
    let (name, id, index) = (currentScreenName, currentScreenID, frame.screen)
    if shown {
      emit(.screenDroppedOff, ["screen_name": .string(name), "reason": .string(DropOffReason.dismissed.rawValue)])
    }
    emit(.onboardingDismissed, ["last_screen_id": .string(id), "last_screen_index": .number(Double(index))])
    ended = .dismissed
    pending = nil
    outbox.append(.ended(.dismissed))
  }

  /// Ends the session where it stands; `pending` is kept so drivers can report a blocked run.
  mutating func quit(_ reason: DropOffReason) {
    if shown {
      let name = currentScreenName
      emit(.screenDroppedOff, ["screen_name": .string(name), "reason": .string(reason.rawValue)])
    }
    ended = reason == .dismissed ? .dismissed : .quit(reason)
    outbox.append(.ended(ended!))
  }

  // MARK: Events and trace

  /// `action_result`'s properties.
  static func resultProperties(_ result: ActionResult, of awaited: PendingAction) -> Event.Properties {
    var properties: OrderedDictionary<String, Value> = [
      "identifier": .string(awaited.identifier), "status": .string(result.statusName),
    ]
    switch result {
    case .success(let payload): properties["data"] = payload ?? .null
    case .failure(let error): properties["error"] = error.map(Value.string) ?? .null
    case .cancelled: break
    }
    return .object(properties)
  }

  // The properties are an autoclosure: a session that emits no events never builds them.
  mutating func emit(
    _ type: EventType, _ properties: @autoclosure () -> Event.Properties, atScreen: Bool = true,
    experiment: (String, String)? = nil
  ) {
    // A moment the flow's vocabulary has no event for is not one: it takes no `seq`.
    guard let name = EventVocabulary.name(of: type, in: context.document.dialect) else { return }
    // `seq` counts events either way, so the rest of the session is the same with events off.
    seq += 1
    guard context.emitsEvents || (context.emitsActionResults && name == .actionResult) else { return }
    let screenFrame = atScreen ? frame : nil
    post(
      name, vocabularyProperties(name, properties(), at: screenFrame), at: screenFrame, flow: frame.flow,
      experiment: experiment, named: experienceName(name))
  }

  mutating func emit(
    _ type: EventType, _ properties: @autoclosure () -> Event.Properties, at frame: Frame, named: String? = nil
  ) {
    guard let name = EventVocabulary.name(of: type, in: context.document.dialect) else { return }
    seq += 1
    guard context.emitsEvents || (context.emitsActionResults && name == .actionResult) else { return }
    post(
      name, vocabularyProperties(name, properties(), at: frame), at: frame, flow: frame.flow, experiment: nil,
      named: named ?? experienceName(name))
  }

  /// Builds the event numbered `seq` and puts it out.
  private mutating func post(
    _ type: EventType, _ properties: Event.Properties, at screenFrame: Frame?, flow: Int,
    experiment: (String, String)?, named: String? = nil
  ) {
    let flows = context.document.flows
    let shared =
      experiment.map {
        Event.Shared(
          sessionID: context.sessionID(of: user), userID: user.id, experimentID: $0.0, variantID: $0.1)
      } ?? context.eventShared(of: user)
    let event = Event(
      seq: seq, type: type, time: virtualNow, shared: shared, flowID: flows[flow].id,
      screenID: screenFrame.map { flows[flow].screens[$0.screen].id }, screenIndex: screenFrame?.screen,
      payload: properties, name: named)
    if context.settings.recordsHistory { events.append(event) }
    outbox.append(.event(event))
  }

  /// Whether decisions are traced (formatting them costs more than the step itself).
  var tracing: Bool { context.settings.recordsHistory }

  mutating func record(
    _ kind: Decision.Kind, _ headline: String, rules: [RuleOutcome] = [], details: [String] = [],
    destination: String? = nil
  ) {
    guard context.settings.recordsHistory else { return }
    trace.append(
      Decision(
        kind: kind, flowID: currentFlowID, screenID: currentScreenID, headline: headline, rules: rules,
        details: details, destination: destination))
  }
}

/// What an action ran through, for trace headlines (`leaving a via button 'Go'`); formatted only
/// when a trace is kept.
enum Via: CustomStringConvertible {
  case next, complete, skip, autoAdvance, nativeResult
  case button(String)
  case skipControl(String)
  case checklist(String)
  case onEnter(String)
  case onSuccess(String)
  case onFailure(String)
  case onCancel(String)
  case subflowCompletion(String)
  case hook(String)
  case timer
  case start
  case step(String)
  case rule(Int)

  var description: String {
    switch self {
    case .next: "next"
    case .complete: "complete"
    case .skip: "skip"
    case .autoAdvance: "auto-advance"
    case .nativeResult: "native result"
    case .button(let label): "button '\(label)'"
    case .skipControl(let label): "skip control '\(label)'"
    case .checklist(let field): "checklist '\(field)'"
    case .onEnter(let screen): "onEnter of \(screen)"
    case .onSuccess(let id): "onSuccess of '\(id)'"
    case .onFailure(let id): "onFailure of '\(id)'"
    case .onCancel(let id): "onCancel of '\(id)'"
    case .subflowCompletion(let flow): "completion of sub-flow '\(flow)'"
    case .hook(let result): "hook answer '\(result)'"
    case .timer: "the end of a wait"
    case .start: "the start of the flow"
    case .step(let id): "step \(id)"
    case .rule(let number): "rule \(number)"
    }
  }
}
