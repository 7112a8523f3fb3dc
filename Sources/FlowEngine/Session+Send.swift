import FlowExpression
import FlowFormat
import OrderedCollections

extension Session {
  /// Applies one input and returns what happened, in order. A rejected input returns exactly
  /// `[.rejected(message)]` and leaves the session unchanged.
  public mutating func send(_ input: Input) -> [Output] {
    var outputs: [Output] = []
    outputs.reserveCapacity(6)
    send(input, into: &outputs)
    return outputs
  }

  /// `send(_:)` writing the outputs into a caller-owned buffer (emptied first), so a caller that
  /// reuses one buffer allocates no output array per step.
  public mutating func send(_ input: Input, into outputs: inout [Output]) {
    outputs.removeAll(keepingCapacity: true)
    // The outbox is empty between inputs: borrow the caller's storage for this one.
    swap(&outbox, &outputs)
    handle(input)
    swap(&outbox, &outputs)
  }

  /// `send(.tap(.number(entry.number)), into:)` for a control `actions(renderingLabels:)` listed
  /// in the session's current state, without finding it again (the simulator lists the controls
  /// to choose one, then presses it). Outputs and state are the tap's.
  public mutating func send(pressing entry: ActionEntry, into outputs: inout [Output]) {
    send(pressing: .entry(entry), number: entry.number, into: &outputs)
  }

  /// `send(pressing:into:)` for a slot `controlSlots(into:)` listed in the session's current
  /// state: only the pressed control is built (listing them all built each one).
  public mutating func send(pressing slot: ControlSlot, into outputs: inout [Output]) {
    send(pressing: .slot(slot), number: slot.number, into: &outputs)
  }

  /// A control listed in the session's current state, pressed as the tap of its `number`: a
  /// session that shows the label (trace, events) taps by number, as the listed label may not
  /// be rendered; `handle` checks the session as before any tap.
  private mutating func send(pressing control: ListedControl, number: Int, into outputs: inout [Output]) {
    let tap = Input.tap(.number(number))
    guard !tracing, !context.emitsEvents else { return send(tap, into: &outputs) }
    outputs.removeAll(keepingCapacity: true)
    swap(&outbox, &outputs)
    handle(tap, listed: control)
    swap(&outbox, &outputs)
  }

  /// A control a caller listed: an entry of `actions`, or a slot of `controlSlots`.
  enum ListedControl {
    case entry(ActionEntry)
    case slot(ControlSlot)
  }

  /// `send(.setVariable(name:value:))` for each value in order, outputs dropped. A session that
  /// holds no data yet and keeps no trace takes `values` whole, shared until written: a preview
  /// sets every field of the document on each screen it draws, which cost fields × screens.
  public mutating func setVariables(_ values: OrderedDictionary<String, Value>) {
    if ended == nil, fields.isEmpty, validationErrors.isEmpty, !tracing {
      fields.replace(with: values)
      return
    }
    var outputs: [Output] = []
    for (name, value) in values { send(.setVariable(name: name, value: value), into: &outputs) }
  }

  mutating func reject(_ message: String) {
    outbox.append(.rejected(message))
  }

