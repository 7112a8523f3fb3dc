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
}

extension Session {
  // MARK: Start

  mutating func begin() {
    let flow = currentFlow
    emit(.onboardingStarted, ["flow_version": .number(Double(flow.version))], atScreen: false)
    for (experiment, variant) in context.variants {
      emit(
        .experimentVariantAssigned,
        ["experiment_id": .string(experiment), "variant_id": .string(variant)],
        atScreen: false, experiment: (experiment, variant))
    }
    drive(.to(frame))
  }

  // MARK: Actions

  /// Runs an action on the current screen and says where it leads. Events and trace entries of
  /// the action itself are emitted here; the move is carried out by `drive`.
  mutating func perform(_ action: Action, via: String, validate: Bool) -> Move {
    switch action {
    case .next:
      return leaveForward(via: via, validate: validate, commit: true)
    case .unknown(let type):
      record(.action, "unknown action type '\(type)' runs as next")
      return leaveForward(via: via, validate: validate, commit: true)
    case .previous:
      return .back
    case .screen(let id):
      if validate, !validateCurrentScreen(via: via) { return .stay }
      guard let index = currentFlow.index(of: id) else {
        record(
          .noOp, "leaving \(currentScreen.id) via \(via)",
          details: ["screen '\(id)' does not exist in flow '\(currentFlow.id)' → staying"])
        return .stay
      }
      commitDefaults()
      record(.leave, "leaving \(currentScreen.id) via \(via)", details: ["screen action → \(id)"], destination: id)
      return .to(Frame(flow: frame.flow, screen: index))
    case .complete:
      if validate, !validateCurrentScreen(via: via) { return .stay }
      commitDefaults()
      record(
        .leave, "leaving \(currentScreen.id) via \(via)", details: ["complete action → $complete"],
        destination: "$complete")
      return .finishFlow
    case .skip:
      return skip(via: via)
    case .dismiss:
      guard currentFlow.settings.dismissAllowed else {
        record(.noOp, "dismiss via \(via) ignored: settings.dismissAllowed is false")
        return .stay
      }
      return .dismiss
    case .openURL(let url):
      record(.action, "open url \(url) via \(via); staying on \(currentScreen.id)")
      return .stay
    case .custom(let custom):
      return startCustomAction(custom, via: via)
    }
  }

  /// `screen_skipped`, then `skipAction` (never validating), else leave forward.
  mutating func skip(via: String) -> Move {
    emit(.screenSkipped, ["screen_name": .string(currentScreen.name)])
    if let skipAction = currentScreen.content.skipAction, skipAction != .skip {
      record(.action, "skip of \(currentScreen.id) runs skipAction (\(skipAction.typeName)) without validation")
      switch skipAction {
      case .next, .unknown: return leaveForward(via: "skip", validate: false, commit: false)
      default: return perform(skipAction, via: "skip", validate: false)
      }
    }
    return leaveForward(via: "skip", validate: false, commit: false)
  }

  /// Validate, commit defaults, then the first matching rule, `next`, the following screen, or
  /// completion.
  mutating func leaveForward(via: String, validate: Bool, commit: Bool) -> Move {
    if validate, !validateCurrentScreen(via: via) { return .stay }
    if commit { commitDefaults() }
    return forwardMove(via: via)
  }

