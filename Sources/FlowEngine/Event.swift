import FlowExpression
import OrderedCollections

/// The event types of session.md, spelled as the Sequence SDK sends them, then AppDNA's
/// (document 001), which an AppDNA flow's session sends instead (`EventVocabulary`).
public enum EventType: String, Hashable, Sendable, CaseIterable {
  case onboardingStarted = "onboarding_started"
  case experimentVariantAssigned = "experiment_variant_assigned"
  case screenViewed = "screen_viewed"
  case screenFirstViewed = "screen_first_viewed"
  case buttonTapped = "button_tapped"
  case validationFailed = "validation_failed"
  case actionRequested = "action_requested"
  case actionResult = "action_result"
  case screenSkipped = "screen_skipped"
  case screenCompleted = "screen_completed"
  case screenDroppedOff = "screen_dropped_off"
  case onboardingDismissed = "onboarding_dismissed"
  case onboardingCompleted = "onboarding_completed"
  case experimentExposure = "experiment_exposure"
  case onboardingFlowStarted = "onboarding_flow_started"
  case onboardingStepViewed = "onboarding_step_viewed"
  case onboardingStepCompleted = "onboarding_step_completed"
  case onboardingStepSkipped = "onboarding_step_skipped"
  case onboardingFlowCompleted = "onboarding_flow_completed"
  case onboardingFlowDismissed = "onboarding_flow_dismissed"
  case flowCompletedViaFallback = "flow_completed_via_fallback"
  /// A host hook was asked (`Output.hookRequested`, or answered at once by a mock).
  case hookStarted = "onboarding_hook_started"
  /// A host hook answered; `result` says how.
  case hookCompleted = "onboarding_hook_completed"
  /// A step's server webhook failed an attempt and tries again.
  case hookRetry = "onboarding_hook_retry"
  /// A step's server webhook failed its last attempt.
  case hookError = "onboarding_hook_error"
  /// A flow's own event (an AppDNA analytics node); `Event.eventType` is the name it gives.
  case flowEvent = "onboarding_analytics"
  /// Nuxie's (research §3, era B): a Nuxie flow's session sends these instead.
  case flowShown = "$flow_shown"
  case screenShown = "$screen_shown"
  case screenDismissed = "$screen_dismissed"
  case flowDismissed = "$flow_dismissed"
  case journeyCompleted = "$journey_completed"
}

/// One analytics event: the envelope of session.md plus its properties.
///
/// Stored behind one copy-on-write reference (events are copied into outputs and `events`, so a
/// copy costs one retain), with the properties of the frequent events kept as fixed fields and
/// built as an ordered object only when read.
public struct Event: Hashable, Sendable {
  /// The properties as the engine recorded them.
  enum Properties: Sendable, ExpressibleByDictionaryLiteral {
    init(dictionaryLiteral elements: (String, Value)...) {
      self = .object(OrderedDictionary(uniqueKeysWithValues: elements))
    }

    case object(OrderedDictionary<String, Value>)
    /// `screen_name` only (`screen_viewed`, `screen_first_viewed`, `screen_skipped`).
    case screenName(String)
    /// `screen_completed`.
    case screenCompleted(name: String, nextScreenID: String?, durationMs: Int64)
    /// `button_tapped`.
    case buttonTapped(id: String, text: String, action: String)

    var object: OrderedDictionary<String, Value> {
      switch self {
      case .object(let object):
        return object
      case .screenName(let name):
        return OrderedDictionary(uncheckedUniqueKeys: ["screen_name"], values: [.string(name)])
      case .screenCompleted(let name, let next, let duration):
        return OrderedDictionary(
          uncheckedUniqueKeys: ["screen_name", "next_screen_id", "duration_ms"],
          values: [.string(name), next.map(Value.string) ?? .null, .number(Double(duration))])
      case .buttonTapped(let id, let text, let action):
        return OrderedDictionary(
          uncheckedUniqueKeys: ["button_id", "button_text", "action"],
          values: [.string(id), .string(text), .string(action)])
      }
    }

