import FlowExpression
import FlowFormat

/// What a session says in answer to an input, in order.
public enum Output: Hashable, Sendable {
  /// An analytics event (also appended to `Session.events`).
  // The large payloads are boxed (`indirect`): every output is copied into the outbox and out
  // again, and a switch over an output copies it whole.
  indirect case event(Event)
  /// A screen became the shown screen (after its `screen_viewed`).
  case screenShown(flowID: String, screenID: String)
  /// An awaited action (or a native screen) waits for `.result`.
  case awaitingResult(identifier: String)
  /// A submitted screen waits for the host's hook (`.hookAnswered`) before it is left.
  indirect case hookRequested(HookRequest)
  /// The input did not apply; the session did not change.
  case rejected(String)
  /// A forward navigation was blocked (after the `validation_failed` event).
  case validationFailed([ValidationFailure])
  /// An action result was a failure and the screen stays showing this error.
  case actionFailed(identifier: String, message: String)
  /// The session ended (completed, dismissed, quit or failed).
  indirect case ended(SessionStatus)
  /// The session failed (e.g. the step budget ran out); followed by `.ended(.failed)`.
  case error(String)
  /// An action that changes nothing on screen did something a designer should see: a URL
  /// opened (not followed), a custom action sent without waiting, a screen action to a screen
  /// that does not exist (docs/semantics.md, "Actions").
  case notice(String)
}

/// One failing field of a validation.
public struct ValidationFailure: Hashable, Sendable {
  public var field: String
  public var message: String
  public init(field: String, message: String) {
    self.field = field
    self.message = message
  }
}

/// Where a session stands.
public enum SessionStatus: Hashable, Sendable {
  case running
  /// Waiting for `.result` (an awaited custom action or a native screen).
  // Boxed: the session's `ended` is read on every input.
  indirect case awaiting(PendingAction)
  case completed
  /// Ended by a dismiss.
  case dismissed
  /// Ended by `.quit` (`quit`, `end_of_input`, `stuck`, `terminated`, `output_failed`).
  case quit(DropOffReason)
  /// Stopped by an error such as the step budget.
  case failed(String)

  /// True once the session can take no more inputs.
  public var isEnded: Bool {
    switch self {
    case .running, .awaiting: false
    default: true
    }
  }

  /// A short word for messages: `running`, `awaiting`, `completed`, ...
  public var name: String {
    switch self {
    case .running: "running"
    case .awaiting: "awaiting"
    case .completed: "completed"
    case .dismissed: "dismissed"
    case .quit: "quit"
    case .failed: "failed"
    }
  }
}

/// What a session waits for.
public struct PendingAction: Hashable, Sendable {
  public enum Source: Hashable, Sendable {
    /// A `custom` action with `awaitResult: true`.
    // Boxed: the session's `pending` is copied on many moves.
    indirect case customAction(CustomAction)
    /// A `native` screen (`content.identifier`, else the screen id).
    case nativeScreen
    /// A host hook asked before a submitted screen is left.
    indirect case hook(HookRequest)
    /// An `Action.wait` parked the session: it wakes at `wakeAt` (epoch ms; nil: only a
    /// condition that comes to hold wakes it).
    indirect case timer(ActionWait, wakeAt: Int64?)
  }

  public var identifier: String
  public var source: Source
  public var flowID: String
  public var screenID: String

  public init(identifier: String, source: Source, flowID: String, screenID: String) {
    self.identifier = identifier
    self.source = source
    self.flowID = flowID
    self.screenID = screenID
  }
}

/// One numbered control of the current screen, exactly as renderers number it.
///
/// Numbering (1-based): visible `button` blocks in reading order; then, on a legacy (non-block)
/// screen that is not `native`, the legacy button; then the skip control when `skipText` is set.
/// Checklist options are not in this list.
public struct ActionEntry: Hashable, Sendable {
  public enum Kind: String, Hashable, Sendable {
    case button, legacyButton, skip
  }

  public var number: Int
  /// The rendered label.
  public var label: String
  /// The button block's id (nil for the legacy button and the skip control).
  public var blockID: String?
  /// What tapping does (`.skip` for the skip control).
  public var action: Action
  public var kind: Kind
  /// `button_tapped`'s `button_id`: the block id, `primary` (legacy button) or `skip`.
  public var buttonID: String {
    blockID ?? (kind == .skip ? "skip" : "primary")
  }

  public init(number: Int, label: String, blockID: String?, action: Action, kind: Kind) {
    self.number = number
    self.label = label
    self.blockID = blockID
    self.action = action
    self.kind = kind
  }
}

/// A shown screen, as kept in `Session.history`.
public struct ScreenRef: Hashable, Sendable {
  public var flowID: String
  public var screenID: String
  public init(flowID: String, screenID: String) {
    self.flowID = flowID
    self.screenID = screenID
  }
}
