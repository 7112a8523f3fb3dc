import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections

/// A campaign timeline run through `CampaignEngine`, and its report as text or NDJSON
/// (`flowrun campaign`, docs/dialects/nuxie.md). Same inputs, byte-identical output.
public enum CampaignSimulation {
  /// Every outcome of `timeline` from `state`, then of the clock advanced to `until`.
  public static func run(
    _ timeline: [TimelineEntry], world: CampaignWorld, state initial: CampaignState, until: Int64? = nil
  ) -> (CampaignState, [CampaignOutcome]) {
    var state = initial
    var outcomes: [CampaignOutcome] = []
    for entry in timeline {
      outcomes += CampaignEngine.apply(entry.input, to: &state, world: world)
    }
    if let until, until > state.now { outcomes += CampaignEngine.apply(.advance(to: until), to: &state, world: world) }
    return (state, outcomes)
  }
}

extension TimelineEntry {
  /// The reducer input of a timeline line.
  public var input: CampaignInput {
    switch kind {
    case .event(let event): .track(event)
    case .dismiss(let reason, let at): .dismiss(reason: reason, at: at)
    case .profile(let properties, let at): .profile(properties, at: at)
    case .memberships(let ids, let at): .memberships(ids, at: at)
    }
  }
}

public enum CampaignReport {
  /// One block per outcome: the time and cause, each matching campaign's decision (with
  /// `trace`, every campaign and the clauses behind it), the events emitted and journeys ended.
  public static func text(_ outcomes: [CampaignOutcome], trace: Bool) -> String {
    var out = ""
    for outcome in outcomes {
      out += CivilTime.iso8601(milliseconds: outcome.at) + "  " + causeText(outcome.cause) + "\n"
      let shown = outcome.decisions.filter { trace || $0.verdict != .notMatched }
      let width = shown.map(\.campaignID.count).max() ?? 0
      for decision in shown {
        out += "  " + decision.campaignID.padding(width) + "  " + verdictText(decision) + "\n"
        guard trace else { continue }
        let nameWidth = decision.clauses.map(\.name.count).max() ?? 0
        for clause in decision.clauses {
          out += "    " + clause.name.padding(nameWidth) + "  " + clause.detail + " → " + clause.result + "\n"
        }
      }
      if outcome.noMatch { out += "  noMatch\n" }
      if !outcome.events.isEmpty { out += "  events: " + outcome.events.map(\.name).joined(separator: ", ") + "\n" }
      for update in outcome.updates {
        out +=
          "  journey \(update.journeyID) (\(update.campaignID)) ended: \(update.exitReason), goal met \(update.goalMet)"
          + (update.goalMetAt.map { " at " + CivilTime.iso8601(milliseconds: $0) } ?? "")
          + ", \(NumberFormatting.javaScriptString(update.durationSeconds))s\n"
      }
      for error in outcome.errors { out += "  error: " + error + "\n" }
    }
    return out
  }

  /// `summary` after the outcomes: live journeys and completions.
  public static func summary(_ state: CampaignState) -> String {
    let live = state.journeys.filter(\.isLive).map { "\($0.id) (\($0.campaignID))" }
    return "live journeys: " + (live.isEmpty ? "none" : live.joined(separator: ", ")) + "\n"
  }

  static func causeText(_ cause: CampaignOutcome.Cause) -> String {
    switch cause {
    case .event(let event): event.name + (event.properties.isEmpty ? "" : " " + Value.object(event.properties).json)
    case .dismiss(let reason): "dismiss (\(reason))"
    case .profile(let properties):
      "profile " + Value.object(OrderedDictionary(uniqueKeysWithValues: properties.sorted { $0.key < $1.key })).json
    case .memberships(let entered, let exited):
      "memberships (entered: \(entered.joined(separator: ", ")); exited: \(exited.joined(separator: ", ")))"
    case .timer: "timer"
    }
  }

