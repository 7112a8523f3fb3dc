import FlowExpression
import FlowFormat
import OrderedCollections

/// Nuxie campaign decisions as a pure reducer: `(state, input) → (state, outcome)`, on the
/// virtual clock (docs/dialects/nuxie.md, "Campaign decisions", steps P0–P7).
public enum CampaignEngine {
  public static func step(
    _ state: CampaignState, _ input: CampaignInput, world: CampaignWorld
  ) -> (
    CampaignState, [CampaignOutcome]
  ) {
    var next = state
    let outcomes = apply(input, to: &next, world: world)
    return (next, outcomes)
  }

  /// `step` in place: the state moves through the input instead of being copied, so the history
  /// of a long timeline grows in place (a copy per input made timelines quadratic).
  public static func apply(
    _ input: CampaignInput, to state: inout CampaignState, world: CampaignWorld
  )
    -> [CampaignOutcome]
  {
    var run = Run(state: consume state, world: world)
    defer { state = run.state }
    var outcomes = run.advance(to: input.time)
    var outcome: CampaignOutcome
    switch input {
    case .advance(let time):
      // Time alone can change segments and goals (`Events.Stopped`, a window's end): evaluate
      // them at the new time, and say so only when something happened.
      run.outcome = CampaignOutcome(at: time, cause: .timer)
      run.afterChange()
      run.drain()
      if !run.outcome.decisions.isEmpty || !run.outcome.events.isEmpty || !run.outcome.updates.isEmpty {
        outcomes.append(run.outcome)
      }
      return outcomes
    case .track(let event):
      outcome = CampaignOutcome(at: event.time, cause: .event(event))
      run.outcome = outcome
      run.process(event, incoming: true)
    case .dismiss(let reason, let at):
      outcome = CampaignOutcome(at: at, cause: .dismiss(reason: reason))
      run.outcome = outcome
      if let id = run.state.presentedJourney {
        run.close(id, method: reason)
      } else {
        run.outcome.errors.append("no flow is presented to dismiss")
      }
      run.afterChange()
    case .profile(let properties, let at):
      outcome = CampaignOutcome(at: at, cause: .profile(properties))
      run.outcome = outcome
      for (key, value) in properties.sorted(by: { $0.key < $1.key }) {
        run.state.facts.userProperties[FactKey(key)] = value
      }
      run.afterChange()
    case .memberships(let ids, let at):
      run.outcome = CampaignOutcome(at: at, cause: .timer)
      let (entered, exited) = run.replaceMemberships(ids)
      run.outcome.cause = .memberships(entered: entered, exited: exited)
      run.afterChange()
    }
    run.drain()
    outcomes.append(run.outcome)
    return outcomes
  }

  /// One input's processing: the state, the outcome being written and the emitted-event queue.
  struct Run {
    var state: CampaignState
    let world: CampaignWorld
    var outcome = CampaignOutcome(at: 0, cause: .timer)
    var queue: [HistoryEvent] = []
    /// Journeys started while processing the current event: they do not receive it (P5).
    var startedNow: Set<String> = []

    init(state: CampaignState, world: CampaignWorld) {
      self.state = state
      self.world = world
    }

    // MARK: P0 clock and timers

    /// Moves the clock to `time`, firing due deferred presentations and expiries in time order
    /// (one outcome per instant with something to say).
    mutating func advance(to time: Int64) -> [CampaignOutcome] {
      var outcomes: [CampaignOutcome] = []
      while let due = nextTimer(), due <= time {
        state.facts.now = max(state.facts.now, due)
        outcome = CampaignOutcome(at: due, cause: .timer)
        // By id: presenting or ending one journey may end another.
        for id in state.journeys.map(\.id) {
          guard let journey = state.journeys.first(where: { $0.id == id }) else { continue }
          if let until = journey.deferral?.until, until <= due {
            present(journey.id, eventName: "(timer)")
          } else if let limit = campaign(journey.campaignID)?.timeLimitSeconds, journey.startedAt + limit * 1000 <= due
          {
            if journey.isPresented {
              close(journey.id, method: "timeout", exitOverride: "expired")
            } else {
              complete(journey.id, reason: "expired", flowExit: nil)
            }
          }
        }
        afterChange()
        drain()
        outcomes.append(outcome)
      }
      state.facts.now = max(state.facts.now, time)
      return outcomes
    }

