import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections

/// `flowrun campaign … --run`: the timeline of `CampaignSimulation`, and whenever a decision
/// presents a flow flowrun has, that flow runs on the same virtual clock with scripted answers
/// (docs/dialects/nuxie.md). Its events join the campaign's stream (they are campaign inputs,
/// so a purchase in the flow can meet a goal), and its end closes the presentation.
public enum CampaignFlowRun {
  /// One answer line: `:ok`, `:fail [TEXT]`, `:cancel`, `:dismiss`, `:wait MS`, else a
  /// control's label.
  public static func input(_ line: String) -> Input {
    let words = line.split(separator: " ", maxSplits: 1).map(String.init)
    switch words.first ?? "" {
    case ":ok": return .result(.success(nil))
    case ":fail": return .result(.failure(words.count > 1 ? words[1] : nil))
    case ":cancel": return .result(.cancelled)
    case ":dismiss": return .dismiss
    case ":wait": return .wait(ms: Int64(words.count > 1 ? words[1] : "") ?? 0)
    default: return .tap(.label(line))
    }
  }

  /// Events a campaign already sends for its journeys; a flow run under it does not repeat them.
  static let journeyEvents: Set<String> = [
    "$flow_shown", "$flow_dismissed", "$journey_completed", "$experience_shown", "$experience_dismissed",
    "$journey_exited",
  ]

  public static func run(
    _ timeline: [TimelineEntry], world: CampaignWorld, state initial: CampaignState, until: Int64? = nil,
    flows: [String: FlowDocument], answers: [String]
  ) -> (CampaignState, [CampaignOutcome]) {
    var state = initial
    var outcomes: [CampaignOutcome] = []
    var remaining = answers[...]
    var ran: Set<String> = []
    for entry in timeline {
      outcomes += CampaignEngine.apply(entry.input, to: &state, world: world)
      // Each presented flow flowrun has runs once, to its end or until the answers run out.
      while let id = state.presentedJourney, !ran.contains(id),
        let journey = state.journeys.first(where: { $0.id == id }), let document = flows[journey.flowID]
      {
        ran.insert(id)
        outcomes += runFlow(document, journey: id, state: &state, world: world, answers: &remaining)
      }
    }
    if let until, until > state.now { outcomes += CampaignEngine.apply(.advance(to: until), to: &state, world: world) }
    return (state, outcomes)
  }

  private static func runFlow(
    _ document: FlowDocument, journey: String, state: inout CampaignState, world: CampaignWorld,
    answers: inout ArraySlice<String>
  ) -> [CampaignOutcome] {
    var outcomes: [CampaignOutcome] = []
    let config = SessionConfig(now: state.now, sessionID: journey, waitsForResults: true)
    guard var (session, outputs) = try? Session.start(document: document, config: config) else { return [] }
    func forward(_ outputs: [Output]) {
      for case .event(let event) in outputs where !journeyEvents.contains(event.eventType) {
        let tracked = HistoryEvent(
          name: event.eventType, time: max(event.time, state.now), properties: event.properties)
        outcomes += CampaignEngine.apply(.track(tracked), to: &state, world: world)
      }
    }
    forward(outputs)
    while !session.status.isEnded, let line = answers.popFirst() {
      outputs = session.send(input(line))
      forward(outputs)
    }
    // The flow's end closes the presentation, if the campaign has not closed it already.
    guard state.presentedJourney == journey else { return outcomes }
    let at = max(session.virtualNow, state.now)
    switch session.status {
    case .completed: outcomes += CampaignEngine.apply(.dismiss(reason: "completed", at: at), to: &state, world: world)
    case .dismissed: outcomes += CampaignEngine.apply(.dismiss(reason: "user", at: at), to: &state, world: world)
    default: break
    }
    return outcomes
  }
}
