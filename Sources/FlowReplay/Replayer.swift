import FlowEngine
import FlowExpression
import FlowFormat
import FlowRender
import FlowStore
import FlowSupport
import Foundation
import OrderedCollections

/// Loads each flow file once, shared by every script of a run (thread-safe).
public final class FlowCache: Sendable {
  /// One flow's load, done by the first caller while later callers of the same path wait.
  private final class Entry: Sendable {
    let result = Locked<LoadResult?>(nil)
  }

  private let entries = Locked<[String: Entry]>([:])

  public init() {}

  /// The load result of `path` (loaded on first use; concurrent callers wait for one load).
  /// A script with `ios_quirks: true` loads its own copy (`LoadOptions.iosQuirks`).
  public func load(path: String, iosQuirks: Bool = false) -> LoadResult {
    let key = iosQuirks ? path + "\u{0}ios-quirks" : path
    let entry = entries.withLock { entries in
      if let entry = entries[key] { return entry }
      let entry = Entry()
      entries[key] = entry
      return entry
    }
    return entry.result.withLock { result in
      if let result { return result }
      let loaded = FlowLoader.load(path: path, options: LoadOptions(iosQuirks: iosQuirks))
      result = loaded
      return loaded
    }
  }

  /// How many distinct flow files were loaded.
  public var count: Int { paths.count }

  /// The flow files loaded (or being loaded), sorted.
  public var paths: [String] {
    entries.withLock { Set($0.keys.map { String($0.prefix { $0 != "\u{0}" }) }).sorted() }
  }
}

/// Replays scripts against the engine: drives `Session` with each step's inputs (the engine
/// does all navigation) and checks expectations.
public enum Replayer {
  /// Parses and runs the script at `path`.
  public static func run(
    path: String, cache: FlowCache = FlowCache(), options: ReplayOptions = ReplayOptions()
  ) -> ScriptOutcome {
    run(parsed: ScriptParser.load(path: path), path: path, cache: cache, options: options)
  }

  /// Runs an already parsed script file (its diagnostics make an `error` outcome).
  public static func run(
    parsed: ScriptParseResult, path: String, cache: FlowCache = FlowCache(),
    options: ReplayOptions = ReplayOptions()
  ) -> ScriptOutcome {
    let clock = ContinuousClock()
    let started = clock.now
    guard let script = parsed.script else {
      let formatter = DiagnosticFormatter(sources: [path: parsed.source])
      let first = parsed.diagnostics.first { $0.severity == .error }
      return ScriptOutcome(
        file: path, name: ScriptParser.defaultName(for: path), status: .error,
        message: formatter.text(parsed.diagnostics.filter { $0.severity == .error }),
        summary: first.map { summaryLine($0, file: path) } ?? "\(path): cannot parse the script",
        failureFile: path, failureLocation: first?.location, diagnostics: parsed.diagnostics,
        duration: seconds(clock.now - started))
    }
    var outcome = run(script, cache: cache, options: options)
    outcome.duration = seconds(clock.now - started)
    return outcome
  }

  /// Runs one parsed script.
  public static func run(
    _ script: ReplayScript, cache: FlowCache = FlowCache(), options: ReplayOptions = ReplayOptions()
  ) -> ScriptOutcome {
    let clock = ContinuousClock()
    let started = clock.now
    if let outside = snapshotOutsideSuite(script, options: options) { return outside }
    if let campaigns = script.campaigns {
      var outcome = CampaignReplay.run(script, campaigns)
      outcome.duration = seconds(clock.now - started)
      return outcome
    }
    let loaded = cache.load(path: script.flowPath, iosQuirks: script.iosQuirks)
    guard let document = loaded.document, loaded.isRunnable else {
      // A file that is not a flow at all may be anything a script names (`/etc/passwd`): it is
      // reported by name and kind only, never quoted (docs/security.md).
      let isFlow = loaded.document != nil
      let diagnostics = isFlow ? loaded.diagnostics : notAFlow(loaded)
      let errors = diagnostics.filter { $0.severity == .error }
      let formatter = DiagnosticFormatter(sources: isFlow ? [loaded.file: loaded.source] : [:])
      var message =
        "\(script.file)\(script.flowLocation.map { ":\($0)" } ?? ""): the flow '\(script.flow)' cannot be loaded\n"
      message += formatter.text(errors)
      // Exit 2 only when the flow could not be read or parsed; a flow that parsed with
      // errors fails the script (exit 1), as every command treats it (docs/loading.md).
      return ScriptOutcome(
        file: script.file, name: script.name, status: isFlow ? .failed : .error, message: message,
        summary: errors.first.map { summaryLine($0, file: loaded.file) } ?? "\(loaded.file): cannot load the flow",
        failureFile: errors.first?.file ?? loaded.file, failureLocation: errors.first?.location,
        diagnostics: diagnostics, duration: seconds(clock.now - started))
    }
    if let problem = VariantAssignment.unknownOverrides(script.variants, in: document).first {
      var outcome = unknownVariant(problem, in: script)
      outcome.duration = seconds(clock.now - started)
      return outcome
    }
    var run = ScriptRun(script: script, options: options)
    run.execute(document: document)
    var outcome = run.outcome
    outcome.duration = seconds(clock.now - started)
    return outcome
  }