    func nextTimer() -> Int64? {
      var times: [Int64] = []
      for journey in state.journeys where journey.isLive {
        if let until = journey.deferral?.until { times.append(until) }
        if let limit = campaign(journey.campaignID)?.timeLimitSeconds { times.append(journey.startedAt + limit * 1000) }
      }
      return times.min()
    }

    func campaign(_ id: String) -> Campaign? { world.set.campaigns.first { $0.id == id } }

    // MARK: P1–P7 one event

    mutating func process(_ event: HistoryEvent, incoming: Bool) {
      startedNow = []
      if event.name == "$app_opened" {
        state.foreground = true
        state.graceUntil = state.now + world.graceMs
        for index in state.journeys.indices where state.journeys[index].deferral?.reason == "appInBackground" {
          state.journeys[index].deferral = Journey.Deferral(until: state.graceUntil, reason: "foregroundGracePeriod")
        }
      } else if event.name == "$app_backgrounded" {
        state.foreground = false
        state.graceUntil = nil
      }
      state.facts.record(event)
      for campaign in world.set.campaigns {
        guard case .event(let name, let condition) = campaign.trigger else { continue }
        var clauses = [
          CampaignClause("trigger.event", "'\(event.name)' == '\(name)'", event.name == name ? "true" : "false")
        ]
        guard event.name == name else {
          // Emitted events (`$flow_shown`, …) would list every campaign again: only the input's.
          guard incoming else { continue }
          outcome.decisions.append(
            CampaignDecision(
              campaignID: campaign.id, trigger: .event, eventName: event.name, verdict: .notMatched, clauses: clauses))
          continue
        }
        if let condition {
          var facts = state.facts
          facts.event = event
          let trace = condition.trace(in: facts)
          clauses.append(CampaignClause("trigger.condition", trace))
          guard trace.holds else {
            outcome.decisions.append(
              CampaignDecision(
                campaignID: campaign.id, trigger: .event, eventName: event.name, verdict: .notMatched, clauses: clauses)
            )
            continue
          }
        }
        admit(campaign, trigger: .event, event: event, clauses: clauses)
      }
      afterChange(excluding: event)
    }

    /// P4 and P5: segment edges, then the live journeys' goals and exits.
    mutating func afterChange(excluding event: HistoryEvent? = nil) {
      updateSegments(event: event)
      for journey in state.journeys where journey.isLive && (world.iosQuirks || !startedNow.contains(journey.id)) {
        evaluateGoal(journey.id, event: event)
        if !journey.isPresented, let reason = exitReason(journey.id) {
          complete(journey.id, reason: reason, flowExit: nil)
        }
      }
    }

    /// Processes emitted events FIFO (P6), within the budget.
    mutating func drain() {
      var processed = 0
      while !queue.isEmpty {
        processed += 1
        guard processed <= world.eventBudget else {
          outcome.errors.append(
            "stopped after \(world.eventBudget) emitted events: campaigns trigger each other in a loop")
          queue.removeAll()
          return
        }
        let event = queue.removeFirst()
        process(event, incoming: false)
      }
    }

    mutating func emit(_ name: String, _ properties: OrderedDictionary<String, Value>) {
      let event = HistoryEvent(name: name, time: state.now, properties: properties)
      outcome.events.append(event)
      queue.append(event)
    }

    // MARK: C3–C8 admission

