import FlowExpression

/// Where a navigation goes: a screen of the same flow, or the end of the flow (`$complete`).
public enum Target: Hashable, Sendable, CustomStringConvertible {
  case screen(String)
  case complete

  public init(_ raw: String) {
    self = raw == "$complete" ? .complete : .screen(raw)
  }

  public var description: String {
    switch self {
    case .screen(let id): id
    case .complete: "$complete"
    }
  }
}

/// What a button, checklist, skip control, `onEnter` or action outcome does.
public indirect enum Action: Hashable, Sendable {
  case next
  case previous
  case screen(String)
  case complete
  case skip
  case dismiss
  case openURL(String)
  case custom(CustomAction)
  /// An action type flowrun does not know; it runs as `next` (the Sequence Swift SDK's rule).
  case unknown(type: String)
  /// Actions run in order until one leaves the screen, ends the session or waits for a result
  /// (Nuxie's action lists; the rest of the list is dropped then).
  case sequence([Action])
  /// Back this many screens, clamped to the oldest one of the history (Nuxie `back {steps}`).
  case back(steps: Int)
  /// Sets a collected value; more than one key sets inside an object (Nuxie `set_view_model`).
  case set(path: [String], value: Value)
  /// Sends an event of the flow's own name (Nuxie `send_event`, `$delegate_called`).
  case emit(name: String, properties: Value)
  /// The first branch whose condition is true runs, else `otherwise`; unknown is not true.
  case branch([ActionBranch], otherwise: Action?)
  /// The session's variant of a document experiment picks the action; the first time, the
  /// exposure event is sent (once per session; the assignment is the session's, frozen).
  case experiment(id: String, arms: [ExperimentArm])
  /// The session waits on the virtual clock (Nuxie `delay`, `time_window`, `wait_until`), then
  /// runs `then` (or `otherwise` when a condition's wait times out).
  case wait(ActionWait)
  /// Runs a step of the flow's step graph (`Flow.steps`: Nuxie era E legs).
  case step(String)

  /// The action type as written in JSON, for events and traces.
  public var typeName: String {
    switch self {
    case .next: "next"
    case .previous: "previous"
    case .screen: "screen"
    case .complete: "complete"
    case .skip: "skip"
    case .dismiss: "dismiss"
    case .openURL: "openUrl"
    case .custom: "custom"
    case .unknown(let type): type
    case .sequence: "sequence"
    case .back: "back"
    case .set: "set"
    case .emit: "emit"
    case .branch: "condition"
    case .experiment: "experiment"
    case .wait(let wait): wait.typeName
    case .step: "step"
    }
  }
}

/// A `custom` action: work the host app does (sign-in, a permission prompt, a purchase).
public struct CustomAction: Hashable, Sendable {
  public var identifier: String
  public var awaitResult: Bool
  /// Routing once a result arrives; nil means the spec's default for that outcome.
  public var onSuccess: Action?
  public var onFailure: Action?
  public var onCancel: Action?

  public init(
    identifier: String,
    awaitResult: Bool = false,
    onSuccess: Action? = nil,
    onFailure: Action? = nil,
    onCancel: Action? = nil
  ) {
    self.identifier = identifier
    self.awaitResult = awaitResult
    self.onSuccess = onSuccess
    self.onFailure = onFailure
    self.onCancel = onCancel
  }

  /// Identifiers the Sequence documents define; any other identifier is host-defined.
  public static let builtInIdentifiers: Set<String> = [
    "auth.apple", "auth.google", "auth.email",
    "permission.notifications", "permission.location", "permission.locationAlways",
    "permission.camera", "permission.photos", "permission.tracking",
    "system.review", "system.openSettings",
  ]
}

/// One branch of `Action.branch`: only a true condition runs it (fail-closed).
public struct ActionBranch: Hashable, Sendable {
  public var id: String
  public var condition: FactCondition
  public var action: Action

  public init(id: String, condition: FactCondition, action: Action) {
    self.id = id
    self.condition = condition
    self.action = action
  }
}

/// One arm of `Action.experiment`: the action a variant runs.
public struct ExperimentArm: Hashable, Sendable {
  public var variant: String
  public var action: Action

  public init(variant: String, action: Action) {
    self.variant = variant
    self.action = action
  }
}

/// What `Action.wait` waits for, and what runs after.
public struct ActionWait: Hashable, Sendable {
  public enum Until: Hashable, Sendable {
    /// This long after the wait starts (`delay`).
    case duration(ms: Int64)
    /// The window's next opening in the zone (`time_window`): inside it, no wait.
    case window(TimeWindow, zone: String)
    /// The condition holds (`wait_until`), re-checked on each event of the session; after
    /// `maxMs` (nil: never) it times out.
    case condition(FactCondition, maxMs: Int64?)
  }

  public var until: Until
  public var then: Action
  /// A timed-out condition, and a window that never opens.
  public var otherwise: Action
  /// A condition re-checked only when this event arrives (era E `trigger {kind: event,
  /// eventName}`); nil: on every event and value of the session.
  public var event: String?

  public init(until: Until, then: Action, otherwise: Action, event: String? = nil) {
    self.until = until
    self.then = then
    self.otherwise = otherwise
    self.event = event
  }

  public var typeName: String {
    switch until {
    case .duration: "delay"
    case .window: "time_window"
    case .condition: "wait_until"
    }
  }
}

/// A three-valued condition of a Nuxie document, evaluated against the session's facts: an IR
/// envelope (eras B–D) or a JourneyCondition (era E). Only true holds.
public enum FactCondition: Hashable, Sendable {
  case ir(IREnvelope)
  case journey(JourneyCondition)

  /// The condition, clause by clause, with the facts it read.
  public func trace(in facts: Facts) -> TruthTrace {
    switch self {
    case .ir(let envelope): envelope.trace(in: facts)
    case .journey(let condition): TruthTrace(source: "JourneyCondition", truth: condition.truth(in: facts))
    }
  }
}