  /// Runs `script` and returns the session as it stood when the run stopped (after the last
  /// step, or at the failing one), with the outcome; nil session when the flow cannot load.
  public static func replay(
    _ script: ReplayScript, cache: FlowCache = FlowCache(), options: ReplayOptions = ReplayOptions()
  ) -> (outcome: ScriptOutcome, session: Session?) {
    let loaded = cache.load(path: script.flowPath, iosQuirks: script.iosQuirks)
    guard snapshotOutsideSuite(script, options: options) == nil, let document = loaded.document, loaded.isRunnable,
      VariantAssignment.unknownOverrides(script.variants, in: document).isEmpty
    else {
      return (run(script, cache: cache, options: options), nil)
    }
    var run = ScriptRun(script: script, options: options, keepsHistory: true)
    run.execute(document: document)
    return (run.outcome, run.session)
  }

  /// The one diagnostic for a file named by `flow:` that did not load as a document: where and
  /// what kind of problem (unreadable, not JSON, not a flow), without the loader's message or an
  /// excerpt, which quote the file. `flowrun check FILE` shows them.
  static func notAFlow(_ loaded: LoadResult) -> [Diagnostic] {
    guard let first = loaded.diagnostics.first(where: { $0.severity == .error }) else { return [] }
    let message: String
    if first.id == DiagnosticID.Load.io.id {
      message = first.message  // the system's words: the file's name and kind, no content
    } else if first.id == DiagnosticID.Load.unsupportedDialect.id || first.id == DiagnosticID.Nuxie.tooManyControls.id {
      message = first.message  // what the document is or holds, told by its keys and counts: no content
    } else if first.id.hasPrefix(DiagnosticID.JSON.prefix) {
      message = "not a flow: the file is not JSON (`flowrun check \(loaded.file)` shows where it stops)"
    } else {
      message = "not a flow: JSON, but not a flow or a bundle (an object with 'screens' or 'flows')"
    }
    return [Diagnostic(id: first.id, severity: .error, message: message, file: loaded.file, location: first.location)]
  }

  /// A `snapshot:` step naming a file outside the script's suite: a script error (exit 2) at the
  /// step, found before anything is read or run (docs/security.md).
  static func snapshotOutsideSuite(_ script: ReplayScript, options: ReplayOptions) -> ScriptOutcome? {
    let root = SnapshotFiles.suiteRoot(of: script.file, roots: options.suiteRoots)
    var diagnostics: [Diagnostic] = []
    for (index, step) in script.steps.enumerated() {
      guard case .snapshot(let file) = step.kind,
        case .failure(let problem) = SnapshotFiles.resolve(file, script: script.file, root: root)
      else { continue }
      diagnostics.append(
        Diagnostic(
          .Script.snapshotOutsideSuite, message: problem.message, file: script.file,
          location: step.location, path: "steps[\(index)].snapshot"))
    }
    guard let first = diagnostics.first else { return nil }
    // The script's own bytes, for the excerpts (read again: this is the error path only).
    let formatter = DiagnosticFormatter(sources: [script.file: ScriptParser.load(path: script.file).source])
    return ScriptOutcome(
      file: script.file, name: script.name, status: .error, message: formatter.text(diagnostics),
      summary: summaryLine(first, file: script.file), failureFile: script.file, failureLocation: first.location,
      diagnostics: diagnostics)
  }

