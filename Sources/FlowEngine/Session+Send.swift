import FlowExpression
import FlowFormat
import OrderedCollections

extension Session {
  /// Applies one input and returns what happened, in order. A rejected input returns exactly
  /// `[.rejected(message)]` and leaves the session unchanged.
  public mutating func send(_ input: Input) -> [Output] {
    outbox = []
    handle(input)
    let outputs = outbox
    outbox = []
    return outputs
  }

  mutating func reject(_ message: String) {
    outbox.append(.rejected(message))
  }

  mutating func handle(_ input: Input) {
    if let ended {
      return reject("the session has ended (\(ended.name)); no more inputs are accepted")
    }
    if let pending, case .customAction = pending.source {
      switch input {
      case .result, .quit, .dismiss, .wait, .advanceClock, .setVariable: break
      default:
        return reject(
          "waiting for the result of '\(pending.identifier)' (answer with success, failure or cancelled, or dismiss/quit)"
        )
      }
    }
    switch input {
    case .set(let field, let value):
      setField(field, value, autoAdvance: false)
    case .pick(let field, let items):
      setField(field, .list(items.map(Value.string)), autoAdvance: true)
    case .tap(let selector):
      tap(selector)
    case .next:
      drive(perform(.next, via: "next", validate: true))
    case .complete:
      drive(perform(.complete, via: "complete", validate: true))
    case .back:
      guard currentFlow.settings.allowBack else {
        return reject("back is not allowed in flow '\(currentFlow.id)' (settings.allowBack is false)")
      }
      guard !currentScreen.hideBack else {
        return reject("back is hidden on screen '\(currentScreen.id)' (hideBack)")
      }
      drive(.back)
    case .skip:
      guard currentScreen.content.skipText != nil else {
        return reject("screen '\(currentScreen.id)' has no skip control")
      }
      drive(skip(via: "skip"))
    case .dismiss:
      guard currentFlow.settings.dismissAllowed else {
        return reject("dismiss is not allowed in flow '\(currentFlow.id)' (settings.dismissAllowed is false)")
      }
      drive(.dismiss)
    case .result(let result):
      guard let pending else {
        return reject("nothing is waiting for a result on screen '\(currentScreen.id)'")
      }
      drive(deliver(result, to: pending))
    case .wait(let ms), .advanceClock(let ms):
      guard ms >= 0 else { return reject("cannot wait a negative time (\(ms) ms)") }
      advanceClock(by: ms)
    case .goto(let screenID):
      guard let index = currentFlow.index(of: screenID) else {
        let known = currentFlow.screens.map(\.id).joined(separator: ", ")
        return reject("no screen '\(screenID)' in flow '\(currentFlow.id)' (screens: \(known))")
      }
      record(.debug, "debug goto \(screenID) from \(currentScreen.id) (no validation)", destination: screenID)
      drive(.to(Frame(flow: frame.flow, screen: index)))
    case .setVariable(let name, let value):
      data[name] = value
      validationErrors.removeValue(forKey: name)
      record(.debug, "debug setVariable \(name) = \(value)")
    case .quit(let reason):
      quit(reason)
    }
  }

  // MARK: Taps

  mutating func tap(_ selector: ButtonSelector) {
    let entries = actions
    let entry: ActionEntry?
    let shownName: String
    switch selector {
    case .number(let n):
      entry = entries.first { $0.number == n }
      shownName = "\(n)"
    case .label(let text):
      let wanted = text.trimmingSpaces.lowercased()
      entry = entries.first { $0.label.trimmingSpaces.lowercased() == wanted } ?? entries.first { $0.blockID == text }
      shownName = "'\(text)'"
    case .blockID(let id):
      entry = entries.first { $0.blockID == id }
      shownName = "'\(id)'"
    }
    guard let entry else {
      let list = entries.isEmpty ? "no buttons" : "buttons: " + entries.map(\.label).joined(separator: ", ")
      return reject("no button \(shownName) on screen '\(currentScreen.id)' (\(list))")
    }
    if entry.action == .dismiss, !currentFlow.settings.dismissAllowed {
      return reject("dismiss is not allowed in flow '\(currentFlow.id)' (settings.dismissAllowed is false)")
    }
    emit(
      .buttonTapped,
      [
        "button_id": .string(entry.buttonID), "button_text": .string(entry.label),
        "action": .string(entry.action.typeName),
      ])
    if entry.kind == .skip {
      drive(skip(via: "skip control '\(entry.label)'"))
    } else {
      drive(perform(entry.action, via: "button '\(entry.label)'", validate: true))
    }
  }

  // MARK: Clock

  mutating func advanceClock(by ms: Int64) {
    let until = virtualNow &+ ms
    while ended == nil, pending == nil, shown, let delay = currentScreen.autoAdvanceMs {
      let deadline = enteredAt &+ Int64(max(0, delay).rounded(.up))
      guard deadline <= until else { break }
      virtualNow = max(virtualNow, deadline)
      let before = (frame, steps)
      record(.autoAdvance, "auto-advance of \(currentScreen.id) after \(NumberFormatting.javaScriptString(delay)) ms")
      drive(leaveForward(via: "auto-advance", validate: false, commit: true))
      if before == (frame, steps) { break }
    }
    if until > virtualNow { virtualNow = until }
  }
}

extension String {
  var trimmingSpaces: String {
    var scalars = Substring(self)
    while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
    while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
    return String(scalars)
  }
}
