import FlowEngine
import FlowExpression
import FlowFormat
import FlowSupport
import OrderedCollections

/// Renders screens without walking a flow (`flowrun render`): one fresh session per screen,
/// started on that screen with `PreviewData` values set, drawn by `ScreenRenderer` — so a
/// preview and a run draw a screen the same way.
///
/// Screens that cannot be shown on their own get their header and a note: a `flow` screen
/// (its sub-flow's screens are drawn under that flow), a screen whose `onEnter` navigates away
/// at once, a screen a session cannot start on. A screen whose `onEnter` awaits a result is
/// drawn with what it waits for.
public enum FlowPreview {
  /// Why a preview could not be drawn (an unknown `--flow` or `--screen`).
  public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    /// The closest known id, for a "did you mean" note.
    public var suggestion: String?

    public init(_ message: String, suggestion: String? = nil) {
      self.message = message
      self.suggestion = suggestion
    }

    public var description: String {
      message + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
    }
  }

  /// Every screen of every flow (document order), of one flow, or one screen. Screens are
  /// separated by a blank line; in a document of several flows each flow starts with a
  /// `══ Flow id · name ══` line (not when one screen is asked for).
  public static func render(
    document: FlowDocument, flowID: String? = nil, screenID: String? = nil,
    options: RenderOptions = RenderOptions()
  ) throws(Failure) -> String {
    var text = ""
    try render(document: document, flowID: flowID, screenID: screenID, options: options) { text += $0 }
    return text
  }

  /// The same text handed to `write` in pieces of whole screens (`flowrun render` writes each
  /// piece as it comes, so a big flow's text is never held whole).
  public static func render(
    document: FlowDocument, flowID: String? = nil, screenID: String? = nil,
    data given: OrderedDictionary<String, Value> = [:], options: RenderOptions = RenderOptions(),
    to write: (String) -> Void
  ) throws(Failure) {
    try render(document: document, flowID: flowID, screenID: screenID, data: given, options: options) {
      (bytes: [UInt8]) in write(String(decoding: bytes, as: UTF8.self))
    }
  }

  /// Parts (screens and flow titles) per piece drawn on one thread: the padded bundle's 6,315
  /// screens are about 400 pieces of about a millisecond each, so neither thread waits long for
  /// the other at the end.
  static let partsPerPiece = 16

  /// The same text as UTF-8 bytes, in pieces of whole screens (and flow titles) drawn on two
  /// threads (`OrderedPieces`) and handed over in order: `flowrun render` writes them as
  /// they are (making each piece a string checked every byte of it as UTF-8 again). With
  /// `madeSafe`, each piece is `terminalSafe` already (keeping styles when `options.color`),
  /// made on the thread that drew it. `threads` 1 draws every screen on the calling thread.
  public static func render(
    document: FlowDocument, flowID: String? = nil, screenID: String? = nil,
    data given: OrderedDictionary<String, Value> = [:], options: RenderOptions = RenderOptions(),
    madeSafe: Bool = false, threads: Int = 2, to write: ([UInt8]) -> Void
  ) throws(Failure) {
    let color = options.color
    let finish: @Sendable ([UInt8]) -> [UInt8] = { madeSafe ? terminalSafe($0, keepingStyles: color) : $0 }
    var flows = document.flows
    if let flowID {
      guard let flow = document.flow(flowID) else {
        throw Failure(
          "no flow '\(flowID)' in the document (flows: \(document.flows.map(\.id).joined(separator: ", ")))",
          suggestion: closestMatch(to: flowID, in: document.flows.map(\.id)))
      }
      flows = [flow]
    }
    // Built once: every screen's session takes it whole (`Session.setVariables`).
    var data = OrderedDictionary(uniqueKeysWithValues: PreviewData.values(for: document).map { ($0.name, $0.value) })
    data.merge(given) { _, given in given }  // --set and --data-in win over the mock values
    if let screenID {
      let ordered = flows.sorted { ($0.id == document.entryFlowID ? 0 : 1) < ($1.id == document.entryFlowID ? 0 : 1) }
      guard let flow = ordered.first(where: { $0.screen(screenID) != nil }) else {
        let ids = flows.flatMap { $0.screens.map(\.id) }
        let scope = flowID.map { "flow '\($0)'" } ?? "the document"
        throw Failure(
          "no screen '\(screenID)' in \(scope)", suggestion: closestMatch(to: screenID, in: ids, maxDistance: 3))
      }
      var bytes: [UInt8] = []
      writeScreen(screenID, flowID: flow.id, in: document, data: data, options: options, into: &bytes)
      write(finish(bytes))
      return
    }
    // The parts in order: each flow's title (in a document of several flows), then its screens.
    var parts: [(flow: Flow, screenID: String?)] = []
    for flow in flows {
      if document.flows.count > 1 { parts.append((flow, nil)) }
      parts += flow.screens.map { (flow, $0.id) }
    }
    OrderedPieces.run(
      count: parts.count, threads: threads, partsPerPiece: partsPerPiece,
      draw: { [parts, data] index, bytes in
        // Each part after the first starts with the blank line that separates it.
        if index > 0 { bytes.append(0x0A) }
        let (flow, screenID) = parts[index]
        if let screenID {
          writeScreen(screenID, flowID: flow.id, in: document, data: data, options: options, into: &bytes)
        } else {
          let title = flow.name == flow.id ? "Flow \(flow.id)" : "Flow \(flow.id) · \(flow.name)"
          flowTitle(title, width: options.effectiveWidth).write(into: &bytes, color: options.color)
        }
      }, finish: finish, write: write)
  }

  /// One screen of one flow with `values` set (default: `PreviewData.values(for:)`).
  public static func renderScreen(
    _ screenID: String, flowID: String, in document: FlowDocument,
    values: [(name: String, value: Value)]? = nil, options: RenderOptions = RenderOptions()
  ) -> String {
    let values = values ?? PreviewData.values(for: document)
    let data = OrderedDictionary(values.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
    return renderScreen(screenID, flowID: flowID, in: document, data: data, options: options)
  }

  static func renderScreen(
    _ screenID: String, flowID: String, in document: FlowDocument, data: OrderedDictionary<String, Value>,
    options: RenderOptions
  ) -> String {
    var bytes: [UInt8] = []
    writeScreen(screenID, flowID: flowID, in: document, data: data, options: options, into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `renderScreen`'s text appended to `bytes`.
  static func writeScreen(
    _ screenID: String, flowID: String, in document: FlowDocument, data: OrderedDictionary<String, Value>,
    options: RenderOptions, into bytes: inout [UInt8]
  ) {
    guard let flow = document.flow(flowID), let screen = flow.screen(screenID) else {
      bytes += "[no screen '\(screenID)' in flow '\(flowID)']\n".utf8
      return
    }
    let showFlow = document.flows.count > 1
    func stub(_ note: String) {
      stubLines(screen, flow, showFlow, note, options.effectiveWidth).write(into: &bytes, color: options.color)
    }
    if screen.kind == .flow, let subflow = screen.subflow, document.flow(subflow) != nil {
      return stub("[runs flow \(subflow); its screens are drawn under that flow]")
    }
    let config = SessionConfig(
      userID: PreviewData.userID, sessionID: "preview", startScreen: screen.id, flowID: flow.id,
      waitsForResults: true, recordsHistory: false, emitsEvents: false)
    var session: Session
    do {
      (session, _) = try Session.start(document: document, config: config)
    } catch {
      return stub("[cannot start here: \(error.message)]")
    }
    session.setVariables(data)
    if session.currentFlow.id != flow.id || session.currentScreen.id != screen.id || session.status.isEnded {
      let landing = session.status.isEnded ? "the end of the flow (\(session.status.name))" : session.currentScreen.id
      let why = screen.onEnter.map { "onEnter runs \(ScreenDrawing.describe($0)) and" } ?? "the session"
      return stub("[\(why) moves on to \(landing); the screen is never shown]")
    }
    ScreenRenderer.write(session, options: options, into: &bytes)
  }

  static func stubLines(_ screen: Screen, _ flow: Flow, _ showFlow: Bool, _ note: String, _ width: Int) -> [StyledLine]
  {
    var lines = HeaderDrawing.lines(screen: screen, flow: flow, showFlow: showFlow, width: width)
    lines.append(.blank)
    lines += TextWrapper.wrap([StyledRun(note, .dim)], width: width, continuation: [StyledRun(" ")])
    return lines
  }

  static func flowTitle(_ title: String, width: Int) -> [StyledLine] {
    var lines = TextWrapper.wrap(
      [StyledRun(title, [.bold, .cyan])], width: width - 2, prefix: [StyledRun("══ ", .cyan)],
      continuation: [StyledRun("   ")])
    let fill = width - (lines.last?.width ?? 0) - 1
    if fill >= 2, !lines.isEmpty {
      lines[lines.count - 1].append(" ")
      lines[lines.count - 1].append(String(repeating: "═", count: fill), .cyan)
    }
    return lines
  }
}