  /// A `variants:` entry naming an experiment or variant the flow does not declare: a script
  /// error (exit 2) at the entry, not a silent override that would skew the events.
  static func unknownVariant(_ problem: VariantOverrideProblem, in script: ReplayScript) -> ScriptOutcome {
    let diagnostic = Diagnostic(
      .Script.unknownVariant, message: "variants: \(problem.message)", file: script.file,
      location: script.variantLocations[problem.experiment] ?? script.flowLocation,
      path: "variants.\(problem.experiment)")
    let formatter = DiagnosticFormatter(sources: [
      script.file: (try? TextFile.read(script.file, limit: .script).get()) ?? []
    ])
    return ScriptOutcome(
      file: script.file, name: script.name, status: .error, message: formatter.text([diagnostic]),
      summary: summaryLine(diagnostic, file: script.file), failureFile: script.file,
      failureLocation: diagnostic.location, diagnostics: [diagnostic])
  }

  static func seconds(_ duration: Duration) -> Double {
    let (s, attos) = duration.components
    return Double(s) + Double(attos) / 1e18
  }

  static func summaryLine(_ diagnostic: Diagnostic, file: String) -> String {
    let place = diagnostic.location.map { "\(diagnostic.file ?? file):\($0)" } ?? (diagnostic.file ?? file)
    return "\(place): \(diagnostic.message)"
  }
}

/// A failure found while running: where in the script, one headline, detail lines.
struct StepFailure: Error {
  var location: SourceLocation?
  var headline: String
  var details: [String]
}

/// One script being replayed.
struct ScriptRun {
  let script: ReplayScript
  let options: ReplayOptions
  var session: Session?
  var transcript: ReplayTranscript
  var failure: StepFailure?
  var failedStep: Int?
  var stepsRun = 0
  var updatedSnapshots: [String] = []
  var snapshots: [String] = []
  /// The session's submission row as of the last accepted input (written to `options.store`).
  var submissions = SubmissionRecorder()
  /// Whether the row is kept: written to a store or checked by an `expect: submission:`.
  /// Otherwise it is not built (it merges all the data after every input: quadratic in a long
  /// walk, 11 s for a script of 10,000 screens).
  let keepsSubmission: Bool
  /// Whether the session keeps its events and decision trace: something reads them (an
  /// `expect` of events, `--trace`, the submission row, a caller given the session). Otherwise
  /// it keeps the path alone and builds no events: formatting them was a third of a replay.
  let keepsHistory: Bool

  init(script: ReplayScript, options: ReplayOptions, keepsHistory: Bool = false) {
    self.script = script
    self.options = options
    func expects(_ wanted: (Expectation) -> Bool) -> Bool {
      script.expectation.map(wanted) == true
        || script.steps.contains { if case .expect(let expectation) = $0.kind { wanted(expectation) } else { false } }
    }
    keepsSubmission = options.store != nil || expects { $0.submission != nil }
    self.keepsHistory =
      keepsHistory || keepsSubmission || options.trace || expects { $0.events != nil || $0.notEvents != nil }
    let snapshots = script.steps.contains { if case .snapshot = $0.kind { true } else { false } }
    transcript = ReplayTranscript(enabled: snapshots)
  }

