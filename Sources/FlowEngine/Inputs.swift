import FlowExpression
import OrderedCollections

/// What the outside world does to a session.
public enum Input: Hashable, Sendable {
  /// Fill an input, toggle, slider or checklist of the current screen (no auto-advance).
  case set(field: String, value: Value)
  /// Pick checklist items by id, value or label (case-insensitive); a single-select checklist
  /// with `autoAdvance` then runs its `action`.
  case pick(field: String, items: [String])
  /// Press a control of `Session.actions`.
  case tap(ButtonSelector)
  /// The `next` action (validates), without a `button_tapped`.
  case next
  /// Back (`previous`); rejected when the flow forbids it or the screen hides it.
  case back
  /// The skip control; rejected when the screen has no `skipText`.
  case skip
  /// Dismiss the run; rejected when `settings.dismissAllowed` is false.
  case dismiss
  /// The host finishes the flow (a `native` screen's `complete` answer); validates.
  case complete
  /// Answer the pending awaited action or native screen.
  case result(ActionResult)
  /// Answer the pending `HookRequest` (`Output.hookRequested`).
  case hookAnswered(HookAnswer)
  /// Answer the pending attempt at a step's server webhook (`HookRequest.webhook`), or the
  /// pending call of a chat step's webhook.
  case webhookAnswered(WebhookResponse)
  /// A turn of an AppDNA `interactive_chat` step (`Session+Chat`).
  case chat(ChatInput)
  /// The host declines the pending native screen (its delegate returns false, document 000):
  /// flowrun renders the screen itself, with its button (`buttonText`, default Continue).
  case decline
  /// Advance the virtual clock (fires `autoAdvanceMs`).
  case wait(ms: Int64)
  /// Advance the virtual clock by real time that passed on a terminal; behaves like `wait`.
  case advanceClock(ms: Int64)
  /// Debugging jump to a screen of the current flow (no validation; traced as debug).
  case goto(screenID: String)
  /// Debugging: set any collected value (traced as debug).
  case setVariable(name: String, value: Value)
  /// The host's own event (document 000's `track(eventType, screenId, properties)`): an event of
  /// `type` at the current screen carrying `properties`; navigation does not change. `name`: an
  /// event of the flow's own vocabulary (a Nuxie flow's `qualified`), sent as `.flowEvent` under
  /// that name; other dialects refuse it with the closest event type. A parked `wait_until`
  /// checks its condition again with the event bound (`Event` reads its properties).
  case track(EventType, properties: OrderedDictionary<String, Value>, name: String? = nil)
  /// End the session where it stands (`screen_dropped_off` with the reason).
  case quit(reason: DropOffReason)
}

/// How `tap` names a control.
public enum ButtonSelector: Hashable, Sendable {
  /// 1-based, as rendered (`ActionEntry.number`).
  case number(Int)
  /// The rendered label, case-insensitive (surrounding spaces ignored); when no label matches,
  /// a block id equal to the text.
  case label(String)
  /// A button block's id.
  case blockID(String)
}

/// The answer to an awaited custom action or a native screen.
public enum ActionResult: Hashable, Sendable {
  case success(Value?)
  case failure(String?)
  case cancelled

  /// The key of a success payload that stands for the host's `markOnboardingCompleted()`
  /// (`{"$markOnboardingCompleted": true}`): the session then ends completed. It is not
  /// collected.
  public static let markOnboardingCompletedKey = "$markOnboardingCompleted"

  /// The host's outcomes by the names AppDNA gives them (a paywall's, a permission prompt's),
  /// in the order help lists them.
  public static let outcomeNames = ["purchased", "restored", "failed", "dismissed", "granted", "denied"]

  /// The result an outcome name stands for: purchased, restored and granted succeed; failed
  /// and denied fail; dismissed is cancelled. nil for any other name.
  public static func outcome(named name: String) -> ActionResult? {
    switch name {
    case "purchased", "restored", "granted": .success(nil)
    case "failed", "denied": .failure(name)
    case "dismissed": .cancelled
    default: nil
    }
  }

  /// `success`, `failure` or `cancelled`, as in `action_result`'s `status`.
  public var statusName: String {
    switch self {
    case .success: "success"
    case .failure: "failure"
    case .cancelled: "cancelled"
    }
  }
}

/// `screen_dropped_off`'s `reason`.
public enum DropOffReason: String, Hashable, Sendable, CaseIterable {
  case dismissed
  case quit
  case endOfInput = "end_of_input"
  /// A non-interactive run read too many lines in a row that changed nothing on one screen.
  case stuck
  /// The process was asked to end (SIGTERM, SIGHUP).
  case terminated
  /// Standard output or the event stream could not be written any more (the reader went
  /// away, the disk is full).
  case outputFailed = "output_failed"
}
