import FlowExpression
import FlowFormat
import OrderedCollections

/// A screen position: indices into `FlowDocument.flows` and that flow's `screens`.
struct Frame: Hashable, Sendable {
  var flow: Int
  var screen: Int
}

/// A back-stack entry: the shown screen and the sub-flow call stack it was shown under.
struct HistoryEntry: Hashable, Sendable {
  var frame: Frame
  var callStack: PersistentStack<Frame>
}

/// Who a session is for: what differs between the users of one shared `SessionContext`.
final class SessionUser: Sendable {
  let id: String
  let traits: [String: Value]
  let variantOverrides: [String: String]
  /// `SessionConfig.sessionID` as given.
  let givenSessionID: String?
  /// The session id when given or when events carry it; nil: derived on each read (`sessionID`).
  let postedSessionID: String?

  /// The envelope fields of every event but `experiment_variant_assigned`; nil when the session
  /// posts no events (built on each read then).
  let builtShared: Event.Shared?

  /// User `id` of a session of `context`.
  init(
    id: String, traits: [String: Value], variantOverrides: [String: String], sessionID: String?,
    context: SessionContext
  ) {
    self.id = id
    self.traits = traits
    self.variantOverrides = variantOverrides
    self.givenSessionID = sessionID
    // A session that posts no events (the simulator's) seldom reads its id: deriving it (two
    // hashes) waits for a read.
    let posted =
      context.posts
      ? sessionID ?? Session.derivedSessionID(userID: id, flowID: context.flowID, now: context.settings.now)
      : sessionID
    self.postedSessionID = posted
    self.builtShared = posted.map {
      Event.Shared(
        sessionID: $0, userID: id, experimentID: context.envelopeExperiment?.id,
        variantID: context.envelopeExperiment?.variant)
    }
  }

  /// `$user`: the id and the traits (sorted), built when an expression reads it.
  var value: Value {
    // Built by subscript: a dictionary literal went through `uniqueKeysWithValues`.
    var user = OrderedDictionary<String, Value>()
    user["id"] = .string(id)
    if !traits.isEmpty {
      for key in traits.keys.sorted() where key != "id" { user[key] = traits[key] }
    }
    return .object(user)
  }

  /// The same user (one object, or equal parts).
  static func same(_ lhs: SessionUser, _ rhs: SessionUser) -> Bool {
    lhs === rhs
      || (lhs.id == rhs.id && lhs.traits == rhs.traits && lhs.variantOverrides == rhs.variantOverrides
        && lhs.givenSessionID == rhs.givenSessionID && lhs.postedSessionID == rhs.postedSessionID)
  }
}

/// What every copy of a session shares: the document and everything fixed at start but the
/// user (`SessionUser`). One context may serve many users (`SessionStarter`): nothing here may
/// depend on the user's id, traits or forced variants, which is why the configuration is held
/// as `settings`, with those parts blanked.
final class SessionContext: Sendable {
  let document: FlowDocument
  /// The configuration without its user parts: `userID` empty, `traits`, `variantOverrides`
  /// and `sessionID` empty (they are the session's `user`; `Session.config` puts them back).
  let settings: SessionConfig
  /// The started flow's id (what a derived session id hashes).
  let flowID: String
  /// The started flow's and screen's place.
  let start: Frame
  let startTime: Int64
  /// Experiment id → variant id (the Sequence `experiment` first, then local ones in order).
  let variants: OrderedDictionary<String, String>
  /// Attached to every event (see docs/semantics.md).
  let envelopeExperiment: (id: String, variant: String)?
  let variantValue: Value
  /// Index of each flow's first screen in a numbering of all screens of the document (for `seen`).
  let screenBase: [Int]
  /// Screens in the whole document.
  let screenCount: Int
  /// `config.emitsEvents`, read once per event (a stored flag, not a path through the config).
  let emitsEvents: Bool
  /// `config.emitsActionResults`.
  let emitsActionResults: Bool
  /// The document's secret fields, masked (see `Session.secrets`).
  let secrets: SecretPolicy
  /// The document's lookups worked out once, when the caller gave them (see `DocumentTables`).
  let tables: DocumentTables?

