import FlowExpression
import FlowFormat
import OrderedCollections

/// What the campaign reducer decides with, and does not change: the campaigns, segments and
/// the calendar (`--timezone`).
public struct CampaignWorld: Sendable {
  public var set: CampaignSet
  public var calendar: ZonedCalendar
  /// Presentations are deferred this long after the app returns to the foreground (doc 004:
  /// "under one second"; the SDK waits 0.75 s).
  public var graceMs: Int64 = 750
  /// Emitted events processed per input before the reducer stops a loop with an error.
  public var eventBudget = 10_000
  /// `--ios-quirks`: what the iOS SDK does where it differs from document 004 — a replaced
  /// flow's journey stays live (its window only closes), `$flow_shown` twice, segment campaigns
  /// start on any membership change while their condition holds (level, not edge), and the
  /// event that starts a journey also reaches it (goals).
  public var iosQuirks = false

  public init(set: CampaignSet, calendar: ZonedCalendar = ZonedCalendar()) {
    self.set = set
    self.calendar = calendar
  }
}

/// One enrollment of the user in one campaign.
public struct Journey: Hashable, Sendable {
  public enum TriggerKind: String, Hashable, Sendable { case event, segment }

  /// Why a presentation waits, and until when (nil: until the app is opened).
  public struct Deferral: Hashable, Sendable {
    public var until: Int64?
    public var reason: String
  }

  public var id: String
  public var campaignID: String
  public var flowID: String
  public var trigger: TriggerKind
  public var startedAt: Int64
  /// The conversion window's start (re-stamped at each presentation for `last_flow_shown`).
  public var anchorAt: Int64
  public var convertedAt: Int64?
  public var isPresented = false
  public var deferral: Deferral?
  /// Set while the journey ends (`dismissed`, `goal_met`, `trigger_unmatched`, `expired`, …),
  /// just before it leaves the state.
  public var exitReason: String?

  public var isLive: Bool { exitReason == nil }
}

/// The terminal result of a journey (the SDK's `TriggerHandle` `.journey` update).
public struct JourneyUpdate: Hashable, Sendable {
  public var journeyID: String
  public var campaignID: String
  public var flowID: String
  public var exitReason: String
  public var goalMet: Bool
  public var goalMetAt: Int64?
  public var durationSeconds: Double
  /// How the flow closed (`user`, `replaced`), or nil when it was not presented.
  public var flowExitReason: String?
}

/// The simulated user and device over time: facts, foreground, journeys, completions.
public struct CampaignState: Sendable {
  public var facts: Facts
  public var experiments: [String: Profile.Assignment]
  /// Server-mode memberships stay as the profile says; client mode evaluates segments.
  public var serverSegments: Bool
  public var foreground = true
  public var graceUntil: Int64?
  public var journeys: [Journey] = []
  public var completions: [Profile.Completion]
  /// Each segment-triggered campaign's trigger truth at its last evaluation (edges start journeys).
  public var segmentTriggerTruth: [String: Bool] = [:]
  public var presentedJourney: String? { journeys.first { $0.isPresented && $0.isLive }?.id }
  public var nextJourney = 1

  public var now: Int64 { facts.now }

  public init(profile: Profile, now: Int64, calendar: ZonedCalendar) {
    facts = Facts(
      now: now, userProperties: profile.userProperties, propertiesComplete: profile.factsComplete,
      historyCoverageStart: profile.historyCoverageStart, segments: profile.memberships ?? [:],
      segmentsComplete: true, features: profile.features, calendar: calendar)
    experiments = profile.experiments
    serverSegments = profile.memberships != nil
    completions = profile.completions
  }

  public var liveJourneys: Int { journeys.count { $0.isLive } }
}

/// A campaign reducer input: a timeline line or the clock moving on.
public enum CampaignInput: Hashable, Sendable {
  case track(HistoryEvent)
  /// The user (or host) closed the presented flow; the reason is the dismiss method.
  case dismiss(reason: String, at: Int64)
  case profile([String: Value], at: Int64)
  /// The server says which segments hold the user now (server mode from then on).
  case memberships([String], at: Int64)
  /// The clock moves to this instant (timers fire), nothing else happens.
  case advance(to: Int64)

  public var time: Int64 {
    switch self {
    case .track(let event): event.time
    case .dismiss(_, let at), .profile(_, let at), .memberships(_, let at), .advance(let at): at
    }
  }
}

/// One step of a decision's explanation: `reentry  once_per_window 1d: last completion … → reentryLimited`.
public struct CampaignClause: Hashable, Sendable {
  public var name: String
  public var detail: String
  /// `true`, `false`, `unknown`, `pass`, or the decision it led to.
  public var result: String

  public init(_ name: String, _ detail: String, _ result: String) {
    self.name = name
    self.detail = detail
    self.result = result
  }

  /// A condition's clause: its source and the facts read, then its truth (and why it fails
  /// closed, when unknown).
  public init(_ name: String, _ trace: TruthTrace, result: String? = nil) {
    let reads = trace.reads.map { $0.path + "=" + ($0.value?.description ?? "(missing)") }.joined(separator: ", ")
    self.name = name
    detail = trace.source + (reads.isEmpty ? "" : "   " + reads)
    self.result = result ?? (trace.truth.rawValue + (trace.note.map { " (\($0))" } ?? ""))
  }
}

/// What one campaign decided about one event (or segment change, or timer).
public struct CampaignDecision: Hashable, Sendable {
  public enum Verdict: Hashable, Sendable {
    case notMatched
    /// `alreadyActive`, `reentryLimited`, `holdout`, `noFlow`.
    case suppressed(String)
    case journeyStarted(String)
    /// A deferred presentation came due (timer), or was deferred again.
    case presentation(String)
  }

  /// What happened to the flow of a started journey.
  public enum Presentation: Hashable, Sendable {
    /// Shown; the journey whose flow it replaced, if any.
    case flowShown(replaced: String?)
    case deferred(until: Int64?, reason: String)
  }

  public var campaignID: String
  public var trigger: Journey.TriggerKind
  /// The event the decision was made for (an emitted event's name when not the input's).
  public var eventName: String
  public var verdict: Verdict
  public var presentation: Presentation?
  public var clauses: [CampaignClause]

  /// Started or suppressed: a decision that counts against `noMatch`.
  public var isMatch: Bool {
    switch verdict {
    case .notMatched, .presentation: false
    case .suppressed, .journeyStarted: true
    }
  }
}

/// Everything one input led to, in order.
public struct CampaignOutcome: Hashable, Sendable {
  public enum Cause: Hashable, Sendable {
    case event(HistoryEvent)
    case dismiss(reason: String)
    case profile([String: Value])
    /// New server memberships: the segments entered and exited.
    case memberships(entered: [String], exited: [String])
    case timer
  }

  public var at: Int64
  public var cause: Cause
  public var decisions: [CampaignDecision] = []
  /// Events the campaign layer emitted (`$journey_start`, `$flow_shown`, …), in order.
  public var events: [HistoryEvent] = []
  public var updates: [JourneyUpdate] = []
  public var errors: [String] = []

  /// The input event matched no campaign (nothing started or suppressed for it).
  public var noMatch: Bool {
    guard case .event(let event) = cause else { return false }
    return !decisions.contains { $0.isMatch && $0.eventName == event.name }
  }
}
