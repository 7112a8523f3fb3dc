import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections

/// A parsed replay script (`*.flow-test.yaml` or `*.flow-test.json`): the session options, the
/// steps and the final expectation, each with its position in the script file.
public struct ReplayScript: Hashable, Sendable {
  /// The script file, as the user named it.
  public var file: String
  /// `name:`, else the file name without `.flow-test.yaml`.
  public var name: String
  /// `flow:` as written (relative to the script's directory unless absolute).
  public var flow: String
  /// `flow:` resolved against the script's directory.
  public var flowPath: String
  /// Where `flow:` is written.
  public var flowLocation: SourceLocation?
  /// `flow_id:` (extension): the flow of a bundle to run, like `--flow`.
  public var flowID: String?
  /// `user:` (default `anonymous`).
  public var user: String?
  /// `session_id:` (extension), like `--session-id`.
  public var sessionID: String?
  /// `variants:` experiment id → variant id.
  public var variants: [String: String]
  /// Where each experiment id of `variants:` is written.
  public var variantLocations: [String: SourceLocation] = [:]
  /// `traits:` `$user.<trait>` values.
  public var traits: [String: Value]
  /// `mocks:` identifier → result.
  public var mocks: [String: ActionResult]
  /// `now:` epoch milliseconds (default `2026-01-01T00:00:00Z`).
  public var now: Int64
  /// `start:` the start screen.
  public var start: String?
  /// `platform:` `ios` or `android` (`--platform`): `$platform` and `onboarding_started`'s platform.
  public var platform: String?
  /// `unavailable_flags:` experiments whose flag is unavailable (`--flag-unavailable`).
  public var unavailableFlags: [String] = []
  /// `ios_quirks: true`: as `--ios-quirks`.
  public var iosQuirks = false
  public var steps: [ScriptStep]
  /// The top-level `expect:`, checked when the steps are done.
  public var expectation: Expectation?
  /// `campaigns:` (with `profile:`, `timezone:`): the script replays a campaign timeline.
  public var campaigns: CampaignFiles?

  /// `2026-01-01T00:00:00Z`, where every script's clock starts unless it says `now:`.
  public static let defaultNow: Int64 = 1_767_225_600_000

  public init(
    file: String, name: String, flow: String, flowPath: String, flowLocation: SourceLocation? = nil,
    flowID: String? = nil, user: String? = nil, sessionID: String? = nil,
    variants: [String: String] = [:], traits: [String: Value] = [:],
    mocks: [String: ActionResult] = [:], now: Int64 = ReplayScript.defaultNow, start: String? = nil,
    steps: [ScriptStep] = [], expectation: Expectation? = nil
  ) {
    self.file = file
    self.name = name
    self.flow = flow
    self.flowPath = flowPath
    self.flowLocation = flowLocation
    self.flowID = flowID
    self.user = user
    self.sessionID = sessionID
    self.variants = variants
    self.traits = traits
    self.mocks = mocks
    self.now = now
    self.start = start
    self.steps = steps
    self.expectation = expectation
  }

  /// The session configuration the script runs with: awaited actions wait, to be answered by
  /// `mocks`, `result` steps, or failed with `unhandled action: X` when no step answers them
  /// (`ReplayScript.unhandledActionFailure`); hooks are asked when a step answers one.
  public var sessionConfig: SessionConfig {
    var config = SessionConfig(
      userID: user ?? "anonymous", traits: traits, variantOverrides: variants, now: now,
      sessionID: sessionID, startScreen: start, flowID: flowID, mocks: mocks, waitsForResults: true)
    if let platform {
      config.platform = platform
      config.reportsPlatform = true
    }
    config.unavailableFlags = Set(unavailableFlags)
    config.iosQuirks = iosQuirks
    // A script that answers hooks is a host with a delegate: every submission asks it; one that
    // gives an override (`hook: {title: …}`) is asked before every screen too.
    config.asksHooks = steps.contains { if case .hook = $0.kind { true } else { false } }
    config.asksRenderHooks = steps.contains { if case .hook(.render) = $0.kind { true } else { false } }
    return config
  }
}