  /// Decides where leaving the current screen forward goes, and records why.
  mutating func forwardMove(via: String) -> Move {
    let screen = currentScreen
    let flow = currentFlow
    let environment = templateEnvironment
    var outcomes: [RuleOutcome] = []
    var target: Target?
    for (index, rule) in screen.rules.enumerated() {
      let matched: Bool
      let source: String
      let summary: String
      if let condition = rule.when {
        let outcome = EngineExpressions.evaluate(condition, in: environment)
        matched = outcome.result
        source = condition.source
        summary = outcome.summary
      } else {
        matched = true
        source = "(always)"
        summary = "→ true"
      }
      outcomes.append(
        RuleOutcome(number: index + 1, source: source, summary: summary, matched: matched, target: rule.goto.description))
      if matched {
        target = rule.goto
        break
      }
    }
    var details: [String] = []
    if target == nil {
      let prefix = screen.rules.isEmpty ? "" : "no rule matched → "
      if let next = screen.next {
        target = next
        details.append(prefix + "next key → \(next)")
      } else if frame.screen + 1 < flow.screens.count {
        let following = flow.screens[frame.screen + 1].id
        target = .screen(following)
        details.append(prefix + "next by order → \(following)")
      } else {
        target = .complete
        details.append(prefix + "last screen → $complete")
      }
    }
    let headline = "leaving \(screen.id) via \(via)"
    switch target ?? .complete {
    case .complete:
      record(.leave, headline, rules: outcomes, details: details, destination: "$complete")
      return .finishFlow
    case .screen(let id):
      guard let index = flow.index(of: id) else {
        details.append("screen '\(id)' does not exist in flow '\(flow.id)' → staying")
        record(.leave, headline, rules: outcomes, details: details)
        return .stay
      }
      record(.leave, headline, rules: outcomes, details: details, destination: id)
      return .to(Frame(flow: frame.flow, screen: index))
    }
  }

  // MARK: Custom actions and results

  mutating func startCustomAction(_ custom: CustomAction, via: String) -> Move {
    emit(
      .actionRequested,
      ["identifier": .string(custom.identifier), "await_result": .bool(custom.awaitResult)])
    let awaiting = PendingAction(
      identifier: custom.identifier, source: .customAction(custom), flowID: currentFlow.id,
      screenID: currentScreen.id)
    guard custom.awaitResult else {
      record(.action, "custom action '\(custom.identifier)' via \(via) (not awaited); staying")
      return .stay
    }
    if let mock = context.config.mocks[custom.identifier] {
      record(.action, "custom action '\(custom.identifier)' via \(via): mock answers \(mock.statusName)")
      return deliver(mock, to: awaiting)
    }
    if context.config.interactive {
      record(.action, "custom action '\(custom.identifier)' via \(via): waiting for a result")
      pending = awaiting
      outbox.append(.awaitingResult(identifier: custom.identifier))
      return .stay
    }
    record(.action, "custom action '\(custom.identifier)' via \(via): no mock in a non-interactive run")
    return deliver(.failure("unhandled action: \(custom.identifier)"), to: awaiting)
  }

  /// `action_result`, merges success data, then routes.
  mutating func deliver(_ result: ActionResult, to awaited: PendingAction) -> Move {
    var properties: OrderedDictionary<String, Value> = [
      "identifier": .string(awaited.identifier), "status": .string(result.statusName),
    ]
    switch result {
    case .success(let payload): properties["data"] = payload ?? .null
    case .failure(let error): properties["error"] = error.map(Value.string) ?? .null
    case .cancelled: break
    }
    emit(.actionResult, properties)
    pending = nil
    var merged: [String] = []
    if case .success(let payload?) = result {
      if case .object(let object) = payload {
        for (key, value) in object {
          data[key] = value
          validationErrors.removeValue(forKey: key)
          merged.append(key)
        }
      }
    }
    let mergedNote = merged.isEmpty ? [] : ["merged data: " + merged.joined(separator: ", ")]
    let id = awaited.identifier
    switch awaited.source {
    case .customAction(let custom):
      switch result {
      case .success:
        let action = custom.onSuccess ?? .next
        record(
          .action, "result of '\(id)': success → "
            + (custom.onSuccess == nil ? "default next" : "onSuccess (\(action.typeName))"), details: mergedNote)
        return perform(action, via: "onSuccess of '\(id)'", validate: true)
      case .failure(let error):
        if let action = custom.onFailure {
          record(.action, "result of '\(id)': failure → onFailure (\(action.typeName))")
          return perform(action, via: "onFailure of '\(id)'", validate: true)
        }
        let message = error ?? "\(id) failed"
        record(.action, "result of '\(id)': failure → default: stay and show '\(message)'")
        lastActionError = message
        outbox.append(.actionFailed(identifier: id, message: message))
        return .stay
      case .cancelled:
        if let action = custom.onCancel {
          record(.action, "result of '\(id)': cancelled → onCancel (\(action.typeName))")
          return perform(action, via: "onCancel of '\(id)'", validate: true)
        }
        record(.action, "result of '\(id)': cancelled → default: stay")
        return .stay
      }
    case .nativeScreen:
      switch result {
      case .success:
        record(.action, "native screen '\(id)' answered success → next", details: mergedNote)
        let move = perform(.next, via: "native result", validate: true)
        if move == .stay, ended == nil { pending = awaited }
        return move
      case .failure(let error):
        let message = error ?? "\(id) failed"
        record(.action, "native screen '\(id)' answered failure → stay and show '\(message)'")
        lastActionError = message
        outbox.append(.actionFailed(identifier: id, message: message))
        pending = awaited
        return .stay
      case .cancelled:
        record(.action, "native screen '\(id)' answered cancelled → stay")
        pending = awaited
        return .stay
      }
    }
  }