  var outcome: ScriptOutcome {
    var trace: [String] = []
    if options.trace, let session {
      trace = session.trace.flatMap(\.lines)
    }
    guard let failure else {
      return ScriptOutcome(
        file: script.file, name: script.name, status: .passed, stepsRun: stepsRun, trace: trace,
        updatedSnapshots: updatedSnapshots, snapshots: snapshots)
    }
    let position = failure.location.map { "\(script.file):\($0)" } ?? script.file
    var lines = ["\(position): \(failure.headline)"]
    if let failedStep {
      let step = script.steps[failedStep]
      lines.append("  at step \(failedStep + 1) of \(script.steps.count) (\(step.keyword)) in '\(script.name)'")
    } else {
      lines.append("  in the final expect of '\(script.name)'")
    }
    lines += failure.details.map { $0.isEmpty ? "" : "  " + $0 }
    if let session {
      lines.append("")
      lines.append("  screen '\(session.currentScreen.id)' (\(session.status.name)) at that point:")
      // Drawn as `run` draws it: templates over untouched fields read their defaults.
      let rendered = ScreenRenderer.render(
        session.showingDefaults, options: RenderOptions(width: options.width, color: false))
      for line in rendered.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
        lines.append(line.isEmpty ? "  |" : "  | " + line)
      }
      if !session.validationErrors.isEmpty {
        lines.append(
          "  validation errors: " + session.validationErrors.map { "\($0.key): \($0.value)" }.joined(separator: "; "))
      }
    }
    return ScriptOutcome(
      file: script.file, name: script.name, status: .failed, message: lines.joined(separator: "\n") + "\n",
      summary: "\(position): \(failure.headline)", failureFile: script.file, failureLocation: failure.location,
      stepsRun: stepsRun, trace: trace, updatedSnapshots: updatedSnapshots, snapshots: snapshots)
  }

  mutating func execute(document: FlowDocument) {
    let started: (Session, [Output])
    var config = script.sessionConfig
    if !keepsHistory { (config.recordsHistory, config.recordsPath, config.emitsEvents) = (false, true, false) }
    do {
      started = try Session.start(document: document, config: config)
    } catch {
      failure = StepFailure(
        location: script.flowLocation, headline: "the session cannot start: \(error.message)", details: [])
      return
    }
    var first = started.0
    if !options.presetData.isEmpty { first.setVariables(options.presetData) }
    session = first
    transcript.start(session: first, width: options.width)
    answerUnhandledAction(after: -1)
    do {
      for index in script.steps.indices {
        failedStep = index
        stepsRun = index + 1
        try perform(index)
      }
      failedStep = nil
      if let expectation = script.expectation {
        try check(expectation)
      }
    } catch let error as StepFailure {
      failure = error
    } catch {
      failure = StepFailure(location: nil, headline: "\(error)", details: [])
    }
  }

  // MARK: Steps

  mutating func perform(_ index: Int) throws {
    let step = script.steps[index]
    switch step.kind {
    case .expect(let expectation):
      try check(expectation)
      return
    case .snapshot(let file):
      try snapshot(file, step: step)
      return
    case .campaignEvent, .campaignProfile:
      // The parser keeps campaign steps out of flow scripts.
      throw StepFailure(location: step.location, headline: "'\(step.keyword)' is a campaign step", details: [])
    case .tap, .fill, .select, .set, .result, .hook, .webhook, .chat, .next, .back, .skip, .dismiss, .complete, .wait,
      .goto, .track, .decline:
      break
    }
    guard var session else { throw StepFailure(location: step.location, headline: "no session", details: []) }
    self.session = nil  // keep the session's storage uniquely referenced while it changes
    let inputs = step.inputs(on: session)
    transcript.input(step.transcriptText(session.secrets))
    var problems: [String] = []
    var rejections: [String] = []
    ScriptStep.send(inputs) { input in
      let outputs = session.send(input)
      if !outputs.isRejected { store(session) }
      for output in outputs {
        switch output {
        case .rejected(let message):
          problems.append(message)
          rejections.append(message)
          transcript.note("rejected: \(message)")
        case .validationFailed(let fields):
          for field in fields {
            problems.append("\(field.field): \(field.message)")
            transcript.note("invalid \(field.field): \(field.message)")
          }
        case .actionFailed(let identifier, let message):
          problems.append(message)
          transcript.note("\(identifier) failed: \(message)")
        case .error(let message):
          problems.append(message)
          transcript.note("error: \(message)")
        default:
          break
        }
      }
      return outputs
    }
    self.session = session
    if let expected = step.expectError {
      guard !problems.isEmpty else {
        throw StepFailure(
          location: step.location,
          headline: "expected the input to be rejected with \"\(expected)\", but it was accepted",
          details: ["step: \(step.transcriptText(session.secrets))"])
      }
      guard problems.contains(where: { $0.lowercased().contains(expected.lowercased()) }) else {
        throw StepFailure(
          location: step.location,
          headline: "expected an error containing \"\(expected)\"",
          details: ["step: \(step.transcriptText(session.secrets))"] + problems.map { "actual error: \($0)" })
      }
    } else if let rejection = rejections.first {
      throw StepFailure(
        location: step.location, headline: "the input was rejected: \(rejection)",
        details: [
          "step: \(step.transcriptText(session.secrets))",
          "(add `expect_error: TEXT` to the step when the rejection is what you test)",
        ])
    }
    transcript.screen(session: session, width: options.width)
    answerUnhandledAction(after: index)
  }

  /// A pending awaited action that no later step answers fails now
  /// (`ReplayScript.unhandledActionFailure`).
  mutating func answerUnhandledAction(after index: Int) {
    guard var session, let failure = script.unhandledActionFailure(after: index, on: session),
      case .awaiting(let pending) = session.status
    else { return }
    self.session = nil
    if !session.send(failure).isRejected { store(session) }
    transcript.note("unhandled action: \(pending.identifier) (no mock and no result step)")
    transcript.screen(session: session, width: options.width)
    self.session = session
  }

  /// The row after an accepted input, upserted in the store when there is one (a store that
  /// failed is reported once by the command: the script goes on).
  mutating func store(_ session: Session) {
    guard keepsSubmission else { return }
    let row = submissions.accept(session)
    options.store?.save(row)
  }

  // MARK: Snapshots

  mutating func snapshot(_ file: String, step: ScriptStep) throws {
    let root = SnapshotFiles.suiteRoot(of: script.file, roots: options.suiteRoots)
    let path: String
    switch SnapshotFiles.resolve(file, script: script.file, root: root) {
    case .success(let resolved): path = resolved
    case .failure(let problem): throw StepFailure(location: step.location, headline: problem.message, details: [])
    }
    snapshots.append(path)
    let text = transcript.text
    if options.updateSnapshots {
      if let refusal = SnapshotFiles.refusalToWrite(path, script: script) {
        throw StepFailure(location: step.location, headline: "will not write snapshot: \(refusal)", details: [])
      }
      if let problem = TextFile.write(text, to: path, createDirectories: true) {
        throw StepFailure(location: step.location, headline: "cannot write snapshot \(path): \(problem)", details: [])
      }
      updatedSnapshots.append(path)
      return
    }
    let bytes: [UInt8]
    switch TextFile.read(path, limit: .snapshot) {
    case .success(let read): bytes = read
    case .failure(let failure) where failure.code == ENOENT:
      throw StepFailure(
        location: step.location, headline: "snapshot file \(path) does not exist",
        details: ["run `flowrun test --update` to record it"])
    case .failure(let failure):
      throw StepFailure(
        location: step.location, headline: "cannot read snapshot \(path): \(failure.message)", details: [])
    }
    if let refusal = SnapshotFiles.refusalToCompare(path, bytes: bytes) {
      throw StepFailure(location: step.location, headline: refusal, details: [])
    }
    let expected = String(decoding: bytes, as: UTF8.self)
    guard expected != text else { return }
    throw StepFailure(
      location: step.location, headline: "the transcript differs from snapshot \(path)",
      details: LineDiff.lines(expected: expected, actual: text) + ["(`flowrun test --update` rewrites it)"])
  }

  // MARK: Expectations

  func check(_ expectation: Expectation) throws {
    guard let session else { throw StepFailure(location: expectation.location, headline: "no session", details: []) }
    // Every mismatch of the expectation is reported, not only the first.
    var failures: [StepFailure] = []
    func attempt(_ body: () throws -> Void) throws {
      do { try body() } catch let failure as StepFailure { failures.append(failure) }
    }
    try attempt {
      if let item = expectation.screen, session.currentScreen.id != item.value {
        var headline = "expected screen '\(item.value)', found '\(session.currentScreen.id)'"
        if session.status.isEnded { headline += " (the session has \(session.status.name))" }
        throw StepFailure(
          location: item.location, headline: headline,
          details: ["path so far: \(session.path.joined(separator: " → "))"])
      }
    }
    try attempt {
      if let item = expectation.status, session.status.name != item.value {
        throw StepFailure(
          location: item.location, headline: "expected status \(item.value), found \(statusText(session.status))",
          details: [])
      }
    }
    // `completed:` and `dismissed:`: whether the session ended so.
    for (item, status) in [(expectation.completed, SessionStatus.completed), (expectation.dismissed, .dismissed)] {
      try attempt {
        if let item, (session.status == status) != item.value {
          throw StepFailure(
            location: item.location,
            headline: item.value
              ? "expected the flow to be \(status.name), but it is \(statusText(session.status))"
              : "expected the flow not to be \(status.name), but it is",
            details: ["last screen: \(session.currentScreen.id)"])
        }
      }
    }
    try attempt {
      if let item = expectation.awaiting {
        let pending = session.pending?.identifier
        if pending != item.value {
          throw StepFailure(
            location: item.location,
            headline: "expected the session to await '\(item.value)', "
              + (pending.map { "but it awaits '\($0)'" } ?? "but nothing is pending (\(statusText(session.status)))"),
            details: [])
        }
      }
    }
    try attempt {
      if let item = expectation.text {
        let rendered = ScreenRenderer.render(session, options: RenderOptions(width: 10_000, color: false))
        let haystack = collapse(rendered) + "\n" + ScreenText.lines(session).map(collapse).joined(separator: "\n")
        for text in item.value where !haystack.contains(collapse(text)) {
          throw StepFailure(
            location: item.location,
            headline: "expected the screen '\(session.currentScreen.id)' to show \"\(text)\"",
            details: ["texts on the screen:"] + ScreenText.lines(session).map { "  \"\($0)\"" })
        }
      }
    }
    try attempt {
      if let item = expectation.errors {
        try checkErrors(item, session: session)
      }
    }
    try attempt {
      if let item = expectation.data {
        let shown = SecretPolicy(fields: session.secrets.fields, reveals: options.showSecrets)
        let diff = DataDiff.compare(
          expected: item.value,
          actual: .object(DataDiff.maskMatched(session.data, expected: item.value, session.secrets)),
          exact: expectation.exact, shown: shown)
        if !diff.isEmpty {
          throw StepFailure(
            location: item.location,
            headline: expectation.exact ? "collected data is not exactly as expected" : "collected data does not match",
            details: diff + ["", "actual data: \(Value.object(shown.data(session.data)).json)"])
        }
      }
    }
    try attempt {
      if let item = expectation.events {
        try EventCheck.subsequence(item, events: session.events)
      }
    }
    try attempt {
      if let item = expectation.notEvents {
        try EventCheck.none(item, events: session.events)
      }
    }
    try attempt {
      if let item = expectation.path, session.path != item.value {
        var details = [
          "expected: \(item.value.joined(separator: " → "))",
          "actual:   \(session.path.joined(separator: " → "))",
        ]
        if let first = zip(item.value, session.path).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
          details.append(
            "first difference at position \(first.offset + 1): expected '\(first.element.0)', found '\(first.element.1)'"
          )
        } else if item.value.count < session.path.count {
          details.append("the session went further: \(session.path[item.value.count...].joined(separator: " → "))")
        } else {
          details.append(
            "the session stopped early; missing: \(item.value[session.path.count...].joined(separator: " → "))")
        }
        throw StepFailure(location: item.location, headline: "the screen path differs", details: details)
      }
    }
    try attempt {
      if let item = expectation.submission { try checkSubmission(item) }
    }
    guard let first = failures.first else { return }
    guard failures.count > 1 else { throw first }
    var details = first.details
    for other in failures.dropFirst() {
      details.append("")
      details.append("also: " + (other.location.map { "line \($0.line): " } ?? "") + other.headline)
      details += other.details.map { $0.isEmpty ? "" : "  " + $0 }
    }
    throw StepFailure(
      location: first.location,
      headline: first.headline + " (and \(failures.count - 1) more mismatch\(failures.count == 2 ? "" : "es"))",
      details: details)
  }

  func checkSubmission(_ item: Expectation.Item<SubmissionExpectation>) throws {
    guard var row = submissions.row else {
      throw StepFailure(
        location: item.location, headline: "expected a submission, but the session accepted no input yet",
        details: [])
    }
    if let store = options.store {
      let stored: Submission?
      do throws(StoreError) { stored = try store.submission(id: row.id) } catch {
        throw StepFailure(
          location: item.location, headline: "cannot read the submission: \(error.message)", details: [])
      }
      guard let stored else {
        throw StepFailure(
          location: item.location, headline: "expected a submission, but \(store.url) has no row \(row.id)",
          details: [])
      }
      row = stored
    }
    let expected = item.value
    var details: [String] = []
    if let data = expected.data {
      details += DataDiff.compare(expected: data, actual: .object(row.data), exact: false).map { "data: " + $0 }
    }
    if let id = expected.lastScreenID, row.lastScreenID != id {
      details.append("last_screen_id: expected '\(id)', actual \(row.lastScreenID.map { "'\($0)'" } ?? "null")")
    }
    if let index = expected.lastScreenIndex, row.lastScreenIndex != index {
      details.append("last_screen_index: expected \(index), actual \(row.lastScreenIndex.map(String.init) ?? "null")")
    }
    if let completed = expected.completed, (row.completedAt != nil) != completed {
      details.append(
        "completed: expected \(completed), actual \(row.completedAt.map { "true (completed_at \($0))" } ?? "false")")
    }
    guard !details.isEmpty else { return }
    throw StepFailure(
      location: item.location, headline: "the submission does not match",
      details: details + ["", "actual submission: \(row.apiValue.json)"])
  }

  func checkErrors(_ item: Expectation.Item<[String: String]>, session: Session) throws {
    let actual = session.validationErrors
    if item.value.isEmpty {
      guard actual.isEmpty else {
        throw StepFailure(
          location: item.location, headline: "expected no validation errors",
          details: actual.map { "\($0.key): \($0.value)" })
      }
      return
    }
    var details: [String] = []
    for field in item.value.keys.sorted() {
      let expected = item.value[field] ?? ""
      if let message = actual[field] {
        if !message.lowercased().contains(expected.lowercased()) {
          details.append("\(field): expected \"\(expected)\", actual \"\(message)\"")
        }
      } else {
        details.append("\(field): expected \"\(expected)\", but the field has no error")
      }
    }
    guard details.isEmpty else {
      let others = actual.filter { item.value[$0.key] == nil }.map { "\($0.key): \($0.value)" }
      throw StepFailure(
        location: item.location, headline: "validation errors differ",
        details: details + (others.isEmpty ? [] : ["other errors shown: " + others.joined(separator: "; ")]))
    }
  }

  func statusText(_ status: SessionStatus) -> String {
    switch status {
    case .awaiting(let pending): "awaiting '\(pending.identifier)'"
    case .quit(let reason): "quit (\(reason.rawValue))"
    case .failed(let message): "failed (\(message))"
    default: status.name
    }
  }

  func collapse(_ text: String) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ").lowercased()
  }
}

