import ArgumentParser
import FlowDriver
import FlowEngine
import FlowExpression
import FlowFormat
import FlowReplay
import FlowStore
import FlowSupport
import FlowTerminal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Flowrun {
  /// `flowrun run FLOW`: walk a flow, interactively on a terminal, by the line protocol on a pipe.
  struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "run",
      abstract: "Walk a flow: interactive on a terminal, line protocol on a pipe.",
      discussion: """
        Answers follow the input language of docs/cli.md (:help lists the commands). \
        Exits 0 when the flow completed or was dismissed, 1 when the session ended otherwise \
        (:quit, Ctrl-D, end of input, an awaited action nobody answered, an error, too many \
        lines in a row that changed nothing, SIGINT, SIGTERM or SIGHUP, standard output or \
        --events that cannot be written), 2 when the flow cannot be read or parsed or an \
        output would overwrite an input or another output, 64 on wrong usage.
        """
    )

    @Argument(help: "The flow or bundle JSON file.")
    var flow: String

    @OptionGroup(title: "Session")
    var session: SessionOptions

    @OptionGroup(title: "Loading")
    var loading: LoadingOptions

    @OptionGroup(title: "Terminal")
    var terminal: TerminalRunOptions

    @OptionGroup(title: "Earlier answers")
    var earlier: DataOptions

    @Option(help: ArgumentHelp("Write every event to FILE as NDJSON, flushed per event.", valueName: "file"))
    var events: String?

    @Option(help: ArgumentHelp("Write the collected data to FILE as JSON when the session ends.", valueName: "file"))
    var data: String?

    @Flag(help: "Print every decision as it is made.")
    var trace = false

    @Flag(help: "Write secret answers (password fields) in clear in --data and --events (masked everywhere else).")
    var showSecrets = false

    @Option(help: ArgumentHelp("auto (a terminal without NO_COLOR), always or never.", valueName: "when"))
    var color: ColorMode = .auto

    @Option(help: ArgumentHelp("Render width, 20 to 1000 columns (default: the terminal's, else 80).", valueName: "n"))
    var width: Checked<Width>?

    @Option(help: ArgumentHelp("Write the session as a replay script to FILE when it ends.", valueName: "file"))
    var record: String?

    @Option(
      help: ArgumentHelp(
        "Play a replay script's steps first (its mocks too), then go on with the input.", valueName: "script"))
    var answers: String?

    @Option(
      help: ArgumentHelp(
        "Answer each onBeforeStepAdvance with CMD: the request JSON on its stdin, the result JSON on its stdout (no shell; words split at blanks, '…' and \"…\" quote).",
        valueName: "cmd"))
    var hookCommand: String?

    @Option(help: ArgumentHelp("How long --hook-command may take, in ms (default 5000).", valueName: "ms"))
    var hookTimeout: Checked<HookTimeout>?

    @Flag(help: "Call no server webhook: answer each attempt at the prompt, from --answers or with --mock webhook.")
    var offline = false

    @Option(
      help: ArgumentHelp(
        "Keep who completed onboarding in FILE between runs; a completed user is told so.", valueName: "file"))
    var state: String?

    @Flag(help: "With --state: forget that the user completed onboarding, then run (resetOnboarding()).")
    var reset = false

    @Option(
      help: ArgumentHelp(
        "Save the submission after every accepted input: sqlite:PATH, a file path or postgres://… (docs/submissions.md).",
        valueName: "url"))
    var store: Checked<StoreLocation>?

    @Flag(
      help: "Reload the flow when its file is saved, replay the answers so far on it and go on (docs/authoring.md).")
    var watch = false

    func validate() throws {
      _ = try width?.get()
      _ = try hookTimeout?.get()
      if let hookCommand, HookCommand.split(hookCommand) == nil {
        throw ValidationError("--hook-command needs a program (and closed quotes), not '\(hookCommand)'")
      }
      _ = try store?.get()
      if reset, state == nil { throw ValidationError("--reset needs --state FILE") }
    }

    func run() throws {
      // No output may be an input or another output: checked before anything is read or written.
      var inputs = [FileIdentity.Role("the flow", flow)]
      if let answers { inputs.append(FileIdentity.Role("--answers", answers)) }
      if let dataIn = earlier.dataIn { inputs.append(FileIdentity.Role("--data-in", dataIn)) }
      // Answers redirected from a file (`< answers.txt`): an output there would empty it first.
      inputs.append(FileIdentity.Role("standard input", "/dev/stdin"))
      let store = try store?.get()
      let outputs = [
        ("--events", events), ("--data", data), ("--record", record), ("--state", state),
        ("--store", store?.url.sqlitePath),
      ].compactMap { option, path in path.map { FileIdentity.Role(option, $0) } }
      if let clash = FileIdentity.clash(inputs: inputs, outputs: outputs) {
        Output.error.write("flowrun: \(clash)\n")
        throw ExitCode(2)
      }

      var loadOptions = loading.load
      loadOptions.iosQuirks = session.iosQuirks
      let (document, loaded) = try loadRunnableFlow(flow, options: loadOptions, allDiagnostics: true)
      warnAboutCheckErrors(loaded, path: flow)

      let presetData = try earlier.values()
      var config = try session.makeConfig(defaultNow: Self.wallClockMilliseconds())
      // The identifiers walk every control of the flow: only for mocks to check.
      var identifiers = config.mocks.isEmpty ? [] : actionIdentifiers(in: document)
      try refuseUnusedMocks(config.mocks.keys, used: identifiers)
      let stepIDs = Set(document.flows.flatMap { $0.screens.map(\.id) })
      for (kind, steps) in [
        ("hook", Array(config.hookMocks.keys)), ("render", Array(config.renderMocks.keys)),
        ("webhook", Array(config.webhookMocks.keys)),
        ("chat", Array(config.chatMocks.keys)),
      ] {
        // `chat.STEP.TURN` answers one turn of a chat step.
        let named = steps.map { step in
          guard kind == "chat", !stepIDs.contains(step), let dot = step.lastIndex(of: "."),
            Int(step[step.index(after: dot)...]) != nil
          else { return step }
          return String(step[..<dot])
        }
        if let unknown = named.sorted().first(where: { !$0.isEmpty && !stepIDs.contains($0) }) {
          throw ValidationError("--mock \(kind).\(unknown): no step '\(unknown)' in the flow")
        }
      }
      config.waitsForResults = true
      if hookCommand != nil { (config.asksHooks, config.asksRenderHooks) = (true, true) }
      if let problem = VariantAssignment.unknownOverrides(config.variantOverrides, in: document).first {
        // An override a `--variant` did not give came from the context file: name it.
        let byFlag = session.variants.contains { (try? $0.get())?.experiment == problem.experiment }
        let source =
          byFlag || session.context == nil
          ? "--variant \(problem.experiment)=\(problem.variant)"
          : "--context \(session.context ?? ""): experimentOverrides \(problem.experiment)=\(problem.variant)"
        throw ValidationError("\(source): \(problem.message)")
      }
      for flag in config.unavailableFlags.sorted() where !document.experiments.contains(where: { $0.id == flag }) {
        let known = document.experiments.map(\.id)
        throw ValidationError(
          "--flag-unavailable \(flag): no experiment '\(flag)' with variants in the flow"
            + (known.isEmpty ? "" : " (experiments: \(known.joined(separator: ", ")))"))
      }
      var completions = CompletionState()
      if let state {
        guard let loaded = try Self.completions(in: state, of: config.userID, reset: reset) else { return }
        completions = loaded
      }
      var steps: [ScriptStep] = []
      if let answers {
        let parsed = ScriptParser.load(path: answers)
        if !parsed.diagnostics.isEmpty {
          Output.error.write(DiagnosticFormatter(sources: [answers: parsed.source]).text(parsed.diagnostics))
        }
        guard let script = parsed.script, !parsed.diagnostics.hasErrors else { throw ExitCode(2) }
        steps = script.steps
        config.mocks.merge(script.mocks) { fromCommandLine, _ in fromCommandLine }
        if script.sessionConfig.asksHooks { config.asksHooks = true }
        if script.sessionConfig.asksRenderHooks { config.asksRenderHooks = true }
      }
      if !config.mocks.isEmpty, identifiers.isEmpty { identifiers = actionIdentifiers(in: document) }
      warnAboutUnusedMocks(config.mocks.keys, used: identifiers)  // --mock ones are used: refused above

      let submissions = try store?.open(creates: true)
      let eventsFD = try events.map { try Self.openForWriting($0, option: "--events") }
      defer { if let eventsFD { close(eventsFD) } }
      let eventStream = eventsFD.map { OutputChannel(fileDescriptor: $0) }

      // SIGINT, SIGTERM and SIGHUP end the session cleanly from here until the files are
      // written: Ctrl-C cancels a line on a terminal and quits on a pipe; the others end it as
      // `terminated`. A blocked read returns at once.
      StopSignals.startCatching()
      defer { StopSignals.stopCatching() }
      let stdinIsTTY = TerminalInfo.isTTY(STDIN_FILENO)
      let editor = TerminalInfo.wantsLineEditor() ? LineEditor() : nil
      let source: any LineSource =
        editor ?? PlainLineSource(showsPrompt: stdinIsTTY, cancelsOnInterrupt: true)
      defer { source.shutdown() }

      let channel = Output.standard.channel
      // Off a terminal the width cannot change: asked once, not before every screen.
      let fixedWidth = try width?.get().value ?? (TerminalInfo.isTTY(STDOUT_FILENO) ? nil : TerminalInfo.width())
      let start = ContinuousClock.now
      var options = DriverOptions(
        width: { fixedWidth ?? TerminalInfo.width() },
        color: color.enabledForStandardOutput,
        interactive: stdinIsTTY,
        traceDecisions: trace,
        // --no-auto-advance keeps the virtual clock off real time: only :wait moves it.
        elapsedMilliseconds: stdinIsTTY && !terminal.noAutoAdvance
          ? {
            let elapsed = ContinuousClock.now - start
            return elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
          } : nil,
        shouldStop: {
          if StopSignals.termination != nil { return .terminated }
          if channel.isClosed || eventStream?.isClosed == true { return .outputFailed }
          if !stdinIsTTY, StopSignals.takeInterrupt() { return .quit }
          return nil
        },
        autoAdvances: stdinIsTTY && !terminal.noAutoAdvance)
      options.offline = offline
      if let hookCommand, let argv = HookCommand.split(hookCommand) {
        options.hookCommand = HookCommand(
          argv: argv, timeoutMs: try hookTimeout?.get().value ?? HookCommand.defaultTimeoutMs)
      }

      if watch { options.reload = try watchedReload(flow, options: loadOptions) }

      let driver: Driver
      do {
        driver = try Driver(
          document: document, config: config, flowPath: flow, source: source,
          output: { channel.write($0) }, options: options)
      } catch {
        throw ValidationError(error.message)
      }
      driver.answers = steps
      driver.presetData = presetData
      driver.protectedFiles = Array(inputs.dropFirst()) + outputs
      // --data and --events are the only outputs --show-secrets reveals (docs/security.md).
      let secrets = SecretPolicy(document: document, reveals: showSecrets)
      if let eventStream {
        driver.onEvent = { event in eventStream.write(secrets.event(event).value.json + "\n") }
      }
      if let submissions {
        var recorder = SubmissionRecorder()
        var reported = false
        let reveals = showSecrets
        driver.onAccepted = { session in
          // The first failure is said at once; the session goes on, and --data is still written.
          if !submissions.save(recorder.accept(session, revealsSecrets: reveals)), let failure = submissions.failure,
            !reported
          {
            reported = true
            Output.error.write("flowrun: \(failure.message); the session goes on without the store\n")
          }
        }
      }
      editor?.completions = { [weak driver] prefix in driver?.completions(linePrefix: prefix) ?? [] }
      editor?.remembers = { [weak driver] line in driver?.mayRemember(line) ?? false }

      driver.run()
      source.shutdown()

      var failed = false
      if let events, let code = eventStream?.failure {
        Output.error.write("flowrun: cannot write --events file \(events): \(systemMessage(code))\n")
        failed = true
      }
      if let data {
        if let problem = TextFile.write(Value.object(secrets.data(driver.session.data)).prettyJSON + "\n", to: data) {
          Output.error.write("flowrun: cannot write \(data): \(problem)\n")
          failed = true
        }
      }
      if let record {
        var recording = driver.recording
        recording.flowPath = FilePaths.relative(path: flow, fromDirectoryOf: record)
        if let problem = TextFile.write(ScriptWriter.yaml(for: recording, final: driver.session), to: record) {
          Output.error.write("flowrun: cannot write \(record): \(problem)\n")
          failed = true
        }
      }
      if let state, driver.session.status == .completed {
        completions.markCompleted(config.userID, at: driver.session.virtualNow, flow: driver.session.currentFlow.id)
        if let problem = completions.save(state) {
          Output.error.write("flowrun: cannot write \(state): \(problem)\n")
          failed = true
        }
      }
      if submissions?.failure != nil { failed = true }
      let status = ExitStatus.of(driver.session.status)
      let code = failed ? max(1, status) : status
      // Exit here rather than return, as `check` does: releasing the session, its history and
      // the document object by object was a twentieth of a piped 1,000-screen walk. Every
      // output is written (`Output` does not buffer; the files above are closed), the line
      // source is shut down, and the kernel closes --events and drops the signal handlers.
      withExtendedLifetime((driver, document)) { Flowrun.finish(code == 0 ? nil : ExitCode(code)) }
    }

    /// `--state FILE`: the completions kept there, after `--reset` forgot the user's; nil when
    /// the user completed onboarding already (`isOnboardingCompleted`: the app shows its main
    /// screen, not the onboarding), which is said on standard output.
    static func completions(in state: String, of user: String, reset: Bool) throws -> CompletionState? {
      var completions: CompletionState
      switch CompletionState.load(state) {
      case .success(let loaded): completions = loaded
      case .failure(let problem):
        Output.error.write("flowrun: \(problem.message)\n")
        throw ExitCode(2)
      }
      if reset {
        completions.reset(user)
        if let problem = completions.save(state) {
          Output.error.write("flowrun: cannot write \(state): \(problem)\n")
          throw ExitCode(2)
        }
      } else if let done = completions.completion(of: user) {
        Output.standard.write(
          "user '\(user)' completed onboarding (flow '\(done.flow)', \(done.at)) per \(state); "
            + "nothing to show (--reset shows it again)\n")
        return nil
      }
      return completions
    }

    /// Opens (creates or truncates) an output file before the session starts, so a bad path
    /// fails at once.
    static func openForWriting(_ path: String, option: String) throws -> Int32 {
      let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      guard fd >= 0 else {
        Output.error.write("flowrun: cannot open \(option) file \(path): \(systemMessage(errno))\n")
        throw ExitCode(2)
      }
      return fd
    }

    /// The wall clock in epoch milliseconds: the virtual clock's start without `--now`.
    static func wallClockMilliseconds() -> Int64 {
      var spec = timespec()
      clock_gettime(CLOCK_REALTIME, &spec)
      return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
  }
}
