import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections
import Testing

/// The campaign decision procedure (docs/dialects/nuxie.md, design §2.5–§2.8): each scenario is
/// a timeline and, per input, the decisions, terminal results and emitted events it must give.
@Suite struct CampaignEngineTests {
  static let t0 = CivilTime.instant(iso8601: "2026-03-02T09:00:00Z")!.milliseconds
  static let second: Int64 = 1000
  static let hour: Int64 = 3_600_000

  enum Line {
    case event(String, Int64, [String: Value] = [:])
    case dismiss(Int64, String = "user")
    case profile(Int64, [String: Value])
    case advance(Int64)
  }

  static func checkout(_ id: String = "cmp_checkout", reentry: Campaign.Reentry = .everyTime) -> Campaign {
    Campaign(id: id, flowID: "paywall", trigger: .event(name: "checkout_started", condition: nil), reentry: reentry)
  }

  static let purchaseGoal = Campaign(
    id: "cmp_checkout", flowID: "paywall", trigger: .event(name: "checkout_started", condition: nil),
    goal: Campaign.Goal(kind: .event(name: "$purchase_completed", filter: nil), windowSeconds: 60), exitPolicy: .onGoal)

  static let trialCondition = IREnvelope(.user(.equal, key: "plan", value: .string("trial")))

  static func winback(exit: Campaign.ExitPolicy = .never, goal: Campaign.Goal? = nil) -> Campaign {
    Campaign(
      id: "cmp_winback", flowID: "winback", trigger: .segment(condition: trialCondition), reentry: .everyTime,
      goal: goal,
      exitPolicy: exit)
  }

  /// Runs `lines` and renders each outcome as one string: `@offset cause: decisions | ended … | events …`.
  static func run(
    _ campaigns: [Campaign], _ lines: [Line], profile: Profile = Profile(), flowIDs: [String]? = nil
  ) -> [String] {
    let world = CampaignWorld(set: CampaignSet(campaigns: campaigns, flowIDs: flowIDs))
    var state = CampaignState(profile: profile, now: t0, calendar: ZonedCalendar())
    var rendered: [String] = []
    for line in lines {
      let input: CampaignInput =
        switch line {
        case .event(let name, let at, let properties):
          .track(
            HistoryEvent(
              name: name, time: t0 + at, properties: .init(uniqueKeysWithValues: properties.sorted { $0.key < $1.key }))
          )
        case .dismiss(let at, let reason): .dismiss(reason: reason, at: t0 + at)
        case .profile(let at, let properties): .profile(properties, at: t0 + at)
        case .advance(let at): .advance(to: t0 + at)
        }
      let (next, outcomes) = CampaignEngine.step(state, input, world: world)
      state = next
      rendered += outcomes.map(render)
    }
    return rendered
  }

  static func render(_ outcome: CampaignOutcome) -> String {
    var parts: [String] = []
    for decision in outcome.decisions where decision.verdict != .notMatched {
      var text = decision.campaignID + " "
      switch decision.verdict {
      case .notMatched: break
      case .suppressed(let reason): text += "suppressed(\(reason))"
      case .journeyStarted(let id): text += "started \(id)"
      case .presentation(let id): text += "presentation \(id)"
      }
      switch decision.presentation {
      case .flowShown(let replaced)?: text += " shown" + (replaced.map { " replacing \($0)" } ?? "")
      case .deferred(let until, let reason)?:
        text += " deferred(\(reason)" + (until.map { " +\($0 - t0)ms" } ?? "") + ")"
      case nil: break
      }
      parts.append(text)
    }
    if outcome.noMatch { parts.append("noMatch") }
    for update in outcome.updates {
      parts.append(
        "ended \(update.journeyID) \(update.exitReason) goal=\(update.goalMet) flow=\(update.flowExitReason ?? "-")")
    }
    return "+\(outcome.at - t0): " + parts.joined(separator: "; ")
  }