  /// Applies `input`; `listed` is the control a tap presses when the caller already found it.
  mutating func handle(_ input: Input, listed: ListedControl? = nil) {
    stepHops = 0
    if let ended {
      return reject("the session has ended (\(ended.name)); no more inputs are accepted")
    }
    // Most inputs find nothing pending: reading the pending action copies it.
    if isPending, refusedWhilePending(input) { return }
    switch input {
    case .set(let field, let value):
      setField(field, value, picking: false)
    case .pick(let field, let items):
      setField(field, .list(items.map(Value.string)), picking: true)
    case .tap(let selector):
      switch listed {
      case .entry(let entry)?: press(entry)
      case .slot(let slot)?: press(action(at: slot), kind: slot.kind, label: "", tapped: nil)
      case nil: tap(selector)
      }
    case .next:
      drive(perform(.next, via: .next, validate: true))
    case .complete:
      drive(perform(.complete, via: .complete, validate: true))
    case .back:
      guard context.document.flows[frame.flow].settings.allowBack else {
        return reject("back is not allowed in flow '\(currentFlowID)' (settings.allowBack is false)")
      }
      guard !context.document.flows[frame.flow].screens[frame.screen].hideBack else {
        return reject("back is hidden on screen '\(currentScreenID)' (hideBack)")
      }
      drive(.back)
    case .skip:
      guard context.document.flows[frame.flow].screens[frame.screen].content.skipText != nil else {
        return reject("screen '\(currentScreenID)' has no skip control")
      }
      drive(skip(via: .skip))
    case .dismiss:
      guard context.document.flows[frame.flow].settings.dismissAllowed else {
        return reject("dismiss is not allowed in flow '\(currentFlowID)' (settings.dismissAllowed is false)")
      }
      drive(.dismiss)
    case .result(let result):
      guard let pending else {
        return reject("nothing is waiting for a result on screen '\(currentScreenID)'")
      }
      drive(deliver(result, to: pending))
    case .hookAnswered(let answer):
      guard let pending, case .hook(let request) = pending.source else {
        return reject("no hook is waiting for an answer on screen '\(currentScreenID)'")
      }
      if let call = request.webhook, case .failed(let reason) = answer {
        if pending.identifier == ChatState.identifier {
          return answerChat(.network("unanswered webhook: \(reason)"), to: call)
        }
        return drive(failWebhook(call, type: "network", message: "unanswered webhook: \(reason)"))
      }
      if request.kind == .beforeStepRender { return drive(answerRender(answer)) }
      drive(answerHook(answer))
    case .webhookAnswered(let response):
      guard let pending, case .hook(let request) = pending.source, let call = request.webhook else {
        return reject("no webhook is waiting for an answer on screen '\(currentScreenID)'")
      }
      if pending.identifier == ChatState.identifier { return answerChat(response, to: call) }
      drive(answerWebhook(response, to: call, request))
    case .chat(let turn):
      chat(turn)
    case .decline:
      // A paywall or a permission prompt the user declines: dismissed, denied.
      if let pending, case .customAction = pending.source {
        drive(deliver(.cancelled, to: pending))
        break
      }
      guard let pending, pending.source == .nativeScreen else {
        return reject("nothing to decline: screen '\(currentScreenID)' is not a native screen waiting for the host")
      }
      self.pending = nil
      hostDeclined = true
      if tracing {
        record(.action, "host declined native screen '\(pending.identifier)' → flowrun renders it with its button")
      }
    case .wait(let ms), .advanceClock(let ms):
      guard ms >= 0 else { return reject("cannot wait a negative time (\(ms) ms)") }
      advanceClock(by: ms)
    case .goto(let screenID):
      guard let index = currentFlow.index(of: screenID) else {
        let known = currentFlow.screens.map(\.id).joined(separator: ", ")
        return reject("no screen '\(screenID)' in flow '\(currentFlowID)' (screens: \(known))")
      }
      if tracing {
        record(.debug, "debug goto \(screenID) from \(currentScreenID) (no validation)", destination: screenID)
      }
      drive(.to(Frame(flow: frame.flow, screen: index)))
    case .setVariable(let name, let value):
      fields[name] = value
      validationErrors.removeValue(forKey: name)
      if tracing { record(.debug, "debug setVariable \(name) = \(context.secrets.shown(value, of: name))") }
      recheckWait()
    case .track(let type, let properties, let name?):
      guard context.document.dialect == .nuxie else { return reject(EventType.unknownMessage(name)) }
      emit(type, .object(properties), at: frame, named: name)
      recheckWait(event: HistoryEvent(name: name, time: virtualNow, properties: properties))
    case .track(let type, let properties, nil):
      emit(type, .object(properties))
      recheckWait(event: HistoryEvent(name: type.rawValue, time: virtualNow, properties: properties))
    case .quit(let reason):
      quit(reason)
    }
  }