  static func verdictText(_ decision: CampaignDecision) -> String {
    var text: String
    switch decision.verdict {
    case .notMatched: text = "notMatched"
    case .suppressed(let reason): text = "suppressed(\(reason))"
    case .journeyStarted(let id): text = "journeyStarted \(id)"
    case .presentation(let id): text = "journey \(id)"
    }
    if decision.trigger == .segment, case .journeyStarted = decision.verdict { text += " (segment)" }
    if decision.eventName.hasPrefix("$"), decision.isMatch { text += " on \(decision.eventName)" }
    switch decision.presentation {
    case .flowShown(let replaced)?: text += "; flowShown" + (replaced.map { " (replaces journey \($0))" } ?? "")
    case .deferred(let until, let reason)?:
      text += "; deferred(\(reason))" + (until.map { " until " + CivilTime.iso8601(milliseconds: $0) } ?? "")
    case nil: break
    }
    return text
  }

  /// One JSON object a line per outcome.
  public static func json(_ outcomes: [CampaignOutcome], trace: Bool) -> String {
    var out = ""
    for outcome in outcomes {
      var object: OrderedDictionary<String, Value> = ["at": .string(CivilTime.iso8601(milliseconds: outcome.at))]
      switch outcome.cause {
      case .event(let event):
        object["event"] = .string(event.name)
        object["properties"] = .object(event.properties)
      case .dismiss(let reason): object["dismiss"] = .string(reason)
      case .profile(let properties):
        object["profile"] = .object(OrderedDictionary(uniqueKeysWithValues: properties.sorted { $0.key < $1.key }))
      case .memberships(let entered, let exited):
        object["memberships"] = .object([
          "entered": .list(entered.map(Value.string)), "exited": .list(exited.map(Value.string)),
        ])
      case .timer: object["timer"] = .bool(true)
      }
      object["decisions"] = .list(
        outcome.decisions.filter { trace || $0.verdict != .notMatched }.map { decisionJSON($0, trace) })
      object["no_match"] = .bool(outcome.noMatch)
      object["events"] = .list(
        outcome.events.map { .object(["event": .string($0.name), "properties": .object($0.properties)]) })
      object["journeys_ended"] = .list(outcome.updates.map(updateJSON))
      if !outcome.errors.isEmpty { object["errors"] = .list(outcome.errors.map(Value.string)) }
      out += Value.object(object).json + "\n"
    }
    return out
  }

  static func decisionJSON(_ decision: CampaignDecision, _ trace: Bool) -> Value {
    var object: OrderedDictionary<String, Value> = [
      "campaign": .string(decision.campaignID), "trigger": .string(decision.trigger.rawValue),
      "on": .string(decision.eventName),
    ]
    switch decision.verdict {
    case .notMatched: object["decision"] = "notMatched"
    case .suppressed(let reason):
      object["decision"] = "suppressed"
      object["reason"] = .string(reason)
    case .journeyStarted(let id):
      object["decision"] = "journeyStarted"
      object["journey"] = .string(id)
    case .presentation(let id):
      object["decision"] = "presentation"
      object["journey"] = .string(id)
    }
    switch decision.presentation {
    case .flowShown(let replaced)?:
      object["presentation"] = "flowShown"
      if let replaced { object["replaced"] = .string(replaced) }
    case .deferred(let until, let reason)?:
      object["presentation"] = "deferred"
      object["deferral_reason"] = .string(reason)
      object["until"] = until.map { .string(CivilTime.iso8601(milliseconds: $0)) } ?? .null
    case nil: break
    }
    if trace {
      object["clauses"] = .list(
        decision.clauses.map {
          .object(["name": .string($0.name), "detail": .string($0.detail), "result": .string($0.result)])
        })
    }
    return .object(object)
  }

  static func updateJSON(_ update: JourneyUpdate) -> Value {
    .object([
      "journey_id": .string(update.journeyID), "campaign_id": .string(update.campaignID),
      "flow_id": .string(update.flowID),
      "exit_reason": .string(update.exitReason), "goal_met": .string(update.goalMet ? "true" : "false"),
      "goal_met_at": update.goalMetAt.map { .string(CivilTime.iso8601(milliseconds: $0)) } ?? .null,
      "duration_seconds": .number(update.durationSeconds),
      "flow_exit_reason": update.flowExitReason.map(Value.string) ?? .null,
    ])
  }
}

extension String {
  fileprivate func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