  /// `variants`: what `Session.resolve` assigned, in order.
  init(
    document: FlowDocument, settings: consuming SessionConfig, start: Session.Start,
    variants: [Session.Assigned], tables: DocumentTables?
  ) {
    self.document = document
    self.tables = tables
    self.flowID = start.flowID
    self.start = start.frame
    // Options and scripts refuse a start outside the clock's range; a caller that passes one
    // anyway gets the nearest end, so later arithmetic cannot overflow.
    self.startTime = Limits.clamp(settings.now, to: Limits.clockMs)
    self.emitsEvents = settings.emitsEvents
    self.emitsActionResults = settings.emitsActionResults
    self.secrets = SecretPolicy(document: document)
    var assigned = OrderedDictionary<String, String>()
    for pair in variants { assigned[pair.id] = pair.variant }
    self.variants = assigned
    self.envelopeExperiment = start.envelope
    self.variantValue = .object(assigned.mapValues { .string($0) })
    self.screenBase = document.screenOffsets
    self.screenCount = document.screenCount
    settings.userID = ""
    settings.traits = [:]
    settings.variantOverrides = [:]
    settings.sessionID = nil
    // Last: the configuration is moved in, not copied.
    self.settings = settings
  }

  /// Whether the session posts events or action results (its id is then derived at start).
  var posts: Bool { emitsEvents || emitsActionResults }

  /// Whether a start resolved to `start` with `variants` can use this context (the variants
  /// compared pair by pair: no dictionary is built per start).
  func serves(_ start: Session.Start, variants assigned: [Session.Assigned]) -> Bool {
    guard self.start == start.frame, flowID == start.flowID, variants.count == assigned.count,
      envelopeExperiment?.id == start.envelope?.id, envelopeExperiment?.variant == start.envelope?.variant
    else { return false }
    for index in assigned.indices {
      guard variants.keys[index] == assigned[index].id, variants.values[index] == assigned[index].variant else {
        return false
      }
    }
    return true
  }

  /// The session id of `user`'s events: the given one, else derived (the same on every read).
  func sessionID(of user: SessionUser) -> String {
    user.postedSessionID ?? Session.derivedSessionID(userID: user.id, flowID: flowID, now: settings.now)
  }

  /// The envelope fields of `user`'s events but `experiment_variant_assigned`.
  func eventShared(of user: SessionUser) -> Event.Shared {
    user.builtShared
      ?? Event.Shared(
        sessionID: sessionID(of: user), userID: user.id, experimentID: envelopeExperiment?.id,
        variantID: envelopeExperiment?.variant)
  }

  /// The index of a screen id in a flow. Reads the flow in place: `document.flows[flow]` would
  /// copy the whole `Flow` to ask its index.
  func screenIndex(of id: String, inFlow flow: Int) -> Int? {
    document.flows.withUnsafeBufferPointer { $0[flow].index(of: id) }
  }
}

/// One walk through a flow: a value type whose `send(_:)` is the reducer
/// `(state, input) → (state, [Output])`. See docs/semantics.md.
public struct Session: Sendable {
  let context: SessionContext
  /// Who the session is for (a context may serve many users).
  let user: SessionUser
  var frame: Frame
  /// Whether the current screen has been shown (`screen_viewed` emitted).
  var shown: Bool = false
  /// The shown screen is being left by a skip (its `screen_skipped` is out): some vocabularies
  /// send no completion for it (`EventVocabulary.completes`).
  var skipping = false
  /// The events of the rules that routed the screen being left, or passed on (`Rule.emits`),
  /// sent after its completion, in rule order.
  var routedEvents: [(name: String, properties: [String: Value])] = []
  /// The shown screen's completion went out before it is left: a rule's action (`Rule.then`,
  /// an AppDNA paywall) runs after it, as the SDK sends the step's completion at submission.
  var completionSent = false
  /// `onBeforeStepRender`'s overrides by screen id: the last one a screen was given stays with
  /// it (as the SDK's `configOverrides`).
  var overrides: [String: StepOverride] = [:]
  /// Persistent stacks: a copy of the session shares them (O(1) forks at any depth).
  var callStack = PersistentStack<Frame>()
  var backStack = RecyclingStack<HistoryEntry>()
  /// The frames ever shown, one bit per screen of the document.
  var seen: ScreenSet
  var seq: Int = 0
  /// Experiments whose exposure was sent (`Action.experiment`: once per session).
  var exposedExperiments: Set<String> = []
  /// Steps of a step graph run for the current input (`runStep`; reset per input).
  var stepHops = 0
  var enteredAt: Int64
  var ended: SessionStatus?
  var outbox: [Output] = []

