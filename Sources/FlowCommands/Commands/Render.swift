import ArgumentParser
import FlowDriver
import FlowExpression
import FlowFormat
import FlowRender
import FlowSupport
import FlowTerminal
import OrderedCollections

extension Flowrun {
  /// `flowrun render FLOW`: every screen (or one) as text, without running the flow.
  struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "render",
      abstract: "Print screens as text without running the flow (mock data fills templates).",
      discussion: """
        Each screen is drawn as `flowrun run` draws it, from a fresh session started on it, \
        with mock values derived from field names and types (name → Alex, email → \
        alex@example.com, sliders and toggles at their defaults, checklists on their first \
        items, $user.id → preview-user). Exits 0 on success; 1 when the flow loads with \
        errors that make it unrunnable; 2 when the file cannot be read or parsed; 64 for wrong \
        usage, including an unknown --flow or --screen (with a "did you mean" note).
        """
    )

    @Argument(help: "A flow or bundle JSON file.")
    var flow: String

    @Option(
      help: "Only this screen (searched in the entry flow first, then the others).",
      completion: FlowCompletions.screenIDs)
    var screen: String?

    @Option(name: .customLong("flow"), help: "Only this flow of a bundle.", completion: FlowCompletions.flowIDs)
    var flowID: String?

    @OptionGroup(title: "Loading")
    var loading: LoadingOptions

    @Option(help: "Width in columns, 20 to 1000 (default: the terminal's width, else 80).")
    var width: Checked<Width>?

    @Option(help: "Colour: auto (a terminal and no NO_COLOR), always or never.")
    var color: ColorMode = .auto

    @OptionGroup(title: "Earlier answers")
    var earlier: DataOptions

    @Flag(help: "Render again each time the file is saved, until Ctrl-C (docs/authoring.md).")
    var watch = false

    func validate() throws {
      _ = try width?.get()
    }

    func run() throws {
      let loaded = try loadRunnableFlow(flow, options: loading.load)
      var document = loaded.document
      let options = RenderOptions(
        width: try width?.get().value ?? TerminalInfo.width(), color: color.enabledForStandardOutput)
      let data = try earlier.values()
      try render(document, data: data, options: options)
      // Exit here, as `check` does: releasing a big document object by object (6,000 screens:
      // 160 M instructions) costs more than the kernel takes to drop the address space.
      guard watch else { withExtendedLifetime(loaded) { Flowrun.finish(nil) } }
      StopSignals.startCatching()
      defer { StopSignals.stopCatching() }
      let reload = try watchedReload(flow, options: loading.load)
      // Waits on nothing but the wake: a save, or a signal that ends the watch.
      while StopSignals.pending == nil {
        guard !StopSignals.waitReadable(-1), StopSignals.takeWake(), let next = reload(document) else { continue }
        switch next {
        case .failed(let diagnostics):
          Output.standard.write("\n" + diagnostics + "! the flow does not load; still showing the last good version\n")
        case .loaded(let loaded, let changes):
          document = loaded
          let note =
            changes.isEmpty ? "no change to screens, fields, rules or actions" : changes.joined(separator: "; ")
          Output.standard.write("\nreloaded: \(terminalSafe(note))\n\n")
          try render(document, data: data, options: options)
        }
      }
    }

    /// Threads drawing the screens: 2, or 1 with `FLOWRUN_RENDER_THREADS=1` (to measure the
    /// second thread's gain; docs/performance.md, "Ninth round").
    static let threads = TerminalInfo.processEnvironment("FLOWRUN_RENDER_THREADS") == "1" ? 1 : 2

    private func render(_ document: FlowDocument, data: OrderedDictionary<String, Value>, options: RenderOptions) throws
    {
      do {
        // Each piece is made terminal-safe on the thread that drew it.
        try FlowPreview.render(
          document: document, flowID: flowID, screenID: screen, data: data, options: options, madeSafe: true,
          threads: Self.threads
        ) { Output.standard.write(safe: $0) }
      } catch {
        Output.error.write("error: \(error)\n")
        throw ExitCode(64)
      }
    }
  }
}
