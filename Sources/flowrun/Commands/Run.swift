import ArgumentParser
import FlowDriver
import FlowEngine
import FlowFormat
import FlowReplay
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
      abstract: "Walk a flow: interactive on a terminal, line protocol on a pipe.",
      discussion: """
        Answers follow the input language of docs/cli.md (:help lists the commands). \
        Exits 0 when the flow completed or was dismissed, 1 when the session ended otherwise \
        (:quit, Ctrl-D, end of input, an awaited action nobody answered, an error), \
        2 when the flow cannot be read or parsed, 64 on wrong usage.
        """
    )

    @Argument(help: "The flow or bundle JSON file.")
    var flow: String

    @OptionGroup(title: "Session")
    var session: SessionOptions

    @Option(help: ArgumentHelp("Write every event to FILE as NDJSON, flushed per event.", valueName: "file"))
    var events: String?

    @Option(help: ArgumentHelp("Write the collected data to FILE as JSON when the session ends.", valueName: "file"))
    var data: String?

    @Flag(help: "Print every decision as it is made.")
    var trace = false

    @Option(help: ArgumentHelp("auto (a terminal without NO_COLOR), always or never.", valueName: "when"))
    var color: String = "auto"

    @Option(help: ArgumentHelp("Render width, 20 to 1000 columns (default: the terminal's, else 80).", valueName: "n"))
    var width: Int?

    @Option(help: ArgumentHelp("Write the session as a replay script to FILE when it ends.", valueName: "file"))
    var record: String?

    @Option(
      help: ArgumentHelp(
        "Play a replay script's steps first (its mocks too), then go on with the input.", valueName: "script"))
    var answers: String?

    mutating func validate() throws {
      guard ColorMode(rawValue: color) != nil else {
        throw ValidationError("--color must be auto, always or never, not '\(color)'")
      }
      try Bounds.width(width)
    }

    func run() throws {
      let (document, _) = try loadRunnableFlow(flow, allDiagnostics: true)

      var config = try session.makeConfig(defaultNow: Self.wallClockMilliseconds())
      config.interactive = true
      if let problem = VariantAssignment.unknownOverrides(config.variantOverrides, in: document).first {
        throw ValidationError("--variant \(problem.experiment)=\(problem.variant): \(problem.message)")
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
      }

      let eventsFD = try events.map { try Self.openForWriting($0, option: "--events") }
      defer { if let eventsFD { close(eventsFD) } }

      let stdinIsTTY = TerminalInfo.isTTY(STDIN_FILENO)
      Interrupts.unblock()  // Ctrl-C must reach us: it cancels a line, or ends a piped run cleanly
      let editor = TerminalInfo.wantsLineEditor() ? LineEditor() : nil
      let source: any LineSource =
        editor ?? PlainLineSource(showsPrompt: stdinIsTTY, cancelsOnInterrupt: true)
      defer { source.shutdown() }

      let channel = OutputChannel()
      let fixedWidth = width
      let start = ContinuousClock.now
      let options = DriverOptions(
        width: { fixedWidth ?? TerminalInfo.width() },
        color: TerminalInfo.colorEnabled(mode: ColorMode(rawValue: color) ?? .auto),
        interactive: stdinIsTTY,
        traceDecisions: trace,
        elapsedMilliseconds: stdinIsTTY
          ? {
            let elapsed = ContinuousClock.now - start
            return elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
          } : nil,
        shouldStop: stdinIsTTY ? { false } : { Interrupts.take() })

      let driver: Driver
      do {
        driver = try Driver(
          document: document, config: config, flowPath: flow, source: source,
          output: { channel.write($0) }, options: options)
      } catch {
        throw ValidationError(error.message)
      }
      driver.answers = steps
      if let eventsFD {
        driver.onEvent = { event in
          _ = FilePaths.writeAll(JSONBridge.line(event.value) + "\n", to: eventsFD)
        }
      }
      editor?.completions = { [weak driver] prefix in driver?.completions(linePrefix: prefix) ?? [] }

      driver.run()
      source.shutdown()

      var failed = false
      if let data {
        if let problem = FilePaths.write(JSONBridge.prettyText(driver.session.data) + "\n", to: data) {
          Output.error.write("flowrun: cannot write \(data): \(problem)\n")
          failed = true
        }
      }
      if let record {
        var recording = driver.recording
        recording.flowPath = FilePaths.relative(path: flow, fromDirectoryOf: record)
        if let problem = FilePaths.write(ScriptWriter.yaml(for: recording, final: driver.session), to: record) {
          Output.error.write("flowrun: cannot write \(record): \(problem)\n")
          failed = true
        }
      }
      let code = failed ? max(1, driver.exitCode) : driver.exitCode
      if code != 0 { throw ExitCode(code) }
    }

    /// Opens (creates or truncates) an output file before the session starts, so a bad path
    /// fails at once.
    static func openForWriting(_ path: String, option: String) throws -> Int32 {
      let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      guard fd >= 0 else {
        let reason = String(validatingCString: strerror(errno)) ?? "error \(errno)"
        Output.error.write("flowrun: cannot open \(option) file \(path): \(reason)\n")
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