  /// Collected data: one ordered map across flows, stored so that copies of a session share it
  /// (`fields.changes` tells whether an input changed it without comparing stores).
  public internal(set) var fields: FieldStore
  /// Collected data: one ordered map across flows. Built on each read, and a write replaces
  /// the store: the engine reads and writes `fields`.
  public internal(set) var data: OrderedDictionary<String, Value> {
    get { fields.dictionary }
    set { fields.replace(with: newValue) }
  }
  /// Collected data as one ordered object value (for `--data` files and expectations).
  public var dataValue: Value { .object(fields.dictionary) }
  /// One collected value.
  public func data(_ key: String) -> Value? { fields[key] }
  /// Makes room in the data for `count` writes (a hint: no effect on behaviour).
  public mutating func reserveData(_ count: Int) { fields.reserveCapacity(count) }
  /// An environment reading this session's data (shared, not copied) and `context`'s roots.
  public func dataEnvironment(context: [String: Value]) -> EngineEnvironment {
    EngineEnvironment(fields: fields, context: context)
  }

  /// The pending awaited action or native screen.
  public internal(set) var pending: PendingAction?
  /// The host declined the current native screen: it is drawn and answered like a legacy screen.
  public internal(set) var hostDeclined = false
  /// The conversations of the `interactive_chat` steps opened so far, by step id.
  public internal(set) var chats: [String: ChatState] = [:]
  /// The last validation's messages by field; editing a field clears its entry.
  public internal(set) var validationErrors: OrderedDictionary<String, String> = [:]
  /// The error of the last failed action result, shown until the screen changes.
  public internal(set) var lastActionError: String?
  /// The virtual clock, epoch milliseconds.
  public internal(set) var virtualNow: Int64
  /// Every event so far (empty when `recordsHistory` is false).
  public internal(set) var events: [Event] = []
  /// Ids of the screens shown, in order (a screen shown again appears again; empty when
  /// `recordsHistory` and `recordsPath` are false).
  public internal(set) var path: [String] = []
  /// Every decision so far (empty when `recordsHistory` is false).
  public internal(set) var trace: [Decision] = []
  /// Screen transitions so far (counted against `stepBudget`).
  public internal(set) var steps: Int = 0

  private init(context: SessionContext, user: SessionUser, frame: Frame, fields: FieldStore, seen: ScreenSet) {
    self.context = context
    self.user = user
    self.frame = frame
    self.enteredAt = context.startTime
    self.virtualNow = context.startTime
    self.fields = fields
    self.seen = seen
  }

  // MARK: Start

  /// `; did you mean 'reclaim'?` for a near miss among `ids`, else nothing.
  private static func didYouMean(_ word: String, _ ids: [String]) -> String {
    closestMatch(to: word, in: ids).map { "; did you mean '\($0)'?" } ?? ""
  }

  /// Starts a session: `onboarding_started`, `experiment_variant_assigned` per experiment, then
  /// the first screen (its `onEnter` first). Throws when the flow or start screen does not exist.
  /// `tables`: `DocumentTables(document)`, built once by a caller that starts many sessions of
  /// `document` (nil: the session looks things up as it goes; the same behaviour either way).
  public static func start(
    document: FlowDocument, config: consuming SessionConfig = SessionConfig(), tables: DocumentTables? = nil
  )
    throws(SessionStartError) -> (Session, [Output])
  {
    var variants: [Assigned] = []
    let start = try resolve(
      document: document, config: config, userID: config.userID, traits: config.traits,
      overrides: config.variantOverrides, tables: tables, variants: &variants)
    let (userID, traits, overrides, sessionID) = (
      config.userID, config.traits, config.variantOverrides, config.sessionID
    )
    let context = SessionContext(
      document: document, settings: config, start: start, variants: variants, tables: tables)
    let user = SessionUser(
      id: userID, traits: traits, variantOverrides: overrides, sessionID: sessionID, context: context)
    var outputs: [Output] = []
    let session = Session(context: context, user: user, into: &outputs)
    return (session, outputs)
  }

  /// Where a start lands: the flow and screen (the variants assigned are written apart).
  struct Start {
    var flowID: String
    var frame: Frame
    var envelope: (id: String, variant: String)?
  }

  /// An experiment and the variant a start assigned.
  typealias Assigned = (id: String, variant: String)