  static let scenarios: [(String, [Campaign], [Line], Profile, [String]?, [String])] = [
    (
      "once per window: already active, then limited until the window has passed (exactly at it: allowed)",
      [checkout(reentry: .oncePerWindow(seconds: 86_400))],
      [
        .event("checkout_started", 0), .event("checkout_started", 2 * hour), .dismiss(3 * hour),
        .event("checkout_started", 6 * hour), .event("checkout_started", 27 * hour),
      ], Profile(), nil,
      [
        "+0: cmp_checkout started j1 shown", "+7200000: cmp_checkout suppressed(alreadyActive)",
        "+10800000: ended j1 dismissed goal=false flow=user", "+21600000: cmp_checkout suppressed(reentryLimited)",
        "+97200000: cmp_checkout started j2 shown",
      ]
    ),
    (
      "one_time: never again after a completion, also one from the profile",
      [checkout(reentry: .oneTime)], [.event("checkout_started", 0)],
      Profile(completions: [Profile.Completion(campaignID: "cmp_checkout", completedAt: t0 - 365 * 24 * hour)]), nil,
      ["+0: cmp_checkout suppressed(reentryLimited)"]
    ),
    (
      "every_time: again right after a completion",
      [checkout()], [.event("checkout_started", 0), .dismiss(1), .event("checkout_started", 2)], Profile(), nil,
      [
        "+0: cmp_checkout started j1 shown", "+1: ended j1 dismissed goal=false flow=user",
        "+2: cmp_checkout started j2 shown",
      ]
    ),
    (
      "holdout: the assignment's holdout group is suppressed",
      [
        Campaign(
          id: "cmp_checkout", flowID: "paywall", trigger: .event(name: "checkout_started", condition: nil),
          holdoutExperiment: "paywall_test")
      ], [.event("checkout_started", 0)],
      Profile(experiments: ["paywall_test": Profile.Assignment(experimentKey: "paywall_test", isHoldout: true)]), nil,
      ["+0: cmp_checkout suppressed(holdout)"]
    ),
    (
      "noFlow: the flow is not among the flows given", [checkout()], [.event("checkout_started", 0)], Profile(),
      ["onboarding"], ["+0: cmp_checkout suppressed(noFlow)"]
    ),
    (
      "a trigger condition with an unknown node fails closed: noMatch",
      [
        Campaign(
          id: "cmp_checkout", flowID: "paywall",
          trigger: .event(name: "checkout_started", condition: IREnvelope(.not(.unknown("Quantum.Entanglement")))))
      ], [.event("checkout_started", 0), .event("other", 1)], Profile(), nil, ["+0: noMatch", "+1: noMatch"]
    ),
    (
      "an event 300 ms after the app opens waits for the grace period, then shows",
      [checkout()], [.event("$app_opened", 0), .event("checkout_started", 300), .advance(2000)], Profile(), nil,
      [
        "+0: noMatch", "+300: cmp_checkout started j1 deferred(foregroundGracePeriod +750ms)",
        "+750: cmp_checkout presentation j1 shown",
      ]
    ),
    (
      "in the background the flow waits for the app to open, then for the grace period",
      [checkout()],
      [.event("$app_backgrounded", 0), .event("checkout_started", 10), .event("$app_opened", 5000), .advance(6000)],
      Profile(), nil,
      [
        "+0: noMatch", "+10: cmp_checkout started j1 deferred(appInBackground)", "+5000: noMatch",
        "+5750: cmp_checkout presentation j1 shown",
      ]
    ),
    (
      "one flow at a time: a new flow replaces the presented one, whose journey ends dismissed",
      [checkout(), Campaign(id: "cmp_promo", flowID: "promo", trigger: .event(name: "promo_seen", condition: nil))],
      [.event("checkout_started", 0), .event("promo_seen", 1000)], Profile(), nil,
      [
        "+0: cmp_checkout started j1 shown",
        "+1000: cmp_promo started j2 shown replacing j1; ended j1 dismissed goal=false flow=replaced",
      ]
    ),
    (
      "a goal met while presented defers the on_goal exit to the dismissal",
      [
        Campaign(
          id: "cmp_checkout", flowID: "paywall", trigger: .event(name: "checkout_started", condition: nil),
          goal: Campaign.Goal(kind: .event(name: "$purchase_completed", filter: nil), windowSeconds: 60),
          exitPolicy: .onGoal)
      ],
      [.event("checkout_started", 0), .event("$purchase_completed", 30_000), .dismiss(31_000, "purchase_completed")],
      Profile(), nil,
      [
        "+0: cmp_checkout started j1 shown", "+30000: noMatch",
        "+31000: ended j1 goal_met goal=true flow=purchase_completed",
      ]
    ),
    (
      "a goal event exactly at the window's end counts (conversion-watch vector 7)",
      [purchaseGoal], [.event("checkout_started", 0), .event("$purchase_completed", 60_000), .dismiss(61_000)],
      Profile(), nil,
      ["+0: cmp_checkout started j1 shown", "+60000: noMatch", "+61000: ended j1 goal_met goal=true flow=user"]
    ),
    (
      "a goal event at the anchor's instant counts only when processed after it (vectors 9 and 10)",
      [purchaseGoal],
      [
        .event("$purchase_completed", 0), .event("checkout_started", 0), .dismiss(1), .event("checkout_started", 2),
        .event("$purchase_completed", 2), .dismiss(3),
      ], Profile(), nil,
      [
        "+0: noMatch", "+0: cmp_checkout started j1 shown", "+1: ended j1 dismissed goal=false flow=user",
        "+2: cmp_checkout started j2 shown", "+2: noMatch", "+3: ended j2 goal_met goal=true flow=user",
      ]
    ),
    (
      "a goal event after the window does not count (the end is inclusive)",
      [
        Campaign(
          id: "cmp_checkout", flowID: "paywall", trigger: .event(name: "checkout_started", condition: nil),
          goal: Campaign.Goal(kind: .event(name: "$purchase_completed", filter: nil), windowSeconds: 60),
          exitPolicy: .onGoal)
      ], [.event("checkout_started", 0), .event("$purchase_completed", 60_001), .dismiss(61_000)], Profile(), nil,
      ["+0: cmp_checkout started j1 shown", "+60001: noMatch", "+61000: ended j1 dismissed goal=false flow=user"]
    ),
    (
      "segment trigger on entry only; leaving the segment ends a journey that is not presented",
      [winback(exit: .onStopMatching)],
      [
        .event("$app_backgrounded", 0), .profile(1000, ["plan": "trial"]), .event("ping", 2000),
        .profile(3000, ["plan": "paid"]),
      ], Profile(), nil,
      [
        "+0: noMatch", "+1000: cmp_winback started j1 deferred(appInBackground)", "+2000: noMatch",
        "+3000: ended j1 trigger_unmatched goal=false flow=-",
      ]
    ),
    (
      "an attribute goal met by a profile update, with on_goal_or_stop, ends at the dismissal",
      [
        winback(
          exit: .onGoalOrStop,
          goal: Campaign.Goal(kind: .attribute(IREnvelope(.user(.equal, key: "pro", value: .bool(true))))))
      ],
      [.profile(0, ["plan": "trial"]), .profile(1000, ["pro": true]), .dismiss(2000)], Profile(), nil,
      ["+0: cmp_winback started j1 shown", "+1000: ", "+2000: ended j1 goal_met goal=true flow=user"]
    ),
    (
      "a journey's time limit expires it on the clock",
      [
        Campaign(
          id: "cmp_checkout", flowID: "paywall", trigger: .event(name: "checkout_started", condition: nil),
          timeLimitSeconds: 60)
      ], [.event("checkout_started", 0), .advance(120_000)], Profile(), nil,
      ["+0: cmp_checkout started j1 shown", "+60000: ended j1 expired goal=false flow=timeout"]
    ),
    (
      "time alone enters a segment: no open for a day (the clock advancing decides it)",
      [
        Campaign(
          id: "cmp_lapsed", flowID: "winback",
          trigger: .segment(
            condition: IREnvelope(.events(EventsQuery(.stopped(inactiveFor: .duration(86_400)), name: "open")))))
      ], [.event("open", 0), .advance(12 * hour), .advance(48 * hour)], Profile(), nil,
      ["+0: noMatch", "+172800000: cmp_lapsed started j1 shown"]
    ),
    (
      "golden journey 3: an event of another name starts nothing",
      [
        Campaign(
          id: "campaign-golden-3", flowID: "flow-golden-3", trigger: .event(name: "golden_never_sent", condition: nil))
      ],
      [.event("some_other_event", 0)], Profile(), nil, ["+0: noMatch"]
    ),
  ]