  // MARK: Carrying out moves

  mutating func drive(_ first: Move) {
    var move = first
    while ended == nil {
      switch move {
      case .stay:
        return
      case .back:
        goBack()
        return
      case .dismiss:
        finishDismissed()
        return
      case .to(let target):
        leaveShown(nextScreenID: context.document.flows[target.flow].screens[target.screen].id)
        move = enter(target)
      case .finishFlow:
        guard let parent = callStack.last else {
          finishCompleted()
          return
        }
        let child = (frame: frame, stack: callStack, shown: shown)
        frame = parent
        callStack.removeLast()
        let next = forwardMove(via: "completion of sub-flow '\(context.document.flows[child.frame.flow].id)'")
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

  /// `screen_completed` for the shown screen and a back-stack entry.
  mutating func leaveShown(nextScreenID: String?) {
    guard shown else { return }
    emitCompleted(at: frame, nextScreenID: nextScreenID)
    backStack.append(HistoryEntry(frame: frame, callStack: callStack))
    shown = false
    pending = nil
  }

  mutating func emitCompleted(at frame: Frame, nextScreenID: String?) {
    let screen = context.document.flows[frame.flow].screens[frame.screen]
    emit(
      .screenCompleted,
      [
        "screen_name": .string(screen.name), "next_screen_id": nextScreenID.map(Value.string) ?? .null,
        "duration_ms": .number(Double(virtualNow - enteredAt)),
      ], at: frame)
  }

  /// Counts a transition; false (and the session failed) when the budget is spent.
  mutating func countStep() -> Bool {
    steps += 1
    guard steps > context.config.stepBudget else { return true }
    let message =
      "step budget of \(context.config.stepBudget) transitions exhausted at screen '\(currentScreen.id)' "
      + "of flow '\(currentFlow.id)' (a loop of onEnter actions or rules?)"
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
    enteredAt = virtualNow
    validationErrors = [:]
    lastActionError = nil
    let screen = currentScreen
    if screen.kind == .flow {
      if let subflow = screen.subflow,
        let flowIndex = context.document.flows.firstIndex(where: { $0.id == subflow }),
        let start = context.document.flows[flowIndex].index(of: context.document.flows[flowIndex].startScreenID)
      {
        record(.action, "flow screen \(screen.id) enters sub-flow '\(subflow)'")
        callStack.append(target)
        return .to(Frame(flow: flowIndex, screen: start))
      }
      record(.noOp, "flow screen \(screen.id): sub-flow '\(screen.subflow ?? "")' not found; shown as a plain screen")
    }
    if let onEnter = screen.onEnter {
      record(.onEnter, "onEnter of \(screen.id) runs \(onEnter.typeName)")
      let move = perform(onEnter, via: "onEnter of \(screen.id)", validate: false)
      if move != .stay || ended != nil { return move }
    }
    show()
    if screen.kind == .native, pending == nil {
      let awaited = nativePending()
      if let mock = context.config.mocks[awaited.identifier] {
        record(.action, "native screen '\(awaited.identifier)': mock answers \(mock.statusName)")
        return deliver(mock, to: awaited)
      }
      pending = awaited
      outbox.append(.awaitingResult(identifier: awaited.identifier))
    }
    return .stay
  }

  func nativePending() -> PendingAction {
    PendingAction(
      identifier: currentScreen.content.identifier ?? currentScreen.id, source: .nativeScreen,
      flowID: currentFlow.id, screenID: currentScreen.id)
  }

  /// `screen_viewed`, `screen_first_viewed` the first time.
  mutating func show() {
    shown = true
    let name = Value.string(currentScreen.name)
    emit(.screenViewed, ["screen_name": name])
    if seen.insert(frame).inserted {
      emit(.screenFirstViewed, ["screen_name": name])
    }
    path.append(currentScreen.id)
    outbox.append(.screenShown(flowID: currentFlow.id, screenID: currentScreen.id))
  }

  mutating func goBack() {
    guard let entry = backStack.last else {
      if !shown {
        show()
      } else {
        record(.noOp, "back on \(currentScreen.id): nothing to go back to")
      }
      return
    }
    let from = currentScreen.id
    let to = context.document.flows[entry.frame.flow].screens[entry.frame.screen].id
    guard countStep() else { return }
    backStack.removeLast()
    if shown { emitCompleted(at: frame, nextScreenID: to) }
    record(.action, "back from \(from) to \(to)", destination: to)
    frame = entry.frame
    callStack = entry.callStack
    enteredAt = virtualNow
    validationErrors = [:]
    lastActionError = nil
    pending = nil
    show()
    if currentScreen.kind == .native {
      pending = nativePending()
      outbox.append(.awaitingResult(identifier: pending!.identifier))
    }
  }

  mutating func finishCompleted() {
    if shown { emitCompleted(at: frame, nextScreenID: nil) }
    emit(
      .onboardingCompleted,
      ["collected_data": .object(data), "duration_ms": .number(Double(virtualNow - context.startTime))])
    ended = .completed
    pending = nil
    outbox.append(.ended(.completed))
  }

  mutating func finishDismissed() {
    if shown {
      emit(
        .screenDroppedOff,
        ["screen_name": .string(currentScreen.name), "reason": .string(DropOffReason.dismissed.rawValue)])
    }
    emit(
      .onboardingDismissed,
      ["last_screen_id": .string(currentScreen.id), "last_screen_index": .number(Double(frame.screen))])
    ended = .dismissed
    pending = nil
    outbox.append(.ended(.dismissed))
  }

  /// Ends the session where it stands; `pending` is kept so drivers can report a blocked run.
  mutating func quit(_ reason: DropOffReason) {
    if shown {
      emit(.screenDroppedOff, ["screen_name": .string(currentScreen.name), "reason": .string(reason.rawValue)])
    }
    ended = reason == .dismissed ? .dismissed : .quit(reason)
    outbox.append(.ended(ended!))
  }

  // MARK: Events and trace

  mutating func emit(
    _ type: EventType, _ properties: OrderedDictionary<String, Value>, atScreen: Bool = true,
    experiment: (String, String)? = nil
  ) {
    emit(type, properties, at: atScreen ? frame : nil, flow: frame.flow, experiment: experiment)
  }

  mutating func emit(_ type: EventType, _ properties: OrderedDictionary<String, Value>, at frame: Frame) {
    emit(type, properties, at: frame, flow: frame.flow, experiment: nil)
  }

  private mutating func emit(
    _ type: EventType, _ properties: OrderedDictionary<String, Value>, at screenFrame: Frame?, flow: Int,
    experiment: (String, String)?
  ) {
    seq += 1
    let flowValue = context.document.flows[flow]
    let envelope = experiment ?? context.envelopeExperiment.map { ($0.id, $0.variant) }
    let event = Event(
      seq: seq, type: type, time: virtualNow, sessionID: context.sessionID, userID: context.config.userID,
      flowID: flowValue.id, screenID: screenFrame.map { flowValue.screens[$0.screen].id },
      screenIndex: screenFrame?.screen, experimentID: envelope?.0, variantID: envelope?.1,
      properties: properties)
    if context.config.recordsHistory { events.append(event) }
    outbox.append(.event(event))
  }

  mutating func record(
    _ kind: Decision.Kind, _ headline: String, rules: [RuleOutcome] = [], details: [String] = [],
    destination: String? = nil
  ) {
    guard context.config.recordsHistory else { return }
    trace.append(
      Decision(
        kind: kind, flowID: currentFlow.id, screenID: currentScreen.id, headline: headline, rules: rules,
        details: details, destination: destination))
  }
}