  /// Resolves a start of `document` with `config` for the user `userID` (its traits and forced
  /// variants given apart from `config`, whose own are not read): entry flow, experiments,
  /// flow and screen. Throws when the flow or start screen does not exist. The variants
  /// assigned go to `variants` (emptied first), in order: a caller that starts many sessions
  /// (`SessionStarter`) reuses one array and compares it with its contexts' variants.
  static func resolve(
    document: FlowDocument, config: borrowing SessionConfig, userID: String, traits: [String: Value],
    overrides variantOverrides: [String: String], tables: DocumentTables? = nil, variants: inout [Assigned]
  ) throws(SessionStartError) -> Start {
    variants.removeAllFromTheEnd()
    // Empty overrides and flags (the common case) are not asked: a lookup hashes the key even
    // in an empty dictionary or set.
    let overrides = !variantOverrides.isEmpty
    var variantFlow: String?
    let entryFlowID = try targetedEntry(document, flowID: config.flowID, userID: userID, traits: traits)
    let entry = config.flowID ?? entryFlowID
    // Read in place: `document.flow(entry)` copies the whole flow to ask.
    if let index = tables?.flowIndex(entry, in: document) ?? document.flowIndex(entry),
      let assigned = document.flows.withUnsafeBufferPointer({ $0[index].assignedExperiment })
    {
      variants.append((assigned.id, (overrides ? variantOverrides[assigned.id] : nil) ?? assigned.variantID))
    }
    var local: (id: String, variant: String)?
    let flags = !config.unavailableFlags.isEmpty
    // Read in place: a loop over the array copied each experiment.
    document.experiments.withUnsafeBufferPointer { experiments in
      for index in experiments.indices
      where !variants.contains(where: { $0.id == experiments[index].id })
        && (experiments[index].appliesToFlow ?? entry) == entry
      {
        let id = experiments[index].id
        let chosen: String?
        if overrides, let override = variantOverrides[id] {
          chosen = override
        } else if flags, config.unavailableFlags.contains(id) {
          chosen = experiments[index].fallbackVariant
        } else {
          chosen = VariantAssignment.variant(of: experiments[index], userID: userID)?.id
        }
        guard let chosen else { continue }
        variants.append((id, chosen))
        if local == nil { local = (id, chosen) }
        if variantFlow == nil, let flow = experiments[index].variants.first(where: { $0.id == chosen })?.flow {
          variantFlow = flow
        }
      }
    }
    let flowID = config.flowID ?? variantFlow ?? entryFlowID
    guard let flowIndex = tables?.flowIndex(flowID, in: document) ?? document.flowIndex(flowID) else {
      let ids = document.flows.map(\.id)
      throw SessionStartError(
        "no flow '\(flowID)' in the document (flows: \(ids.joined(separator: ", ")))\(didYouMean(flowID, ids))")
    }
    // The flow read in place (a `let` of it copied every field, per simulated user).
    let (screenCount, startScreenID, assignedExperiment) = document.flows.withUnsafeBufferPointer {
      ($0[flowIndex].screens.count, $0[flowIndex].startScreenID, $0[flowIndex].assignedExperiment)
    }
    guard screenCount > 0 else { throw SessionStartError("flow '\(flowID)' has no screens") }
    let startID = config.startScreen ?? startScreenID
    guard let screenIndex = document.flows.withUnsafeBufferPointer({ $0[flowIndex].index(of: startID) }) else {
      let ids = document.flows[flowIndex].screens.map(\.id)
      throw SessionStartError(
        "no screen '\(startID)' in flow '\(flowID)' (screens: \(ids.joined(separator: ", ")))\(didYouMean(startID, ids))"
      )
    }
    var envelope: (id: String, variant: String)?
    if let assigned = assignedExperiment {
      envelope = (assigned.id, variants.first { $0.id == assigned.id }?.variant ?? assigned.variantID)
    } else {
      envelope = local
    }
    return Start(
      flowID: flowID, frame: Frame(flow: flowIndex, screen: screenIndex), envelope: envelope)
  }

  /// A new session of `context` for `user`, begun: its initial data set, its first screen
  /// entered, the outputs so far in `outputs` (emptied first). `recycling`: a session done with,
  /// whose storage (the data's, the outbox's, the screen set's, the back stack's nodes) is
  /// emptied and kept instead of freed; every other part of the state starts as in a new session.
  init(
    context: SessionContext, user: SessionUser, recycling old: consuming Session? = nil, into outputs: inout [Output]
  ) {
    switch consume old {
    case .some(var old):
      // Emptied while `old` is their only holder: in place, capacity kept.
      old.fields.removeAll()
      old.seen.removeAll(capacity: context.screenCount)
      old.backStack.removeAllKeepingNodes()
      self.init(context: context, user: user, frame: context.start, fields: old.fields, seen: old.seen)
      swap(&backStack, &old.backStack)
    case .none:
      self.init(
        context: context, user: user, frame: context.start, fields: FieldStore(),
        seen: ScreenSet(capacity: context.screenCount))
    }
    // Read before, not written from inside a closure: a session captured by one was copied
    // whole on return.
    let initialData = context.document.flows.withUnsafeBufferPointer { $0[context.start.flow].initialData }
    for (key, value) in initialData { fields[key] = value }
    outputs.removeAll(keepingCapacity: true)
    // The caller's storage is the outbox while the session begins.
    swap(&outbox, &outputs)
    begin()
    swap(&outbox, &outputs)
  }