  /// Rejects an input that the pending action, wait or hook does not accept; true when it did.
  private mutating func refusedWhilePending(_ input: Input) -> Bool {
    guard let pending else { return false }
    switch pending.source {
    case .nativeScreen:
      return false
    case .customAction:
      switch input {
      case .result, .decline, .quit, .dismiss, .wait, .advanceClock, .setVariable, .track: return false
      case .set, .pick, .tap, .next, .back, .skip, .complete, .goto, .hookAnswered, .webhookAnswered, .chat:
        reject(
          "waiting for the result of '\(pending.identifier)' (answer with success, failure or cancelled, or dismiss/quit)"
        )
      }
    case .timer(let wait, let wakeAt):
      switch input {
      case .quit, .dismiss, .wait, .advanceClock, .setVariable, .track: return false
      case .set, .pick, .tap, .next, .back, .skip, .complete, .goto, .decline, .hookAnswered, .webhookAnswered,
        .result, .chat:
        let until = wakeAt.map { "until " + CivilTime.iso8601(milliseconds: $0) } ?? "until its condition holds"
        reject("the flow is waiting (\(wait.typeName) \(until)); :wait MS moves the virtual clock")
      }
    case .hook(let request):
      switch input {
      case .hookAnswered where request.webhook == nil, .webhookAnswered where request.webhook != nil: return false
      // Nobody can make the call (a script that does not answer it).
      case .hookAnswered(.failed) where request.webhook != nil: return false
      case .quit, .dismiss, .wait, .advanceClock, .setVariable, .track: return false
      case .set, .pick, .tap, .next, .back, .skip, .complete, .goto, .decline, .result, .hookAnswered,
        .webhookAnswered, .chat:
        if let call = request.webhook {
          reject(
            "waiting for the webhook of '\(pending.screenID)' (POST \(call.url), attempt \(call.attempt) of \(call.attempts)): "
              + "answer HTTP STATUS [BODY], timeout or network [TEXT], or dismiss/quit")
        } else {
          reject(
            "waiting for the answer of \(pending.identifier) on '\(pending.screenID)' ("
              + (request.kind == .beforeStepRender
                ? "an override {title, subtitle, ctaText, fieldDefaults} or null"
                : HookAnswer.typeNames)
              + ", or dismiss/quit)")
        }
      }
    }
    return true
  }

  // MARK: Taps

  private var asksForASecret: Bool { currentScreen.content.flatBlocks.contains(where: \.isSecret) }

  mutating func tap(_ selector: ButtonSelector) {
    let environment = environment
    var found: ActionEntry?
    switch selector {
    case .number(let n):
      // Only the tapped control's label is rendered, and only when an event or the trace shows
      // it (a button found by number needs no label to be pressed).
      let labelled = tracing || context.emitsEvents
      forEachControl(in: environment) { control in
        guard control.number == n else { return control.number < n }
        found = labelled ? control.entry(in: environment) : control.unlabelledEntry
        return false
      }
    case .label(let text):
      found = control(labelled: text, in: environment)
    case .blockID(let id):
      forEachControl(in: environment) { control in
        guard control.blockID == id else { return true }
        found = control.entry(in: environment)
        return false
      }
    }
    guard let entry = found else {
      let shownName =
        switch selector {
        case .number(let n): "\(n)"
        // On a screen that asks for a secret the line may be that secret typed at the wrong
        // prompt: it is not quoted back (docs/security.md).
        case .label(let text): asksForASecret ? "'\(SecretPolicy.mask)'" : "'\(text)'"
        case .blockID(let id): "'\(id)'"
        }
      let entries = actions
      let list = entries.isEmpty ? "no buttons" : "buttons: " + entries.map(\.label).joined(separator: ", ")
      return reject("no button \(shownName) on screen '\(currentScreenID)' (\(list))")
    }
    press(entry)
  }

  /// Presses a control of the current screen.
  mutating func press(_ entry: ActionEntry) {
    // Built first (the autoclosure of the mutating `emit` cannot read `self`), and only when
    // events are emitted.
    let tapped = context.emitsEvents ? buttonTappedProperties(entry) : nil
    press(entry.action, kind: entry.kind, label: entry.label, tapped: tapped)
  }

  /// Presses a control of the current screen given by its action, kind and label (what the
  /// trace shows); `tapped` is `button_tapped`'s properties (nil when no event is emitted).
  mutating func press(_ action: Action, kind: ActionEntry.Kind, label: String, tapped: Event.Properties?) {
    if case .dismiss = action, !context.document.flows[frame.flow].settings.dismissAllowed {
      return reject("dismiss is not allowed in flow '\(currentFlowID)' (settings.dismissAllowed is false)")
    }
    // Not `tapped ?? …`: the autoclosure copied the optional properties on every press.
    if let tapped { emit(.buttonTapped, tapped) } else { emit(.buttonTapped, .object([:])) }
    if kind == .skip {
      drive(skip(via: .skipControl(label)))
    } else {
      drive(perform(action, via: .button(label), validate: true))
    }
  }