  @Test(arguments: scenarios)
  func scenario(
    name: String, campaigns: [Campaign], lines: [Line], profile: Profile, flowIDs: [String]?, expected: [String]
  ) {
    #expect(Self.run(campaigns, lines, profile: profile, flowIDs: flowIDs) == expected, "\(name)")
  }

  /// `segments/seed-mirror/server-mode.json` (design §3.17): each generation of server
  /// memberships, the segments entered and exited; an id the payload does not define is ignored.
  @Test func serverMembershipsMirrorTheSeed() {
    let segments = ["segment-a", "segment-b"].map { Segment(id: $0, condition: IREnvelope(.bool(false))) }
    let world = CampaignWorld(set: CampaignSet(campaigns: [], segments: segments))
    var state = CampaignState(profile: Profile(), now: Self.t0, calendar: ZonedCalendar())
    let generations: [([String], [String], [String])] = [
      (["segment-a", "unknown"], ["segment-a"], []), (["segment-b"], ["segment-b"], ["segment-a"]),
      ([], [], ["segment-b"]),
    ]
    for (ids, entered, exited) in generations {
      let outcomes = CampaignEngine.apply(.memberships(ids, at: Self.t0), to: &state, world: world)
      #expect(outcomes.last?.cause == .memberships(entered: entered, exited: exited), "\(ids)")
    }
    #expect(state.facts.segments.values.allSatisfy { !$0.isMember })
  }