  /// The session id of a start without one: two MurmurHash3 words (seeds 0 and 0x5EED) over the
  /// UTF-8 of `userID ␟ flowID ␟ now`, as hex.
  static func derivedSessionID(userID: String, flowID: String, now: Int64) -> String {
    EngineHash.withKey([userID, flowID, String(now)], separator: 0x1F) {
      hex(EngineHash.murmur32($0, seed: 0)) + hex(EngineHash.murmur32($0, seed: 0x5EED))
    }
  }

  /// Eight lowercase hex digits, zero-padded (written directly: the simulator starts a session,
  /// and so derives an id, per user).
  static func hex(_ value: UInt32) -> String {
    String(unsafeUninitializedCapacity: 8) { buffer in
      for index in 0..<8 {
        let digit = UInt8(truncatingIfNeeded: value >> UInt32(28 - 4 * index)) & 0xF
        buffer[index] = digit < 10 ? 0x30 + digit : 0x57 + digit
      }
      return 8
    }
  }

  // MARK: Read-only views

  /// The document the session runs.
  public var document: FlowDocument { context.document }
  /// The configuration it started with.
  public var config: SessionConfig {
    var config = context.settings
    config.userID = user.id
    config.traits = user.traits
    config.variantOverrides = user.variantOverrides
    config.sessionID = user.givenSessionID
    return config
  }
  /// The session id of every event.
  public var sessionID: String { context.sessionID(of: user) }
  /// The start time, epoch milliseconds.
  public var startTime: Int64 { context.startTime }
  /// Experiment id → variant id.
  public var variants: OrderedDictionary<String, String> { context.variants }
  /// The masking policy of this document's secret fields (never revealing): what every edge
  /// that shows a value uses. The session itself keeps and compares the real values.
  public var secrets: SecretPolicy { context.secrets }

  /// `ended != nil` and `pending != nil` without copying the optionals (`== nil` on an
  /// `Equatable` optional builds and destroys a pair of copies).
  var hasEnded: Bool { if case .none = ended { false } else { true } }
  public var isPending: Bool { if case .none = pending { false } else { true } }

  /// Where the session stands.
  public var status: SessionStatus {
    if let ended { return ended }
    if let pending { return .awaiting(pending) }
    return .running
  }

  /// The flow of the current screen.
  public var currentFlow: Flow { context.document.flows[frame.flow] }
  /// The current screen (after the session ended: the last one).
  public var currentScreen: Screen {
    // Read in place: through `currentFlow` it copied every field of the flow first.
    context.document.flows.withUnsafeBufferPointer { $0[frame.flow].screens[frame.screen] }
  }
  /// `currentScreen.id`, `currentFlow.id` and `currentScreen.name` without copying the models.
  public var currentScreenID: String { context.document.flows[frame.flow].screens[frame.screen].id }
  public var currentFlowID: String { context.document.flows[frame.flow].id }
  var currentScreenName: String { context.document.flows[frame.flow].screens[frame.screen].name }

  /// The current screen's number among all the document's screens (flows in order, each flow's
  /// screens in order: `FlowDocument.screenOffsets`), read without touching the models.
  public var screenNumber: Int { context.screenBase[frame.flow] + frame.screen }
  /// The current screen's 0-based position in its flow's order.
  public var currentScreenIndex: Int { frame.screen }
  /// The current flow's position in `document.flows`.
  public var currentFlowIndex: Int { frame.flow }
  /// Whether the current screen has been shown (false only while an `onEnter` is deciding).
  public var isCurrentScreenShown: Bool { shown }

  /// How many screens `back` can return to (`history.count`, without building the list).
  public var historyDepth: Int { backStack.count }

  /// The back stack: the screens `back` returns to, oldest first.
  public var history: [ScreenRef] {
    backStack.map {
      ScreenRef(
        flowID: context.document.flows[$0.frame.flow].id,
        screenID: context.document.flows[$0.frame.flow].screens[$0.frame.screen].id)
    }
  }

  /// The flow screens the current sub-flow runs inside, outermost first.
  public var subflowStack: [ScreenRef] {
    callStack.map {
      ScreenRef(
        flowID: context.document.flows[$0.flow].id,
        screenID: context.document.flows[$0.flow].screens[$0.screen].id)
    }
  }

  /// The flow screens of `subflowStack` as indices into `document.flows` and that flow's
  /// `screens`, outermost first (no ids looked up or copied: state keys of explorers).
  public var subflowScreenIndices: [(flow: Int, screen: Int)] {
    callStack.map { ($0.flow, $0.screen) }
  }