/// One entry of `steps:`.
public struct ScriptStep: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    /// `expect: {...}`: check the state now. Boxed: an expectation is many times the size of
    /// any other step, and a script's steps are copied as they are parsed and run.
    indirect case expect(Expectation)
    /// `tap: LABEL | ID | NUMBER`.
    case tap(ButtonSelector)
    /// `fill: {field: value, ...}`: inputs of the current screen, in the order written.
    case fill([FieldValue])
    /// `select: {field: [item, ...]}`: checklist items by id, value or label.
    case select([FieldItems])
    /// `set: {field: value}`: any field (a field not on the screen sets a variable).
    case set([FieldValue])
    /// `result: {status: success|failure|cancelled, data|error}`.
    case result(ActionResult)
    /// `hook: proceed | {type: …, data?, message?, stepId?}`: answers the pending hook.
    case hook(HookAnswer)
    /// `hook: {http: STATUS, body?: …} | {timeout: true} | {network: TEXT}`: answers the pending
    /// attempt at a step's server webhook.
    case webhook(WebhookResponse)
    /// `chat: {send: TEXT} | {quick_reply: ID} | {rate: N}`: a turn of a chat step (its
    /// webhook's answer is `chat: {reply: {…}}` or a webhook answer, read as `webhook`).
    case chat(ChatInput)
    case next, back, skip, dismiss, complete
    /// `decline`: the host declines the pending native screen; flowrun renders it.
    case decline
    /// `wait: MS`.
    case wait(Int64)
    /// `goto: SCREEN` (extension: the debugging jump, as `:goto` records it).
    case goto(String)
    /// `snapshot: FILE` (relative to the script).
    case snapshot(String)
    /// `track: TYPE` or `track: {type: TYPE, properties: {...}}`: the host's own event (an event
    /// type, or a name of the flow's own vocabulary: `Input.track(named:properties:)`).
    case track(String, OrderedDictionary<String, Value>)
    /// Campaign scripts: `track: NAME` or `{name, properties}`, an event for the campaigns.
    case campaignEvent(String, Value)
    /// Campaign scripts: `profile: {key: value}`, user properties change.
    case campaignProfile(Value)
  }

  /// A field and a value, with where the field is written.
  public struct FieldValue: Hashable, Sendable {
    public var field: String
    public var value: Value
    public var location: SourceLocation?
    public init(field: String, value: Value, location: SourceLocation? = nil) {
      self.field = field
      self.value = value
      self.location = location
    }
  }

  /// A checklist field and the items to pick.
  public struct FieldItems: Hashable, Sendable {
    public var field: String
    public var items: [String]
    public var location: SourceLocation?
    public init(field: String, items: [String], location: SourceLocation? = nil) {
      self.field = field
      self.items = items
      self.location = location
    }
  }

  public var kind: Kind
  /// Where the step starts (its `-` entry's first key or scalar).
  public var location: SourceLocation?
  /// `expect_error: TEXT`: the input must be rejected with a message containing TEXT
  /// (case-insensitive), or, for a forward action, blocked by validation with such a message.
  public var expectError: String?

  public init(_ kind: Kind, location: SourceLocation? = nil, expectError: String? = nil) {
    self.kind = kind
    self.location = location
    self.expectError = expectError
  }

  /// The script key naming this step (`tap`, `expect`, ...).
  public var keyword: String {
    switch kind {
    case .expect: "expect"
    case .tap: "tap"
    case .fill: "fill"
    case .select: "select"
    case .set: "set"
    case .result: "result"
    case .hook, .webhook: "hook"
    case .chat: "chat"
    case .next: "next"
    case .back: "back"
    case .skip: "skip"
    case .dismiss: "dismiss"
    case .complete: "complete"
    case .decline: "decline"
    case .wait: "wait"
    case .goto: "goto"
    case .snapshot: "snapshot"
    case .track: "track"
    case .campaignEvent: "track"
    case .campaignProfile: "profile"
    }
  }
}

/// What `expect:` checks, as a step or at the end. Every key is optional; each present key has
/// its location so a failure points at it.
public struct Expectation: Hashable, Sendable {
  /// A located value of an expectation key.
  public struct Item<T: Hashable & Sendable>: Hashable, Sendable {
    public var value: T
    public var location: SourceLocation?
    public init(_ value: T, at location: SourceLocation? = nil) {
      self.value = value
      self.location = location
    }
  }

  /// One entry of `events:` / `not_events:`.
  public enum EventPattern: Hashable, Sendable {
    /// An `event_type`.
    case type(String)
    /// A subset of the event envelope (nested objects, `properties` included, match as subsets).
    case subset(Value)
  }

  /// Where the expectation itself is written.
  public var location: SourceLocation?
  /// `screen: ID`: the current screen's id.
  public var screen: Item<String>?
  /// `text:` one string or a list: substrings of the rendered screen (plain text).
  public var text: Item<[String]>?
  /// `errors: {field: message}`: validation messages shown now (substring, case-insensitive);
  /// `errors: {}` means no errors.
  public var errors: Item<[String: String]>?
  /// `data: {...}`: collected data, a subset unless `exact: true`.
  public var data: Item<Value>?
  /// `exact: true` makes `data` an equality.
  public var exact: Bool
  /// `events:` an ordered subsequence of the events so far.
  public var events: Item<[EventPattern]>?
  /// `not_events:` none of these may have happened.
  public var notEvents: Item<[EventPattern]>?
  /// `path:` the exact sequence of screens shown.
  public var path: Item<[String]>?
  /// `completed: true|false`.
  public var completed: Item<Bool>?
  /// `dismissed: true|false`.
  public var dismissed: Item<Bool>?
  /// `status:` (extension) `running`, `awaiting`, `completed`, `dismissed`, `quit`, `failed`.
  public var status: Item<String>?
  /// `awaiting: IDENTIFIER` (extension): the pending awaited action.
  public var awaiting: Item<String>?
  /// `submission: {...}`: the session's row in the submissions store (docs/submissions.md).
  public var submission: Item<SubmissionExpectation>?
  /// Campaign scripts: `decision:` one decision of the last step's inputs (a subset of its JSON
  /// form); `decisions:` an ordered subsequence of every decision so far; `no_match:` of the
  /// last event tracked; `live_journeys:` how many journeys are live now.
  public var decision: Item<Value>?
  public var decisions: Item<[Value]>?
  public var noMatch: Item<Bool>?
  public var liveJourneys: Item<Int>?

  public init(location: SourceLocation? = nil) {
    self.location = location
    self.exact = false
  }
}

/// What `expect: submission:` checks of the session's stored row; each key is optional.
public struct SubmissionExpectation: Hashable, Sendable {
  /// A subset of the row's `data`, as `expect: data` matches.
  public var data: Value?
  public var lastScreenID: String?
  public var lastScreenIndex: Int?
  /// Whether `completed_at` is set.
  public var completed: Bool?

  public init(data: Value? = nil, lastScreenID: String? = nil, lastScreenIndex: Int? = nil, completed: Bool? = nil) {
    self.data = data
    self.lastScreenID = lastScreenID
    self.lastScreenIndex = lastScreenIndex
    self.completed = completed
  }
}

/// A campaign script's inputs, resolved against the script.
public struct CampaignFiles: Hashable, Sendable {
  public var campaigns: String
  public var campaignsLocation: SourceLocation?
  public var profile: String?
  public var timezone = "UTC"
}