    mutating func admit(
      _ campaign: Campaign, trigger: Journey.TriggerKind, event: HistoryEvent?, clauses: [CampaignClause]
    ) {
      var clauses = clauses
      let eventName = event?.name ?? "(segment change)"
      func suppress(_ reason: String) {
        outcome.decisions.append(
          CampaignDecision(
            campaignID: campaign.id, trigger: trigger, eventName: eventName, verdict: .suppressed(reason),
            clauses: clauses))
      }
      if let live = state.journeys.first(where: { $0.campaignID == campaign.id && $0.isLive }) {
        clauses.append(CampaignClause("live", "journey \(live.id) is live", "alreadyActive"))
        return suppress("alreadyActive")
      }
      clauses.append(CampaignClause("live", "no live journey", "pass"))
      let reentry = reentryClause(campaign)
      clauses.append(reentry)
      if reentry.result != "pass" { return suppress(reentry.result) }
      if let key = campaign.holdoutExperiment {
        let assignment = state.experiments[key]
        let holdout = assignment.map { $0.status == "running" && $0.isHoldout } ?? false
        clauses.append(
          CampaignClause(
            "holdout",
            "experiment '\(key)': " + (assignment.map { "\($0.status), isHoldout \($0.isHoldout)" } ?? "no assignment"),
            holdout ? "holdout" : "pass"))
        if holdout { return suppress("holdout") }
      }
      guard let flowID = campaign.flowID, world.set.flowIDs.map({ $0.contains(flowID) }) ?? true else {
        clauses.append(
          CampaignClause(
            "flow", campaign.flowID.map { "flow '\($0)' is not among the flows given" } ?? "no flowId", "noFlow"))
        return suppress("noFlow")
      }
      clauses.append(CampaignClause("flow", "'\(flowID)'", "pass"))
      let id = "j\(state.nextJourney)"
      state.nextJourney += 1
      state.journeys.append(
        Journey(
          id: id, campaignID: campaign.id, flowID: flowID, trigger: trigger, startedAt: state.now, anchorAt: state.now))
      startedNow.insert(id)
      emit(
        "$journey_start", ["session_id": .string(id), "campaign_id": .string(campaign.id), "flow_id": .string(flowID)])
      var started: OrderedDictionary<String, Value> = [
        "journey_id": .string(id), "campaign_id": .string(campaign.id), "campaign_name": .string(campaign.name),
        "flow_id": .string(flowID), "trigger_type": .string(trigger.rawValue),
      ]
      if let event {
        started["trigger_event_name"] = .string(event.name)
        started["trigger_event_properties"] = .object(event.properties)
      } else {
        started["trigger_segment"] = .bool(true)
      }
      emit("$journey_started", started)
      outcome.decisions.append(
        CampaignDecision(
          campaignID: campaign.id, trigger: trigger, eventName: eventName, verdict: .journeyStarted(id),
          clauses: clauses))
      present(id, eventName: eventName)
    }

    func reentryClause(_ campaign: Campaign) -> CampaignClause {
      let last = state.completions.last { $0.campaignID == campaign.id }
      let lastText =
        last.map { "last completion " + CivilTime.iso8601(milliseconds: $0.completedAt) } ?? "no completion"
      switch campaign.reentry {
      case .everyTime:
        return CampaignClause("reentry", "every_time", "pass")
      case .oneTime:
        return CampaignClause("reentry", "one_time: " + lastText, last == nil ? "pass" : "reentryLimited")
      case .oncePerWindow(let seconds):
        let window = Self.durationText(seconds * 1000)
        guard let last else { return CampaignClause("reentry", "once_per_window \(window): no completion", "pass") }
        let elapsed = state.now - last.completedAt
        let allowed = elapsed >= seconds * 1000
        return CampaignClause(
          "reentry",
          "once_per_window \(window): \(lastText), \(Self.durationText(elapsed)) ago \(allowed ? ">=" : "<") \(window)",
          allowed ? "pass" : "reentryLimited")
      }
    }