  /// `--ios-quirks`: a replaced flow's journey stays live and ends with no events, and
  /// `$flow_shown` comes twice.
  @Test func iosQuirksKeepTheReplacedJourneyLive() {
    var world = CampaignWorld(
      set: CampaignSet(campaigns: [
        Self.checkout(),
        Campaign(id: "cmp_promo", flowID: "promo", trigger: .event(name: "promo_seen", condition: nil)),
      ]))
    world.iosQuirks = true
    var state = CampaignState(profile: Profile(), now: Self.t0, calendar: ZonedCalendar())
    _ = CampaignEngine.apply(.track(HistoryEvent(name: "checkout_started", time: Self.t0)), to: &state, world: world)
    let outcomes = CampaignEngine.apply(
      .track(HistoryEvent(name: "promo_seen", time: Self.t0 + 1)), to: &state, world: world)
    #expect(outcomes.last?.events.map(\.name) == ["$journey_start", "$journey_started", "$flow_shown", "$flow_shown"])
    #expect(outcomes.last?.updates.isEmpty == true)
    #expect(state.liveJourneys == 2)
    #expect(state.presentedJourney == "j2")
  }

  /// `$journey_start` comes first, the presented flow's `$flow_shown` last; the journey ended by
  /// a replacement says so in its events before the new flow is shown.
  @Test func emittedEventsOrder() {
    let world = CampaignWorld(set: CampaignSet(campaigns: [Self.checkout()]))
    let state = CampaignState(profile: Profile(), now: Self.t0, calendar: ZonedCalendar())
    let (_, outcomes) = CampaignEngine.step(
      state, .track(HistoryEvent(name: "checkout_started", time: Self.t0, properties: ["cart": 3])), world: world)
    #expect(outcomes.count == 1)
    #expect(outcomes[0].events.map(\.name) == ["$journey_start", "$journey_started", "$flow_shown"])
    #expect(outcomes[0].events[1].properties["trigger_event_properties"] == .object(["cart": 3]))
  }
}
