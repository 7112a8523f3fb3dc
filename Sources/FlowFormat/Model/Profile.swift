import FlowExpression

/// The user a campaign timeline is simulated for (`--profile`): properties, experiment
/// assignments, server segment memberships, entitlements, past completions.
public struct Profile: Sendable {
  /// An experiment assignment (`status` `running`, `concluded`, …).
  public struct Assignment: Hashable, Sendable {
    public var experimentKey: String
    public var variantKey: String?
    public var status: String
    public var isHoldout: Bool

    public init(experimentKey: String, variantKey: String? = nil, status: String = "running", isHoldout: Bool = false) {
      self.experimentKey = experimentKey
      self.variantKey = variantKey
      self.status = status
      self.isHoldout = isHoldout
    }
  }

  /// A journey that ended before the timeline (feeds reentry).
  public struct Completion: Hashable, Sendable {
    public var campaignID: String
    /// Epoch milliseconds.
    public var completedAt: Int64
    public var exitReason: String

    public init(campaignID: String, completedAt: Int64, exitReason: String = "completed") {
      self.campaignID = campaignID
      self.completedAt = completedAt
      self.exitReason = exitReason
    }
  }

  public var distinctID: String
  public var userProperties: [FactKey: Value]
  public var factsComplete: Bool
  public var experiments: [String: Assignment]
  /// Server-mode memberships (authoritative when given); nil: segments are evaluated here.
  public var memberships: [FactKey: Facts.Membership]?
  public var features: [String: Facts.Feature]
  public var completions: [Completion]
  public var historyCoverageStart: Int64?

  public init(
    distinctID: String = "user", userProperties: [FactKey: Value] = [:], factsComplete: Bool = true,
    experiments: [String: Assignment] = [:], memberships: [FactKey: Facts.Membership]? = nil,
    features: [String: Facts.Feature] = [:], completions: [Completion] = [], historyCoverageStart: Int64? = nil
  ) {
    self.distinctID = distinctID
    self.userProperties = userProperties
    self.factsComplete = factsComplete
    self.experiments = experiments
    self.memberships = memberships
    self.features = features
    self.completions = completions
    self.historyCoverageStart = historyCoverageStart
  }
}

/// One line of a campaign timeline (`--events`): an event the app tracked, or a host action on
/// the presented flow (flowrun's own line kinds: `{"dismiss": "user"}`, `{"profile": {…}}`).
public struct TimelineEntry: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    case event(HistoryEvent)
    /// The user (or the host) closed the presented flow; the reason is the dismiss method.
    case dismiss(reason: String, at: Int64)
    /// User properties changed (`update_customer` from outside a flow).
    case profile([String: Value], at: Int64)
    /// The server's segment memberships (server mode): the segments the user is in now.
    case memberships([String], at: Int64)
  }

  public var kind: Kind
  /// 1-based line in the timeline file.
  public var line: Int

  public init(_ kind: Kind, line: Int) {
    self.kind = kind
    self.line = line
  }

  public var time: Int64 {
    switch kind {
    case .event(let event): event.time
    case .dismiss(_, let at), .profile(_, let at), .memberships(_, let at): at
    }
  }
}