  /// `subflowScreenIndices.last` without building the list.
  public var innermostSubflowIndices: (flow: Int, screen: Int)? {
    callStack.last.map { ($0.flow, $0.screen) }
  }

  /// How many sub-flows the session is inside (`subflowStack.count` without building it).
  public var subflowDepth: Int { callStack.count }

  /// The flow screen the current sub-flow returns to (`subflowStack.last` without building it).
  public var innermostSubflowScreen: ScreenRef? {
    callStack.last.map {
      ScreenRef(
        flowID: context.document.flows[$0.flow].id,
        screenID: context.document.flows[$0.flow].screens[$0.screen].id)
    }
  }

  /// The last decision of the trace.
  public var lastDecision: Decision? { trace.last }

  /// The last decision about leaving a screen (what `:why` shows).
  public var lastBranchDecision: Decision? { trace.last { $0.kind == .leave } }

  /// The names templates and conditions read, as of now.
  public var templateEnvironment: EngineEnvironment {
    var context: [String: Value] = [:]
    context.reserveCapacity(7)
    context["$screen"] = .string(currentScreen.id)
    context["$flow"] = .string(currentFlow.id)
    if let previous = backStack.last {
      context["$previous"] = .string(self.context.document.flows[previous.frame.flow].screens[previous.frame.screen].id)
    } else {
      context["$previous"] = .null
    }
    context["$user"] = user.value
    context["$variant"] = self.context.variantValue
    context["$platform"] = .string(self.context.settings.platform)
    context["$locale"] = .string(self.context.settings.locale)
    return EngineEnvironment(fields: fields, context: context)
  }

  /// The names templates and conditions read, resolved on demand (what the engine uses).
  /// It reads the context without retaining it: use it within the call that made it, never
  /// store or return it.
  var environment: SessionEnvironment {
    SessionEnvironment(data: fields, context: context, user: user, frame: frame, previous: backStack.last?.frame)
  }

  /// A template's text as of now.
  public func render(_ template: TextTemplate) -> String {
    EngineExpressions.render(template, in: environment)
  }

  /// Whether a block of the current screen is visible (`visible` and `visibleWhen`).
  public func isVisible(_ block: Block) -> Bool {
    isVisible(block, in: environment)
  }

  func isVisible(_ block: Block, in environment: SessionEnvironment) -> Bool {
    guard block.visible else { return false }
    guard let condition = block.visibleWhen else { return true }
    return EngineExpressions.holds(condition, in: environment)
  }

  /// Whether `blocks[index]` is visible, read in place. The engine walks blocks through buffer
  /// pointers: an `Array` subscript returns a copy of the whole `Block` (every field retained and
  /// released) even to read one property.
  func isVisible(
    blockAt index: Int, of blocks: UnsafeBufferPointer<Block>, in environment: SessionEnvironment
  )
    -> Bool
  {
    guard blocks[index].visible else { return false }
    guard let condition = blocks[index].visibleWhen else { return true }
    return EngineExpressions.holds(condition, in: environment)
  }

  /// `isVisible(blockAt:of:in:)` building the environment only for a block with a condition
  /// (building one retains the data's storage).
  func isVisible(blockAt index: Int, of blocks: UnsafeBufferPointer<Block>) -> Bool {
    guard blocks[index].visible else { return false }
    guard let condition = blocks[index].visibleWhen else { return true }
    return EngineExpressions.holds(condition, in: environment)
  }

  /// The current screen's flat blocks as the document has them: what an `onBeforeStepRender`
  /// override changes (`StepOverride.applied`: the texts of text blocks) never collects a
  /// field, validates, holds a default or changes a block's place or visibility, so the
  /// engine reads fields, defaults and validation from these (and from the document's tables,
  /// built from the same blocks), with or without an override. Empty for legacy screens.
  var documentBlocks: [Block] {
    let screen = context.document.flows.withUnsafeBufferPointer { $0[frame.flow].screens[frame.screen] }
    return screen.content.usesBlocks ? screen.content.flatBlocks : []
  }

  /// The current screen's flat blocks (empty for legacy screens).
  var currentBlocks: [Block] {
    // The screen (one reference) read in place: `let content = ….content` copied the whole
    // `ScreenContent` three times per input.
    let screen = context.document.flows.withUnsafeBufferPointer { $0[frame.flow].screens[frame.screen] }
    guard screen.content.usesBlocks else { return [] }
    guard !overrides.isEmpty, let override = overrides[screen.id] else { return screen.content.flatBlocks }
    return override.applied(to: screen.content.flatBlocks)
  }

