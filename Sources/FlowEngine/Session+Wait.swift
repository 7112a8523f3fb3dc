import FlowExpression
import FlowFormat

/// `Action.wait`: the session parks on the virtual clock (Nuxie's `delay`, `time_window`,
/// `wait_until`) and only time (`wait`), an event that makes the condition hold, a dismissal
/// or a quit move it on. The deadline is fixed when the wait starts, never moved on resume.
extension Session {
  mutating func startWait(_ wait: ActionWait, via: Via) -> Move {
    switch wait.until {
    case .duration(let ms):
      guard ms > 0 else { return perform(wait.then, via: via, validate: false) }
      return park(wait, wakeAt: Limits.saturatingAdd(virtualNow, ms))
    case .window(let window, let zone):
      switch window.decide(at: virtualNow, in: ZonedCalendar(zone: zone)) {
      case .inWindow:
        if tracing { record(.action, "time window: inside → its actions") }
        return perform(wait.then, via: via, validate: false)
      case .pauseUntil(let opens):
        return park(wait, wakeAt: opens)
      case .unavailable:
        if tracing { record(.noOp, "time window: no selected day opens within a week → skipped") }
        return perform(wait.otherwise, via: via, validate: false)
      }
    case .condition(let condition, let maxMs):
      let trace = condition.trace(in: currentFacts)
      if tracing { record(.action, "wait until \(trace.line())") }
      if trace.holds { return perform(wait.then, via: via, validate: false) }
      return park(wait, wakeAt: maxMs.map { Limits.saturatingAdd(virtualNow, $0) })
    }
  }

  private mutating func park(_ wait: ActionWait, wakeAt: Int64?) -> Move {
    pending = PendingAction(
      identifier: wait.typeName, source: .timer(wait, wakeAt: wakeAt), flowID: currentFlowID,
      screenID: currentScreenID)
    let until = wakeAt.map { "until " + CivilTime.iso8601(milliseconds: $0) } ?? "until its condition holds"
    outbox.append(.notice("waiting: \(wait.typeName) \(until) (:wait MS moves the virtual clock)"))
    if tracing { record(.action, "\(wait.typeName): the flow waits \(until)") }
    return .stay
  }

  /// Wakes the parked wait when it falls due by `until`; true when it did.
  mutating func wakeTimer(by until: Int64) -> Bool {
    guard isPending, let pending, case .timer(let wait, let wakeAt?) = pending.source, wakeAt <= until else {
      return false
    }
    virtualNow = max(virtualNow, Limits.clamp(wakeAt, to: Limits.clockMs))
    self.pending = nil
    switch wait.until {
    case .duration:
      if tracing { record(.action, "delay over → the actions after it") }
      drive(perform(wait.then, via: .timer, validate: false))
    case .window:
      // The window opens now: decided again, so its actions run inside it.
      drive(startWait(wait, via: .timer))
    case .condition:
      if tracing { record(.action, "wait until: timed out → its timeout actions") }
      drive(perform(wait.otherwise, via: .timer, validate: false))
    }
    return true
  }

  /// A parked `wait_until` checks its condition again after an event (bound as the condition's
  /// `Event`) or a value of the session.
  mutating func recheckWait(event: HistoryEvent? = nil) {
    guard isPending, let pending, case .timer(let wait, _) = pending.source,
      case .condition(let condition, _) = wait.until, wait.event == nil || wait.event == event?.name
    else { return }
    var facts = currentFacts
    facts.event = event
    let trace = condition.trace(in: facts)
    guard trace.holds else { return }
    if tracing { record(.action, "wait until \(trace.line()) → satisfied") }
    self.pending = nil
    drive(perform(wait.then, via: .timer, validate: false))
  }

  /// The virtual milliseconds before a parked wait wakes, or nil.
  public var millisecondsUntilWake: Int64? {
    guard !hasEnded, isPending, let pending, case .timer(_, let wakeAt?) = pending.source else { return nil }
    return max(0, wakeAt - virtualNow)
  }
}
