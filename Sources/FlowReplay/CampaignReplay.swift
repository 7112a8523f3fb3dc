import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections

/// Replays a campaign script (`campaigns:`): each `track`, `wait`, `dismiss` and `profile`
/// step goes through `CampaignEngine`, and `expect` checks the decisions, the emitted events
/// (ordered subsequence, `not_events` forbidden), `no_match` and the live journeys
/// (docs/dialects/nuxie.md, "Replay").
enum CampaignReplay {
  static func run(_ script: ReplayScript, _ files: CampaignFiles) -> ScriptOutcome {
    let set = CampaignLoader.campaigns(path: files.campaigns)
    let profile = files.profile.map { CampaignLoader.profile(path: $0) }
    let diagnostics = set.diagnostics + (profile?.diagnostics ?? [])
    guard let campaignSet = set.value, !diagnostics.hasErrors, profile.map({ $0.value != nil }) ?? true else {
      var sources = [set.file: set.source]
      if let profile { sources[profile.file] = profile.source }
      let errors = diagnostics.filter { $0.severity == .error }
      let unreadable = set.value == nil || profile.map { $0.value == nil } ?? false
      return ScriptOutcome(
        file: script.file, name: script.name, status: unreadable ? .error : .failed,
        message: "\(script.file): the campaigns cannot be loaded\n"
          + DiagnosticFormatter(sources: sources).text(errors),
        summary: errors.first.map { Replayer.summaryLine($0, file: set.file) } ?? "\(set.file): cannot load",
        failureFile: errors.first?.file ?? set.file, failureLocation: errors.first?.location, diagnostics: diagnostics)
    }
    let calendar = ZonedCalendar(zone: files.timezone, rules: SystemTimeZones())
    var run = Run(
      world: CampaignWorld(set: campaignSet, calendar: calendar),
      state: CampaignState(profile: profile?.value ?? Profile(), now: script.now, calendar: calendar))
    var stepsRun = 0
    do {
      for step in script.steps {
        stepsRun += 1
        try run.perform(step)
      }
      if let expectation = script.expectation { try run.check(expectation) }
    } catch let failure as StepFailure {
      let place = "\(script.file)\(failure.location.map { ":\($0)" } ?? "")"
      return ScriptOutcome(
        file: script.file, name: script.name, status: .failed,
        message: ([place + ": " + failure.headline] + failure.details).joined(separator: "\n") + "\n",
        summary: place + ": " + failure.headline, failureFile: script.file, failureLocation: failure.location,
        stepsRun: stepsRun)
    } catch {
      return ScriptOutcome(
        file: script.file, name: script.name, status: .failed, message: "\(error)", stepsRun: stepsRun)
    }
    return ScriptOutcome(file: script.file, name: script.name, status: .passed, stepsRun: stepsRun)
  }

  struct Run {
    let world: CampaignWorld
    var state: CampaignState
    /// Every outcome so far, and where the last step's begin.
    var outcomes: [CampaignOutcome] = []
    var lastStepStart = 0

    mutating func perform(_ step: ScriptStep) throws {
      let input: CampaignInput
      switch step.kind {
      case .expect(let expectation):
        try check(expectation)
        return
      case .campaignEvent(let name, let properties):
        guard case .object(let fields) = properties else { return }
        input = .track(HistoryEvent(name: name, time: state.now, properties: fields))
      case .wait(let ms): input = .advance(to: state.now + ms)
      case .dismiss: input = .dismiss(reason: "user", at: state.now)
      case .campaignProfile(let properties):
        guard case .object(let fields) = properties else { return }
        input = .profile(Dictionary(uniqueKeysWithValues: fields.map { ($0.key, $0.value) }), at: state.now)
      default:
        throw StepFailure(location: step.location, headline: "'\(step.keyword)' is a flow step", details: [])
      }
      let produced = CampaignEngine.apply(input, to: &state, world: world)
      lastStepStart = outcomes.count
      outcomes += produced
      if let error = produced.flatMap(\.errors).first {
        throw StepFailure(location: step.location, headline: error, details: [])
      }
    }

    var decisions: [(CampaignDecision, Value)] {
      outcomes.flatMap { $0.decisions.map { ($0, CampaignReport.decisionJSON($0, false)) } }
    }

    var events: [Value] {
      outcomes.flatMap(\.events).map {
        .object(["event_type": .string($0.name), "properties": .object($0.properties)])
      }
    }

    func check(_ expectation: Expectation) throws {
      if let item = expectation.decision {
        let recent = outcomes[lastStepStart...].flatMap(\.decisions).map { CampaignReport.decisionJSON($0, false) }
        guard recent.contains(where: { ValueMatch.subset(item.value, of: $0) }) else {
          throw StepFailure(
            location: item.location, headline: "expected decision \(item.value.json) in the last step",
            details: ["decisions of the last step:"] + recent.map { "  " + $0.json })
        }
      }
      if let item = expectation.decisions {
        try subsequence(item.value, in: decisions.map(\.1), what: "decision", at: item.location)
      }
      if let item = expectation.events {
        try subsequence(item.value.map(Self.pattern), in: events, what: "event", at: item.location)
      }
      if let item = expectation.notEvents {
        for pattern in item.value.map(Self.pattern) {
          if let found = events.first(where: { ValueMatch.subset(pattern, of: $0) }) {
            throw StepFailure(
              location: item.location, headline: "forbidden event \(pattern.json) happened: \(found.json)", details: [])
          }
        }
      }
      if let item = expectation.noMatch {
        let last = outcomes[lastStepStart...].last { if case .event = $0.cause { true } else { false } }
        guard last?.noMatch == item.value else {
          throw StepFailure(
            location: item.location,
            headline: "expected no_match \(item.value), found \(last.map { "\($0.noMatch)" } ?? "no event")",
            details: [])
        }
      }
      if let item = expectation.liveJourneys, state.liveJourneys != item.value {
        throw StepFailure(
          location: item.location, headline: "expected \(item.value) live journeys, found \(state.liveJourneys)",
          details: [CampaignReport.summary(state)])
      }
    }

    static func pattern(_ pattern: Expectation.EventPattern) -> Value {
      switch pattern {
      case .type(let name): .object(["event_type": .string(name)])
      case .subset(let value): value
      }
    }

    func subsequence(_ patterns: [Value], in actual: [Value], what: String, at location: SourceLocation?) throws {
      var position = 0
      for pattern in patterns {
        guard let found = actual[position...].firstIndex(where: { ValueMatch.subset(pattern, of: $0) }) else {
          throw StepFailure(
            location: location, headline: "expected \(what) \(pattern.json) (in order) not found",
            details: ["\(what)s so far:"] + actual.map { "  " + $0.json })
        }
        position = found + 1
      }
    }
  }
}
