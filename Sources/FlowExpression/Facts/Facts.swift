/// Everything a Nuxie condition may read, at one instant: the user's properties, the event it
/// is evaluated with, the history, segment memberships, entitlements, the journey and its
/// collected responses, and the calendar.
///
/// Absent facts are known to be absent unless the profile says its facts are incomplete
/// (`factsComplete: false`): then an absent property or segment is unknown.
public struct Facts: Sendable {
  /// A segment membership: whether the user is in it, and since when (epoch ms) when known.
  public struct Membership: Hashable, Sendable {
    public var isMember: Bool
    public var enteredAt: Int64?
    public init(isMember: Bool, enteredAt: Int64? = nil) {
      self.isMember = isMember
      self.enteredAt = enteredAt
    }
  }

  /// An entitlement of the profile's `features`.
  public struct Feature: Hashable, Sendable {
    /// `boolean`, `metered` or `creditSystem`.
    public var type: String
    public var balance: Double?
    public var unlimited: Bool
    public init(type: String = "boolean", balance: Double? = nil, unlimited: Bool = false) {
      self.type = type
      self.balance = balance
      self.unlimited = unlimited
    }

    /// Whether the user has access: a boolean feature always, a metered one with credits left.
    public var grantsAccess: Bool { type == "boolean" || unlimited || (balance ?? 0) > 0 }
  }

  /// Virtual now, epoch milliseconds.
  public var now: Int64
  public var userProperties: [FactKey: Value]
  /// Whether a property absent from `userProperties` is known to be absent.
  public var propertiesComplete: Bool
  /// The event the condition is evaluated with (a trigger, a goal candidate).
  public var event: HistoryEvent?
  /// The history by event name, oldest first.
  public var history: [String: [HistoryEvent]]
  /// Events before this instant (epoch ms) are missing from the history; nil: it is complete.
  public var historyCoverageStart: Int64?
  public var segments: [FactKey: Membership]
  /// Whether a segment absent from `segments` is known not to hold the user.
  public var segmentsComplete: Bool
  public var features: [String: Feature]
  public var journeyID: String?
  /// Collected response fields (`Response.Field`).
  public var responses: [String: Value]
  public var calendar: ZonedCalendar

  public init(
    now: Int64, userProperties: [FactKey: Value] = [:], propertiesComplete: Bool = true, event: HistoryEvent? = nil,
    history: [String: [HistoryEvent]] = [:], historyCoverageStart: Int64? = nil,
    segments: [FactKey: Membership] = [:], segmentsComplete: Bool = true, features: [String: Feature] = [:],
    journeyID: String? = nil, responses: [String: Value] = [:], calendar: ZonedCalendar = ZonedCalendar()
  ) {
    self.now = now
    self.userProperties = userProperties
    self.propertiesComplete = propertiesComplete
    self.event = event
    self.history = history
    self.historyCoverageStart = historyCoverageStart
    self.segments = segments
    self.segmentsComplete = segmentsComplete
    self.features = features
    self.journeyID = journeyID
    self.responses = responses
    self.calendar = calendar
  }

  public func userProperty(_ key: String) -> Fact<Value> {
    if let value = userProperties[FactKey(key)] { return .known(value) }
    return propertiesComplete ? .absent : .unknown
  }

  public func segment(_ id: String) -> Fact<Membership> {
    if let membership = segments[FactKey(id)] { return .known(membership) }
    return segmentsComplete ? .known(Membership(isMember: false)) : .unknown
  }

  /// Adds `event` to the history (events arrive in time order).
  public mutating func record(_ event: HistoryEvent) {
    history[event.name, default: []].append(event)
  }
}