  /// The current screen's visible blocks, flat (scroll-container children in place), in reading
  /// order. Empty for legacy screens.
  public var visibleBlocks: [Block] {
    let blocks = currentBlocks
    guard !blocks.isEmpty else { return [] }
    let environment = environment
    return blocks.filter { isVisible($0, in: environment) }
  }

  /// The numbered controls of the current screen — the single source of truth for numbering.
  /// See `ActionEntry`.
  public var actions: [ActionEntry] { actions(renderingLabels: true) }

  /// `actions`, with every label left empty when `renderingLabels` is false: a caller that only
  /// needs the numbers, ids, actions and kinds (the simulator) spares rendering each label.
  public func actions(renderingLabels: Bool) -> [ActionEntry] {
    var entries: [ActionEntry] = []
    actions(renderingLabels: renderingLabels, into: &entries)
    return entries
  }

  /// `actions(renderingLabels:)` into a caller's array (emptied first), so a caller that lists
  /// the controls on every screen (the simulator) reuses one array.
  public func actions(renderingLabels: Bool, into entries: inout [ActionEntry]) {
    entries.removeAll(keepingCapacity: true)
    let environment = environment
    forEachControl(in: environment) { control in
      entries.append(renderingLabels ? control.entry(in: environment) : control.unlabelledEntry)
      return true
    }
    // `onBeforeStepRender`'s `ctaText` names the step's button.
    if !overrides.isEmpty, let text = overrides[currentScreenID]?.ctaText,
      let cta = currentBlocks.first(where: StepOverride.isButton),
      let index = entries.firstIndex(where: { $0.blockID == cta.id })
    {
      entries[index].label = text
    }
  }

  /// Calls `body` with each numbered control of the current screen in order (labels not rendered)
  /// until it returns false. The order is the one of `actions`.
  func forEachControl(in environment: SessionEnvironment, _ body: (Control) -> Bool) {
    // The closure holds the screen, not `self`: capturing the session copied it whole per call.
    let screen = currentScreen
    forEachControlSlot(in: environment) { body(Self.control(at: $0, on: screen)) }
  }

  /// The current screen's numbered controls as slots, in the order of `actions` (a caller's
  /// array, emptied first): what a caller that weighs controls by place (the simulator) reads
  /// instead of `actions`, which copies each control's label, id and action out.
  public func controlSlots(into slots: inout [ControlSlot]) {
    slots.removeAll(keepingCapacity: true)
    forEachControlSlot(in: nil) { slot in
      slots.append(slot)
      return true
    }
  }

  /// The one walk over the current screen's controls: calls `body` with each slot in order
  /// until it returns false. Nothing is copied out of the blocks. Without an `environment`
  /// one is built only for a control with a condition.
  func forEachControlSlot(in environment: SessionEnvironment?, _ body: (ControlSlot) -> Bool) {
    // The screen read in place (one reference): `flows[frame.flow]` copied the whole flow.
    Self.forEachControlSlot(
      of: currentScreen, hostDeclined: hostDeclined,
      isVisible: { index, blocks in
        if let environment {
          isVisible(blockAt: index, of: blocks, in: environment)
        } else {
          isVisible(blockAt: index, of: blocks)
        }
      }, body)
  }

  /// The walk over `screen`'s controls, a block's visibility given by `isVisible` (its index
  /// and the screen's flat blocks).
  static func forEachControlSlot(
    of screen: Screen, hostDeclined: Bool, isVisible: (Int, UnsafeBufferPointer<Block>) -> Bool,
    _ body: (ControlSlot) -> Bool
  ) {
    var number = 0
    if screen.content.usesBlocks {
      let stopped = screen.content.flatBlocks.withUnsafeBufferPointer { blocks in
        for index in blocks.indices {
          guard blocks[index].content.isControl, isVisible(index, blocks) else { continue }
          number += 1
          guard body(ControlSlot(number: number, block: index, kind: .button)) else { return true }
        }
        return false
      }
      if stopped { return }
    } else if (screen.kind != .native || hostDeclined) && screen.kind != .flow {
      number += 1
      guard body(ControlSlot(number: number, block: -1, kind: .legacyButton)) else { return }
    }
    if screen.content.skipText != nil {
      number += 1
      _ = body(ControlSlot(number: number, block: -1, kind: .skip))
    }
  }

  /// `controlSlots(into:)` of a session on `screen` when no state of the session changes them
  /// (no control block shown under a `visibleWhen`, and not a legacy native screen, whose button
  /// depends on the host): a caller that presses controls on every screen (the simulator) lists
  /// them once per screen. nil when they depend on the session.
  public static func fixedControlSlots(of screen: Screen) -> [ControlSlot]? {
    if screen.content.usesBlocks {
      guard !screen.content.flatBlocks.contains(where: { $0.content.isControl && $0.visibleWhen != nil }) else {
        return nil
      }
    } else if screen.kind == .native {
      return nil
    }
    var slots: [ControlSlot] = []
    forEachControlSlot(of: screen, hostDeclined: false, isVisible: { $1[$0].visible }) { slot in
      slots.append(slot)
      return true
    }
    return slots
  }