    /// `1d2h`, `90s`, `750ms`.
    static func durationText(_ ms: Int64) -> String {
      if ms == 0 { return "0s" }
      if ms % 1000 != 0 && ms < 60_000 { return ms % 1000 == 0 ? "\(ms / 1000)s" : "\(ms)ms" }
      var seconds = ms / 1000
      var parts: [String] = []
      for (unit, size) in [("w", Int64(604_800)), ("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)] where seconds >= size
      {
        parts.append("\(seconds / size)\(unit)")
        seconds %= size
      }
      return parts.joined()
    }

    // MARK: C8 presentation, one flow at a time

    mutating func present(_ id: String, eventName: String) {
      guard let journey = state.journeys.first(where: { $0.id == id }) else { return }
      var deferral: Journey.Deferral?
      var detail: String
      if !state.foreground {
        deferral = Journey.Deferral(until: nil, reason: "appInBackground")
        detail = "the app is in the background: shown after it is next opened"
      } else if let until = state.graceUntil, state.now < until {
        deferral = Journey.Deferral(until: until, reason: "foregroundGracePeriod")
        detail = "foreground grace period until " + CivilTime.iso8601(milliseconds: until)
      } else if let campaign = campaign(journey.campaignID), let window = campaign.timeWindow,
        case .pauseUntil(let opens) = window.decide(at: state.now, in: calendar(for: campaign))
      {
        deferral = Journey.Deferral(until: opens, reason: "outsideTimeWindow")
        detail = "outside the campaign's time window: opens " + CivilTime.iso8601(milliseconds: opens)
      } else {
        detail = "foreground, no grace period"
      }
      var replaced: String?
      if deferral == nil, let current = state.presentedJourney, current != id {
        replaced = current
        if world.iosQuirks, let other = state.journeys.firstIndex(where: { $0.id == current }) {
          // The SDK closes the window only: no events, the journey stays live.
          state.journeys[other].isPresented = false
          detail += "; closes the window of journey \(current), which stays live (--ios-quirks)"
        } else {
          detail += "; replaces the flow of journey \(current)"
          close(current, method: "replaced")
        }
      }
      // Closing the other journey removed it: find this one again.
      guard let index = state.journeys.firstIndex(where: { $0.id == id }) else { return }
      state.journeys[index].deferral = deferral
      let presentation: CampaignDecision.Presentation
      if let deferral {
        presentation = .deferred(until: deferral.until, reason: deferral.reason)
      } else {
        state.journeys[index].isPresented = true
        if campaign(journey.campaignID)?.conversionAnchor == .lastFlowShown {
          state.journeys[index].anchorAt = state.now
        }
        for _ in 0..<(world.iosQuirks ? 2 : 1) {
          emit(
            "$flow_shown",
            ["journey_id": .string(id), "campaign_id": .string(journey.campaignID), "flow_id": .string(journey.flowID)])
        }
        presentation = .flowShown(replaced: replaced)
      }
      let clause = CampaignClause("presentation", detail, deferral.map { "deferred(\($0.reason))" } ?? "flowShown")
      if let last = outcome.decisions.indices.last, outcome.decisions[last].verdict == .journeyStarted(id) {
        outcome.decisions[last].presentation = presentation
        outcome.decisions[last].clauses.append(clause)
      } else {
        outcome.decisions.append(
          CampaignDecision(
            campaignID: journey.campaignID, trigger: journey.trigger, eventName: eventName, verdict: .presentation(id),
            presentation: presentation, clauses: [clause]))
      }
    }

    func calendar(for campaign: Campaign) -> ZonedCalendar {
      var calendar = world.calendar
      if let zone = campaign.timeWindowZone { calendar.zone = zone }
      return calendar
    }

    // MARK: §2.7 dismiss path and completion

    /// Closes a presented flow (`user`, `replaced`, `timeout`, `completed`: the flow ran to its
    /// end under `campaign --run`): the goal is evaluated, then the
    /// exit decision, else the method's own reason.
    mutating func close(_ id: String, method: String, exitOverride: String? = nil) {
      guard let index = state.journeys.firstIndex(where: { $0.id == id }) else { return }
      state.journeys[index].isPresented = false
      evaluateGoal(id, event: nil)
      let mapped: String =
        switch method {
        case "goal_met": "goal_met"
        case "error": "error"
        case "purchase_completed", "timeout", "completed": "completed"
        default: "dismissed"
        }
      let reason = exitOverride ?? exitReason(id) ?? mapped
      let journey = state.journeys[index]
      emit(
        "$flow_dismissed",
        ["journey_id": .string(id), "campaign_id": .string(journey.campaignID), "flow_id": .string(journey.flowID)])
      complete(id, reason: reason, flowExit: method)
    }

    mutating func complete(_ id: String, reason: String, flowExit: String?) {
      guard let index = state.journeys.firstIndex(where: { $0.id == id }), state.journeys[index].isLive else { return }
      state.journeys[index].exitReason = reason
      state.journeys[index].isPresented = false
      state.journeys[index].deferral = nil
      let journey = state.journeys[index]
      let duration = Double(state.now - journey.startedAt) / 1000
      emit(
        "$journey_completed",
        [
          "session_id": .string(id), "exit_reason": .string(reason), "goal_met": .bool(journey.convertedAt != nil),
          "goal_met_at": journey.convertedAt.map { .number(Double($0) / 1000) } ?? .null,
          "duration_seconds": .number(duration),
        ])
      emit(
        "$journey_exited",
        ["journey_id": .string(id), "campaign_id": .string(journey.campaignID), "exit_reason": .string(reason)])
      state.completions.append(
        Profile.Completion(campaignID: journey.campaignID, completedAt: state.now, exitReason: reason))
      outcome.updates.append(
        JourneyUpdate(
          journeyID: id, campaignID: journey.campaignID, flowID: journey.flowID, exitReason: reason,
          goalMet: journey.convertedAt != nil, goalMetAt: journey.convertedAt, durationSeconds: duration,
          flowExitReason: flowExit))
      // Ended journeys live on as completions (reentry) and updates; keeping them would make
      // every later input look at all of them.
      state.journeys.remove(at: index)
    }

    // MARK: §2.6 goals, §2.7 exit decision

    mutating func evaluateGoal(_ id: String, event: HistoryEvent?) {
      guard let index = state.journeys.firstIndex(where: { $0.id == id }), state.journeys[index].convertedAt == nil,
        let campaign = campaign(state.journeys[index].campaignID), let goal = campaign.goal
      else { return }
      let journey = state.journeys[index]
      let windowEnd = goal.windowSeconds == 0 ? Int64.max : journey.anchorAt + goal.windowSeconds * 1000
      var metAt: Int64?
      switch goal.kind {
      case .event(let name, let filter):
        guard let event, event.name == name, event.time >= journey.anchorAt, event.time <= windowEnd else { break }
        var facts = state.facts
        facts.event = event
        if filter.map({ $0.truth(in: facts).holds }) ?? true { metAt = event.time }
      case .segmentEnter(let segment), .segmentLeave(let segment):
        guard state.now <= windowEnd, case .known(let membership) = state.facts.segment(segment) else { break }
        let entering: Bool = if case .segmentEnter = goal.kind { true } else { false }
        if membership.isMember == entering { metAt = state.now }
      case .attribute(let expression):
        if state.now <= windowEnd, expression.truth(in: state.facts).holds { metAt = state.now }
      }
      guard let metAt else { return }
      state.journeys[index].convertedAt = metAt
      emit(
        "$journey_goal_met",
        [
          "journey_id": .string(id), "campaign_id": .string(campaign.id), "goal_kind": .string(goal.kindName),
          "met_at": .number(Double(metAt) / 1000), "window_seconds": .number(Double(goal.windowSeconds)),
        ])
    }

    func exitReason(_ id: String) -> String? {
      guard let journey = state.journeys.first(where: { $0.id == id }), let campaign = campaign(journey.campaignID)
      else { return nil }
      if let limit = campaign.timeLimitSeconds, state.now >= journey.startedAt + limit * 1000 { return "expired" }
      let policy = campaign.exitPolicy
      if policy == .onGoal || policy == .onGoalOrStop, journey.convertedAt != nil { return "goal_met" }
      if policy == .onStopMatching || policy == .onGoalOrStop, case .segment(let condition) = campaign.trigger,
        !condition.truth(in: state.facts).holds
      {
        return "trigger_unmatched"
      }
      return nil
    }

    // MARK: P4 segments

    /// Server mode (`seed-mirror`): the given segments hold the user, no other does; ids the
    /// payload does not define are ignored; a continuing member keeps its `enteredAt`.
    mutating func replaceMemberships(_ ids: [String]) -> (entered: [String], exited: [String]) {
      state.serverSegments = true
      var entered: [String] = []
      var exited: [String] = []
      for segment in world.set.segments {
        let key = FactKey(segment.id)
        let was = state.facts.segments[key]?.isMember ?? false
        let isMember = ids.contains { $0.utf8.elementsEqual(segment.id.utf8) }
        if isMember && !was {
          entered.append(segment.id)
          state.facts.segments[key] = Facts.Membership(isMember: true, enteredAt: state.now)
        } else if !isMember && was {
          exited.append(segment.id)
          state.facts.segments[key] = Facts.Membership(isMember: false)
        }
      }
      return (entered, exited)
    }

    mutating func updateSegments(event: HistoryEvent?) {
      var changed = false
      if !state.serverSegments {
        for segment in world.set.segments {
          let key = FactKey(segment.id)
          let member = segment.condition.truth(in: state.facts).holds
          let previous = state.facts.segments[key]
          if member != previous?.isMember {
            changed = true
            state.facts.segments[key] = Facts.Membership(isMember: member, enteredAt: member ? state.now : nil)
          }
        }
      }
      for campaign in world.set.campaigns {
        guard case .segment(let condition) = campaign.trigger else { continue }
        let trace = condition.trace(in: state.facts)
        let was = state.segmentTriggerTruth[campaign.id] ?? false
        state.segmentTriggerTruth[campaign.id] = trace.holds
        // Document: on entering (an edge); the SDK: on any membership change while it holds.
        guard trace.holds, !was || (world.iosQuirks && changed) else { continue }
        admit(
          campaign, trigger: .segment, event: nil,
          clauses: [
            CampaignClause(
              "trigger.segment", trace,
              result: was ? "holds on a membership change (--ios-quirks)" : "entered (was false)")
          ])
      }
    }
  }
}
