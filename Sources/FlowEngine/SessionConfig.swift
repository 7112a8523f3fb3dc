import FlowExpression

/// Everything a session needs besides the document: who, when, which flow, and canned results.
public struct SessionConfig: Hashable, Sendable {
  /// The user id (events' `user_id`, `$user.id`, experiment bucketing).
  public var userID: String
  /// `$user.<trait>` values.
  public var traits: [String: Value]
  /// Experiment id → variant id, replacing the bucketed assignment (`--variant EXP=VARIANT`).
  public var variantOverrides: [String: String]
  /// The virtual clock's start, in epoch milliseconds.
  public var now: Int64
  /// The session id; nil derives one from the user id, the flow id and `now` (never random).
  public var sessionID: String?
  /// Start on this screen of the starting flow instead of its `startScreen`.
  public var startScreen: String?
  /// Run this flow of a bundle; wins over the bundle's `activeFlow` and over variant flows.
  public var flowID: String?
  /// At most this many screen transitions per session; then the session fails.
  public var stepBudget: Int
  /// `$platform`.
  public var platform: String
  /// Also put `platform` in `onboarding_started`'s properties (`--platform` given).
  public var reportsPlatform: Bool = false
  /// Experiments whose feature flag is unavailable (`--flag-unavailable EXP`): their users keep
  /// the experiment's `default` variant (document 003: "variant-base" until the flag arrives).
  public var unavailableFlags: Set<String> = []
  /// AppDNA: behave as iOS SDK 1.0.70's code does where it differs from document 001
  /// (`--ios-quirks`; docs/dialects/appdna.md, "iOS quirks").
  public var iosQuirks = false
  /// `$locale`.
  public var locale: String
  /// Identifier → result, used at once when an awaited action (or a native screen) starts.
  public var mocks: [String: ActionResult]
  /// True: a submitted screen asks the host's `onBeforeStepAdvance` hook before it is left (a
  /// delegate is present: `--hook-command`, `--mock hook=…`, `--delegate`, a script's `hook:`).
  public var asksHooks: Bool = false
  /// Screen id → the answer to its hook, used at once; the key `""` answers every screen.
  public var hookMocks: [String: HookAnswer] = [:]
  /// True: a screen about to be shown asks the host's `onBeforeStepRender` first (a hook
  /// command, `--mock render=…` or a script that gives an override answers it).
  public var asksRenderHooks: Bool = false
  /// Screen id → the answer to its `onBeforeStepRender` (`--mock render.STEP=…`); `""`: every
  /// screen.
  public var renderMocks: [String: HookAnswer] = [:]
  /// Step id → how every attempt at its server webhook ends, used at once (`--mock
  /// webhook.STEP=…`); the key `""` answers every step.
  public var webhookMocks: [String: WebhookResponse] = [:]
  /// Step id → how every call of its chat webhook ends (`--mock chat.STEP=…`); `""` answers
  /// every chat step.
  public var chatMocks: [String: WebhookResponse] = [:]
  /// True: an awaited action without a mock waits in `.awaiting` for a `.result` input (every
  /// command: a person or a script answers it). False: it fails at once with the error
  /// `unhandled action: <identifier>`, as in the SDK without a host to answer.
  public var waitsForResults: Bool
  /// Keep `events`, `trace` and `path` in the session (false for explorers that fork a lot).
  public var recordsHistory: Bool
  /// False: the session builds no events (no `.event` outputs, `events` stays empty), for
  /// drivers that read none; every other output and the session state are the same.
  public var emitsEvents: Bool
  /// True: keep `path` even without `recordsHistory` (a script writer reads the path alone;
  /// the events and the trace cost more than the steps).
  public var recordsPath = false
  /// True with `emitsEvents` false: the session builds its `action_result` events alone (a
  /// coverage observer reads those and no other; building every event was a third of `send`).
  public var emitsActionResults = false

  public init(
    userID: String = "anonymous",
    traits: [String: Value] = [:],
    variantOverrides: [String: String] = [:],
    now: Int64 = 0,
    sessionID: String? = nil,
    startScreen: String? = nil,
    flowID: String? = nil,
    stepBudget: Int = 10_000,
    platform: String = "ios",
    locale: String = "en_US",
    mocks: [String: ActionResult] = [:],
    waitsForResults: Bool = false,
    recordsHistory: Bool = true,
    emitsEvents: Bool = true
  ) {
    self.userID = userID
    self.traits = traits
    self.variantOverrides = variantOverrides
    self.now = now
    self.sessionID = sessionID
    self.startScreen = startScreen
    self.flowID = flowID
    self.stepBudget = stepBudget
    self.platform = platform
    self.locale = locale
    self.mocks = mocks
    self.waitsForResults = waitsForResults
    self.recordsHistory = recordsHistory
    self.emitsEvents = emitsEvents
  }
}

/// Why `Session.start` could not start.
public struct SessionStartError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