  /// `button_id`, `button_text`, `action`, then the button's `analytics` (category, object,
  /// verb, params) when it has them.
  func buttonTappedProperties(_ entry: ActionEntry) -> Event.Properties {
    guard let id = entry.blockID,
      let block = currentScreen.content.flatBlocks.first(where: { $0.id == id }),
      case .button(let button) = block.content, case .object(let analytics)? = button.analytics
    else { return .buttonTapped(id: entry.buttonID, text: entry.label, action: entry.action.typeName) }
    var properties: OrderedDictionary<String, Value> = [
      "button_id": .string(entry.buttonID), "button_text": .string(entry.label),
      "action": .string(entry.action.typeName),
    ]
    for (key, value) in analytics where properties[key] == nil { properties[key] = value }
    return .object(properties)
  }

  /// The first control whose rendered label matches `text` (trimmed, case-insensitive), else the
  /// first whose block id is `text` (without rendering the labels after the match), else the one
  /// `OptionMatching` finds.
  func control(labelled text: String, in environment: SessionEnvironment) -> ActionEntry? {
    let wanted = text.trimmingWhitespace.lowercased()
    var found: ActionEntry?
    var byID: Control?
    forEachControl(in: environment) { control in
      let entry = control.entry(in: environment)
      if entry.label.trimmingWhitespace.lowercased() == wanted {
        found = entry
        return false
      }
      if byID == nil, control.blockID == text { byID = control }
      return true
    }
    if let entry = found ?? byID?.entry(in: environment) { return entry }
    // A label `onBeforeStepRender` gave (`actions` has it).
    if !overrides.isEmpty, let entry = actions.first(where: { $0.label.trimmingWhitespace.lowercased() == wanted }) {
      return entry
    }
    // Then the rule checklist answers follow: any case, without the leading emoji, a prefix.
    var entries: [ActionEntry] = []
    forEachControl(in: environment) { control in
      entries.append(control.entry(in: environment))
      return true
    }
    let names = entries.map { OptionMatching.Names(ids: $0.blockID.map { [$0] } ?? [], label: $0.label) }
    guard case .one(let index) = OptionMatching.match(text, among: names) else { return nil }
    return entries[index]
  }

  // MARK: Clock

  /// The virtual milliseconds left before the current screen advances by itself
  /// (`autoAdvanceMs`) or a parked wait wakes, or nil when neither will (no delay, an action
  /// pending, the session ended).
  public var millisecondsUntilAutoAdvance: Int64? {
    if let wake = millisecondsUntilWake { return wake }
    guard !hasEnded, !isPending, shown,
      let delay = context.document.flows[frame.flow].screens[frame.screen].autoAdvanceMs
    else { return nil }
    return max(0, Limits.saturatingAdd(enteredAt, Limits.milliseconds(delay)) - virtualNow)
  }

  /// Moves the virtual clock on by `ms`, running the auto-advances that fall due. The clock
  /// saturates: it stops at the end of `Limits.clockMs` instead of wrapping round.
  mutating func advanceClock(by ms: Int64) {
    let until = Limits.saturatingAdd(virtualNow, ms)
    while !hasEnded, wakeTimer(by: until) {}
    while !hasEnded, !isPending, shown,
      let delay = context.document.flows[frame.flow].screens[frame.screen].autoAdvanceMs
    {
      let validates = context.document.flows[frame.flow].screens[frame.screen].autoAdvanceValidates
      let deadline = Limits.saturatingAdd(enteredAt, Limits.milliseconds(delay))
      guard deadline <= until else { break }
      virtualNow = max(virtualNow, Limits.clamp(deadline, to: Limits.clockMs))
      let before = (frame, steps)
      if tracing {
        record(.autoAdvance, "auto-advance of \(currentScreenID) after \(NumberFormatting.javaScriptString(delay)) ms")
      }
      drive(leaveForward(via: .autoAdvance, validate: validates, commit: true))
      if before == (frame, steps) { break }
    }
    virtualNow = max(virtualNow, Limits.clamp(until, to: Limits.clockMs))
  }
}