  /// What pressing a slot's control of the current screen does (the block's action read in
  /// place, nothing else copied).
  func action(at slot: ControlSlot) -> Action {
    let screen = currentScreen
    switch slot.kind {
    case .button:
      return screen.content.flatBlocks.withUnsafeBufferPointer { blocks in
        // `forEachControlSlot` gives only blocks whose content is a control.
        guard case .button(let button) = blocks[slot.block].content else {
          preconditionFailure("control slot \(slot.number) is not a button")
        }
        return button.action
      }
    case .legacyButton: return screen.content.buttonAction
    case .skip: return .skip
    }
  }

  /// The control a slot of `screen` (the current screen) stands for (label not rendered).
  static func control(at slot: ControlSlot, on screen: Screen) -> Control {
    switch slot.kind {
    case .button:
      return screen.content.flatBlocks.withUnsafeBufferPointer { blocks in
        // `forEachControlSlot` gives only blocks whose content is a control.
        let control = blocks[slot.block].content.control!
        return Control(
          number: slot.number, text: control.label, blockID: blocks[slot.block].id, action: control.action,
          kind: .button)
      }
    case .legacyButton:
      return Control(
        number: slot.number, text: screen.content.buttonText, blockID: nil, action: screen.content.buttonAction,
        kind: .legacyButton)
    case .skip:
      return Control(number: slot.number, text: screen.content.skipText!, blockID: nil, action: .skip, kind: .skip)
    }
  }

  /// A block's current value: collected data, else its default (`BlockContent.fieldDefault`);
  /// nil when it has none.
  public func value(of block: Block) -> Value? {
    guard let field = block.fieldName else { return nil }
    if let value = fields[field] { return value }
    return block.content.fieldDefault
  }

  /// The current value of a field of the current screen (see `value(of:)`), else collected data.
  public func value(ofField field: String) -> Value? {
    if let block = context.document.flows[frame.flow].screens[frame.screen].content.flatBlocks.first(where: {
      $0.fieldName == field
    }) {
      return value(of: block)
    }
    return fields[field]
  }
}

/// A numbered control of the current screen by its place: its number, the block it is (an index
/// into the screen's `flatBlocks`; -1 for the legacy button and the skip control) and its kind.
public struct ControlSlot: Hashable, Sendable {
  public var number: Int
  public var block: Int
  public var kind: ActionEntry.Kind
}

extension BlockContent {
  /// `control != nil` without building the control (a copy of its label and action).
  var isControl: Bool { if case .button = self { true } else { false } }
}

/// A numbered control before its label is rendered (see `Session.forEachControl`).
struct Control {
  var number: Int
  var text: TextTemplate
  var blockID: String?
  var action: Action
  var kind: ActionEntry.Kind

  func entry(in environment: SessionEnvironment) -> ActionEntry {
    ActionEntry(
      number: number, label: EngineExpressions.render(text, in: environment), blockID: blockID, action: action,
      kind: kind)
  }

  /// The entry with an empty label (nothing rendered).
  var unlabelledEntry: ActionEntry {
    ActionEntry(number: number, label: "", blockID: blockID, action: action, kind: kind)
  }
}

extension Session: Equatable {
  /// Two sessions are equal when they share the document context, are the same user's and
  /// their states are equal.
  public static func == (lhs: Session, rhs: Session) -> Bool {
    lhs.context === rhs.context && SessionUser.same(lhs.user, rhs.user) && lhs.frame == rhs.frame
      && lhs.shown == rhs.shown
      && lhs.callStack == rhs.callStack && lhs.backStack == rhs.backStack && lhs.seen == rhs.seen
      && lhs.seq == rhs.seq && lhs.enteredAt == rhs.enteredAt && lhs.ended == rhs.ended
      && lhs.fields == rhs.fields && lhs.pending == rhs.pending && lhs.hostDeclined == rhs.hostDeclined
      && lhs.validationErrors == rhs.validationErrors && lhs.lastActionError == rhs.lastActionError
      && lhs.virtualNow == rhs.virtualNow && lhs.events == rhs.events && lhs.path == rhs.path
      && lhs.trace == rhs.trace && lhs.steps == rhs.steps && lhs.exposedExperiments == rhs.exposedExperiments
  }
}
