import ArgumentParser
import FlowEngine
import FlowExpression
import FlowFormat
import FlowReplay
import FlowSupport

extension Flowrun {
  /// `flowrun campaign CAMPAIGNS --profile P --events TIMELINE`: which campaign starts a
  /// journey for each event, which is suppressed and why, on the virtual clock.
  struct Campaign: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "campaign",
      abstract: "Decide, event by event, which Nuxie campaign shows its flow, when, and why not.",
      discussion: """
        Reads a Nuxie campaigns payload, a user profile and an NDJSON event timeline, and prints \
        each event's decisions (journeyStarted, flowShown, deferred, suppressed with a reason, \
        noMatch), the events emitted and the journeys that ended. Exits 0 when the inputs load and \
        every line is decided, 1 when an input has errors or a line cannot be decided (an error \
        line in the output), 2 when one cannot be read or parsed. See docs/dialects/nuxie.md.
        """
    )

    @Argument(help: "The campaigns payload (JSON with `campaigns`, `segments`, `flows`).")
    var campaigns: String

    @Option(help: ArgumentHelp("The user: properties, experiments, memberships, completions.", valueName: "file"))
    var profile: String?

    @Option(help: ArgumentHelp("The timeline: one JSON event a line, in time order.", valueName: "file"))
    var events: String?

    @Option(help: ArgumentHelp("The clock's start, ISO-8601 (default: the first timeline line).", valueName: "time"))
    var now: Checked<Instant>?

    @Option(help: ArgumentHelp("Advance the clock to this time after the last line (timers fire).", valueName: "time"))
    var until: String?

    @Option(help: ArgumentHelp("The zone of calendar conditions and time windows (IANA id).", valueName: "zone"))
    var timezone = "UTC"

    @Option(help: "Output format: text or json (one object a line).")
    var format: CampaignOutputFormat = .text

    @Flag(help: "Explain every decision clause by clause, and list the campaigns that did not match.")
    var trace = false

    @Flag(help: "Decide as the iOS SDK does where it differs from the Nuxie documentation.")
    var iosQuirks = false

    @Flag(
      name: .customLong("run"),
      help: "Run each presented flow that --flows gives, answered by --answers, in the same stream.")
    var runsFlows = false

    @Option(help: ArgumentHelp("A Nuxie flow a campaign may present (with --run; repeatable).", valueName: "file"))
    var flows: [String] = []

    @Option(
      help: ArgumentHelp(
        "The presented flows' answers, one a line: a control's label, :ok, :fail, :cancel, :dismiss, :wait MS.",
        valueName: "file"))
    var answers: String?

    func validate() throws {
      _ = try now?.get()
      _ = try untilInstant()
      guard SystemTimeZones().offsetSeconds(zone: timezone, atMilliseconds: 0) != nil else {
        throw ValidationError("--timezone '\(timezone)': not a time zone the system knows (e.g. UTC, Europe/Paris)")
      }
    }

    func untilInstant() throws -> Int64? {
      guard let until else { return nil }
      switch Instant.parse(until) {
      case .success(let instant): return instant.milliseconds
      case .failure:
        throw ValidationError("--until '\(until)': expected an ISO-8601 time such as 2026-01-01T09:30:00Z")
      }
    }

    func run() throws {
      let set = CampaignLoader.campaigns(path: campaigns)
      let user = profile.map { CampaignLoader.profile(path: $0) }
      let timeline = events.map { CampaignLoader.timeline(path: $0) }
      var diagnostics = set.diagnostics + (user?.diagnostics ?? []) + (timeline?.diagnostics ?? [])
      var sources = [set.file: set.source]
      if let user { sources[user.file] = user.source }
      if let timeline { sources[timeline.file] = timeline.source }
      diagnostics = diagnostics.filter { $0.severity != .note }
      if !diagnostics.isEmpty { Output.error.write(DiagnosticFormatter(sources: sources).text(diagnostics)) }
      guard let campaignSet = set.value, user.map({ $0.value != nil }) ?? true,
        timeline.map({ $0.value != nil }) ?? true
      else { throw ExitCode(2) }
      guard !diagnostics.hasErrors else { throw ExitCode(1) }
      let entries = timeline?.value ?? []
      let calendar = ZonedCalendar(zone: timezone, rules: SystemTimeZones())
      let start = try now?.get().milliseconds ?? entries.first?.time ?? 0
      var world = CampaignWorld(set: campaignSet, calendar: calendar)
      world.iosQuirks = iosQuirks
      let state = CampaignState(profile: user?.value ?? Profile(), now: start, calendar: calendar)
      let (final, outcomes): (CampaignState, [CampaignOutcome])
      if runsFlows {
        let (documents, lines) = try flowsToRun()
        (final, outcomes) = CampaignFlowRun.run(
          entries, world: world, state: state, until: try untilInstant(), flows: documents, answers: lines)
      } else {
        (final, outcomes) = CampaignSimulation.run(entries, world: world, state: state, until: try untilInstant())
      }
      switch format {
      case .text: Output.standard.write(CampaignReport.text(outcomes, trace: trace) + CampaignReport.summary(final))
      case .json: Output.standard.write(CampaignReport.json(outcomes, trace: trace))
      }
      // A timeline that could not be decided to its end (a dismiss with no flow up, a loop of
      // campaigns triggering each other) is a failed run.
      if outcomes.contains(where: { !$0.errors.isEmpty }) { throw ExitCode(1) }
    }
  }
}

extension Flowrun.Campaign {
  /// `--flows` by flow id, and `--answers`' lines; a flow that does not load stops the run.
  func flowsToRun() throws -> ([String: FlowDocument], [String]) {
    var documents: [String: FlowDocument] = [:]
    for path in flows {
      let loaded = FlowLoader.load(path: path)
      let errors = loaded.diagnostics.filter { $0.severity == .error }
      if !errors.isEmpty {
        Output.error.write(DiagnosticFormatter(sources: [loaded.file: loaded.source]).text(errors))
        throw ExitCode(loaded.document == nil ? 2 : 1)
      }
      guard let flow = loaded.document?.entryFlow else { throw ExitCode(2) }
      documents[flow.id] = loaded.document
    }
    guard let answers else { return (documents, []) }
    switch TextFile.read(answers, limit: .script) {
    case .success(let bytes):
      let text = String(decoding: bytes, as: UTF8.self)
      return (documents, text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty })
    case .failure(let failure):
      throw ValidationError("--answers \(answers): \(failure.message)")
    }
  }
}

/// How `campaign` prints its decisions.
enum CampaignOutputFormat: String, ExpressibleByArgument, CaseIterable {
  case text, json
}