extension ScriptStep {
  /// The step as one line of the transcript (`tap: Get Started`), secrets masked.
  func transcriptText(_ secrets: SecretPolicy) -> String {
    func values(_ fields: [FieldValue]) -> String {
      fields.map { "\($0.field)=\(secrets.shown($0.value, of: $0.field).json)" }.joined(separator: ", ")
    }
    return switch kind {
    case .tap(.label(let label)): "tap: \(label)"
    case .tap(.number(let n)): "tap: \(n)"
    case .tap(.blockID(let id)): "tap: {id: \(id)}"
    case .fill(let fields): "fill: " + values(fields)
    case .set(let fields): "set: " + values(fields)
    case .select(let picks):
      "select: " + picks.map { "\($0.field)=\($0.items.joined(separator: ","))" }.joined(separator: ", ")
    case .result(let result):
      switch result {
      case .success(let data): "result: success" + (data.map { " \(secrets.data($0).json)" } ?? "")
      case .failure(let error): "result: failure" + (error.map { " \($0)" } ?? "")
      case .cancelled: "result: cancelled"
      }
    case .hook(let answer): "hook: \(answer.value.json)"
    case .webhook(let response): "hook: \(response.value.json)"
    case .chat(let turn): "chat: \(turn.value.json)"
    case .wait(let ms): "wait: \(ms)"
    case .goto(let screen): "goto: \(screen)"
    case .snapshot(let file): "snapshot: \(file)"
    case .track(let name, let properties):
      "track: \(name)" + (properties.isEmpty ? "" : " \(Value.object(properties).json)")
    case .campaignEvent(let name, let properties): "track: \(name) \(properties.json)"
    case .campaignProfile(let properties): "profile: \(properties.json)"
    case .expect, .next, .back, .skip, .dismiss, .complete, .decline: keyword
    }
  }
}
