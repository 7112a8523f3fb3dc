import FlowExpression

/// A Nuxie profile payload's campaigns: who is shown which flow, when, how often, and what ends
/// the journey (docs/dialects/nuxie.md, "Campaigns"). Loaded by `CampaignLoader`; decided by
/// FlowEngine's `CampaignEngine`.
public struct CampaignSet: Sendable {
  public var campaigns: [Campaign]
  public var segments: [Segment]
  /// The ids of the flows the payload carries (`flows[].id`), or nil when it carries none: then
  /// every `flowId` is taken as presentable.
  public var flowIDs: [String]?

  public init(campaigns: [Campaign], segments: [Segment] = [], flowIDs: [String]? = nil) {
    self.campaigns = campaigns
    self.segments = segments
    self.flowIDs = flowIDs
  }
}

/// One campaign (era B keys).
public struct Campaign: Hashable, Sendable {
  public enum Trigger: Hashable, Sendable {
    /// An event of this name, with an optional condition over it.
    case event(name: String, condition: IREnvelope?)
    /// The user entering the segment condition (false → true).
    case segment(condition: IREnvelope)
  }

  /// How often one user may start a journey.
  public enum Reentry: Hashable, Sendable {
    case oneTime
    case everyTime
    /// At most once per window of this many seconds, counted from the last completion.
    case oncePerWindow(seconds: Int64)
  }

  public struct Goal: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
      /// An event of this name (the filter applied to it as the trigger event).
      case event(name: String, filter: IREnvelope?)
      case segmentEnter(String)
      case segmentLeave(String)
      case attribute(IREnvelope)
    }

    public var kind: Kind
    /// Seconds after the anchor; 0: unbounded.
    public var windowSeconds: Int64

    public init(kind: Kind, windowSeconds: Int64 = Goal.defaultWindowSeconds) {
      self.kind = kind
      self.windowSeconds = windowSeconds
    }

    /// 14 days, the SDK's default conversion window.
    public static let defaultWindowSeconds: Int64 = 1_209_600

    /// `event`, `segment_enter`, `segment_leave`, `attribute`.
    public var kindName: String {
      switch kind {
      case .event: "event"
      case .segmentEnter: "segment_enter"
      case .segmentLeave: "segment_leave"
      case .attribute: "attribute"
      }
    }
  }

  public enum ExitPolicy: String, Hashable, Sendable, CaseIterable {
    case onGoal = "on_goal"
    case onStopMatching = "on_stop_matching"
    case onGoalOrStop = "on_goal_or_stop"
    case never
  }

  public enum ConversionAnchor: String, Hashable, Sendable, CaseIterable {
    case journeyStart = "journey_start"
    case lastFlowShown = "last_flow_shown"
    case lastFlowInteraction = "last_flow_interaction"
  }

  public var id: String
  public var name: String
  public var flowID: String?
  public var trigger: Trigger
  public var reentry: Reentry
  public var goal: Goal?
  public var exitPolicy: ExitPolicy
  public var conversionAnchor: ConversionAnchor
  /// flowrun extension: an experiment whose holdout group never sees the campaign.
  public var holdoutExperiment: String?
  /// The journey expires this long after its start.
  public var timeLimitSeconds: Int64?
  /// flowrun extension: the flow is presented only inside this daily window (else deferred to
  /// its next opening), in `timeWindowZone` (nil: the command's `--timezone`).
  public var timeWindow: TimeWindow?
  public var timeWindowZone: String?
  public var location: SourceLocation?

  public init(
    id: String, name: String? = nil, flowID: String?, trigger: Trigger, reentry: Reentry = .everyTime,
    goal: Goal? = nil, exitPolicy: ExitPolicy = .never, conversionAnchor: ConversionAnchor = .lastFlowShown,
    holdoutExperiment: String? = nil, timeLimitSeconds: Int64? = nil, timeWindow: TimeWindow? = nil,
    timeWindowZone: String? = nil, location: SourceLocation? = nil
  ) {
    self.id = id
    self.name = name ?? id
    self.flowID = flowID
    self.trigger = trigger
    self.reentry = reentry
    self.goal = goal
    self.exitPolicy = exitPolicy
    self.conversionAnchor = conversionAnchor
    self.holdoutExperiment = holdoutExperiment
    self.timeLimitSeconds = timeLimitSeconds
    self.timeWindow = timeWindow
    self.timeWindowZone = timeWindowZone
    self.location = location
  }

  public var isSegmentTriggered: Bool {
    if case .segment = trigger { return true }
    return false
  }
}

/// A segment the client evaluates: the user is a member while its condition is true.
public struct Segment: Hashable, Sendable {
  public var id: String
  public var name: String
  public var condition: IREnvelope

  public init(id: String, name: String? = nil, condition: IREnvelope) {
    self.id = id
    self.name = name ?? id
    self.condition = condition
  }
}