    func value(_ key: String) -> Value? {
      switch self {
      case .object(let object):
        return object[key]
      case .screenName(let name):
        return key == "screen_name" ? .string(name) : nil
      case .screenCompleted(let name, let next, let duration):
        switch key {
        case "screen_name": return .string(name)
        case "next_screen_id": return next.map(Value.string) ?? .null
        case "duration_ms": return .number(Double(duration))
        default: return nil
        }
      case .buttonTapped(let id, let text, let action):
        switch key {
        case "button_id": return .string(id)
        case "button_text": return .string(text)
        case "action": return .string(action)
        default: return nil
        }
      }
    }
  }

  /// The envelope fields that are the same for every event of a session (or of one variant
  /// assignment): shared, so building an event retains one reference instead of four strings.
  final class Shared: Sendable {
    let sessionID: String
    let userID: String
    let experimentID: String?
    let variantID: String?

    init(sessionID: String, userID: String, experimentID: String?, variantID: String?) {
      self.sessionID = sessionID
      self.userID = userID
      self.experimentID = experimentID
      self.variantID = variantID
    }
  }

  final class Storage: @unchecked Sendable {
    // Mutated only through `Event.update`, which copies a shared storage first.
    var seq: Int
    var type: EventType
    var time: Int64
    var shared: Shared
    var flowID: String
    var screenID: String?
    var screenIndex: Int?
    var properties: Properties
    /// The name a `flowEvent` was given (nil: the type's).
    var name: String?

    init(
      seq: Int, type: EventType, time: Int64, shared: Shared, flowID: String, screenID: String?, screenIndex: Int?,
      properties: Properties, name: String? = nil
    ) {
      self.name = name
      self.seq = seq
      self.type = type
      self.time = time
      self.shared = shared
      self.flowID = flowID
      self.screenID = screenID
      self.screenIndex = screenIndex
      self.properties = properties
    }

    func copy() -> Storage {
      Storage(
        seq: seq, type: type, time: time, shared: shared, flowID: flowID, screenID: screenID,
        screenIndex: screenIndex, properties: properties, name: name)
    }
  }

  private var storage: Storage

  private mutating func update(_ body: (Storage) -> Void) {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    body(storage)
  }

  private mutating func updateShared(
    sessionID: String? = nil, userID: String? = nil, experimentID: String?? = nil, variantID: String?? = nil
  ) {
    update {
      let old = $0.shared
      $0.shared = Shared(
        sessionID: sessionID ?? old.sessionID, userID: userID ?? old.userID,
        experimentID: experimentID ?? old.experimentID, variantID: variantID ?? old.variantID)
    }
  }

  /// 1-based, strictly increasing within a session.
  public var seq: Int {
    get { storage.seq }
    set { update { $0.seq = newValue } }
  }
  public var type: EventType {
    get { storage.type }
    set { update { $0.type = newValue } }
  }
  /// Epoch milliseconds of the virtual clock.
  public var time: Int64 {
    get { storage.time }
    set { update { $0.time = newValue } }
  }
  public var sessionID: String {
    get { storage.shared.sessionID }
    set { updateShared(sessionID: newValue) }
  }
  public var userID: String {
    get { storage.shared.userID }
    set { updateShared(userID: newValue) }
  }
  public var flowID: String {
    get { storage.flowID }
    set { update { $0.flowID = newValue } }
  }
  public var screenID: String? {
    get { storage.screenID }
    set { update { $0.screenID = newValue } }
  }
  /// 0-based position of the screen in its flow's order.
  public var screenIndex: Int? {
    get { storage.screenIndex }
    set { update { $0.screenIndex = newValue } }
  }
  public var experimentID: String? {
    get { storage.shared.experimentID }
    set { updateShared(experimentID: .some(newValue)) }
  }
  public var variantID: String? {
    get { storage.shared.variantID }
    set { updateShared(variantID: .some(newValue)) }
  }
  public var properties: OrderedDictionary<String, Value> {
    get { storage.properties.object }
    set { update { $0.properties = .object(newValue) } }
  }

  public init(
    seq: Int, type: EventType, time: Int64, sessionID: String, userID: String, flowID: String,
    screenID: String?, screenIndex: Int?, experimentID: String?, variantID: String?,
    properties: OrderedDictionary<String, Value>
  ) {
    self.init(
      seq: seq, type: type, time: time,
      shared: Shared(sessionID: sessionID, userID: userID, experimentID: experimentID, variantID: variantID),
      flowID: flowID, screenID: screenID, screenIndex: screenIndex, payload: .object(properties))
  }

  init(
    seq: Int, type: EventType, time: Int64, shared: Shared, flowID: String, screenID: String?, screenIndex: Int?,
    payload: Properties, name: String? = nil
  ) {
    storage = Storage(
      seq: seq, type: type, time: time, shared: shared, flowID: flowID, screenID: screenID,
      screenIndex: screenIndex, properties: payload, name: name)
  }

  public static func == (lhs: Event, rhs: Event) -> Bool {
    if lhs.storage === rhs.storage { return true }
    let l = lhs.storage
    let r = rhs.storage
    return l.seq == r.seq && l.type == r.type && l.name == r.name && l.time == r.time && lhs.sessionID == rhs.sessionID
      && lhs.userID == rhs.userID && l.flowID == r.flowID && l.screenID == r.screenID
      && l.screenIndex == r.screenIndex && lhs.experimentID == rhs.experimentID && lhs.variantID == rhs.variantID
      && l.properties.object == r.properties.object
  }

  public func hash(into hasher: inout Hasher) {
    let s = storage
    hasher.combine(s.seq)
    hasher.combine(s.type)
    hasher.combine(s.name)
    hasher.combine(s.time)
    hasher.combine(s.shared.sessionID)
    hasher.combine(s.shared.userID)
    hasher.combine(s.flowID)
    hasher.combine(s.screenID)
    hasher.combine(s.screenIndex)
    hasher.combine(s.shared.experimentID)
    hasher.combine(s.shared.variantID)
    hasher.combine(s.properties.object)
  }

  /// One property, or nil when absent.
  public func property(_ key: String) -> Value? { storage.properties.value(key) }

  /// `event_type`.
  public var eventType: String { storage.name ?? type.rawValue }

  /// ISO-8601 UTC with milliseconds: `2026-01-01T00:00:00.000Z`.
  public var timestamp: String { Timestamp.iso8601(milliseconds: time) }

  /// The envelope as an ordered object (keys in session.md's order; absent optionals omitted),
  /// ready to be written as one NDJSON line.
  public var value: Value {
    var object: OrderedDictionary<String, Value> = [:]
    object.reserveCapacity(11)
    object["seq"] = .number(Double(seq))
    object["event_type"] = .string(eventType)
    object["timestamp"] = .string(timestamp)
    object["session_id"] = .string(sessionID)
    object["user_id"] = .string(userID)
    object["flow_id"] = .string(flowID)
    if let screenID { object["screen_id"] = .string(screenID) }
    if let screenIndex { object["screen_index"] = .number(Double(screenIndex)) }
    if let experimentID { object["experiment_id"] = .string(experimentID) }
    if let variantID { object["variant_id"] = .string(variantID) }
    object["properties"] = .object(properties)
    return .object(object)
  }
}

/// Formats and reads virtual-clock times without Foundation.
public enum Timestamp {
  /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for epoch milliseconds (proleptic Gregorian, UTC).
  public static func iso8601(milliseconds: Int64) -> String { CivilTime.iso8601(milliseconds: milliseconds) }

  /// Epoch milliseconds for a UTC calendar time.
  public static func milliseconds(
    year: Int64, month: Int64, day: Int64, hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0,
    millisecond: Int64 = 0
  ) -> Int64 {
    let days = CivilTime.days(year: year, month: month, day: day)
    return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond
  }
}
