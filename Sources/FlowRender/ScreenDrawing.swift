import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections

/// A group of lines drawn for one block (or one part of a legacy screen).
struct Section {
  enum Kind { case normal, button, spacer }
  var lines: [StyledLine]
  var kind: Kind = .normal
}

/// Joins sections with one blank line; consecutive buttons stay together and a spacer adds
/// one blank line of its own.
func compose(_ sections: [Section]) -> [StyledLine] {
  var out: [StyledLine] = []
  var previous: Section.Kind?
  for section in sections where !section.lines.isEmpty {
    if let previous, !(previous == .button && section.kind == .button), previous != .spacer {
      out.append(.blank)
    }
    out += section.lines
    previous = section.kind
  }
  return out
}

/// Draws the current (running or awaiting) screen of a session.
struct ScreenDrawing {
  let session: Session
  let options: RenderOptions
  let width: Int
  let screen: Screen
  let flow: Flow

  init(session: Session, options: RenderOptions) {
    self.session = session
    self.options = options
    self.width = options.effectiveWidth
    self.screen = session.currentScreen
    self.flow = session.currentFlow
  }

  func lines() -> [StyledLine] {
    var top: [StyledLine] = []
    if options.showHeader {
      top += HeaderDrawing.lines(
        screen: screen, flow: flow, showFlow: session.document.flows.count > 1, width: width)
    }
    let progress = indicatorLine()
    let atBottom = flow.progressIndicator?.position == "bottom"
    if let progress, !atBottom { top.append(progress) }

    let blocks = BlockDrawing(session: session, width: width)
    var sections = screen.content.usesBlocks ? blocks.sections() : LegacyDrawing(blocks: blocks).sections()
    if let chat = ChatDrawing.section(session, width: width) {
      // The conversation goes above the step's button (the completion CTA).
      sections.insert(chat, at: sections.firstIndex { $0.kind == .button } ?? sections.endIndex)
    }
    sections += skipControl(blocks)
    var body = compose(sections)
    if let progress, atBottom {
      if !body.isEmpty { body.append(.blank) }
      body.append(progress)
    }
    let notes = self.notes(blocks)
    var out = top
    if !body.isEmpty {
      if !out.isEmpty { out.append(.blank) }
      out += body
    }
    if !notes.isEmpty {
      if !out.isEmpty { out.append(.blank) }
      out += notes
    }
    return out
  }

  /// The flow's indicator for this screen, when it is drawn: `enabled`, more than one screen,
  /// `settings.showProgress`, no `hideProgress` on the screen, and the screen inside the range.
  func indicatorLine() -> StyledLine? {
    guard let indicator = flow.progressIndicator, indicator.enabled, flow.settings.showProgress,
      !screen.hideProgress,
      let position = ProgressPosition.of(
        index: session.currentScreenIndex, screenCount: flow.screens.count, indicator: indicator)
    else { return nil }
    return ProgressDrawing.line(position, variant: indicator.variant.rawValue, width: width)
  }

  /// The skip control of `skipText` (block and legacy screens alike).
  func skipControl(_ blocks: BlockDrawing) -> [Section] {
    blocks.actions.filter { $0.kind == .skip }.map { blocks.buttonSection($0, style: .dim) }
  }

  /// Errors of fields with no visible block, the last action error, the pending action, a
  /// screen not yet shown, a filler's timer.
  func notes(_ blocks: BlockDrawing) -> [StyledLine] {
    var notes: [StyledLine] = []
    let errors = session.validationErrors
    if !errors.isEmpty {
      let shownFields = Set(session.visibleBlocks.compactMap(\.fieldName))
      for (field, message) in errors where !shownFields.contains(field) {
        notes += blocks.errorLines("\(field): \(message)", indent: "")
      }
    }
    if let error = session.lastActionError {
      notes += blocks.errorLines(error, indent: "")
    }
    if !session.isCurrentScreenShown, let onEnter = screen.onEnter {
      notes += note("(onEnter runs \(Self.describe(onEnter)); the screen is not shown yet)")
    }
    if let pending = session.pending {
      let what: String
      var answers = ":ok [JSON] | :fail [TEXT] | :cancel"
      switch pending.source {
      case .customAction:
        what = pending.identifier
        // AppDNA's native outcomes by name (ActionResult.outcome(named:)).
        let appdna = session.document.dialect == .appdna
        if appdna, pending.identifier.hasPrefix("paywall.") {
          answers = ":purchased | :restored | :failed | :dismissed (or " + answers + ")"
        } else if appdna, pending.identifier.hasPrefix("permission.") {
          answers = ":granted | :denied (or " + answers + ")"
        }
      case .nativeScreen: what = "native screen \(pending.identifier)"
      case .hook(let request) where request.webhook != nil:
        let target = request.webhook.map { " (POST \($0.url))" } ?? ""
        what = "the \(pending.identifier == ChatState.identifier ? "chat " : "")webhook of \(request.screenID)\(target)"
        answers = ":hook STATUS [BODY] | :hook timeout | :hook network [TEXT]"
      case .hook(let request) where request.kind == .beforeStepRender:
        what = "\(pending.identifier) of \(request.screenID)"
        answers = ":hook {\"title\", \"subtitle\", \"ctaText\", \"fieldDefaults\"} | :hook null"
      case .hook(let request):
        what =
          "\(pending.identifier) of \(request.screenID) with \(Value.object(session.secrets.data(request.stepData)).json)"
        answers = ":hook proceed | :hook block [TEXT] | :hook stay [TEXT] | :hook skipTo STEP | :hook JSON"
      case .timer(_, let wakeAt):
        what = pending.identifier + (wakeAt.map { " until " + CivilTime.iso8601(milliseconds: $0) } ?? "")
        answers = ":wait MS | :dismiss"
      }
      notes += TextWrapper.wrap([StyledRun("Waiting for \(what): ", .yellow), StyledRun(answers)], width: width)
    }
    if screen.kind == .filler, let ms = screen.autoAdvanceMs, session.pending == nil {
      notes += note("(advances by itself after \(NumberFormatting.javaScriptString(ms)) ms)")
    }
    return notes
  }

  func note(_ text: String) -> [StyledLine] {
    TextWrapper.wrap([StyledRun(text, .dim)], width: width)
  }

  static func describe(_ action: Action) -> String {
    switch action {
    case .custom(let custom): "custom \(custom.identifier)"
    case .screen(let id): "screen \(id)"
    default: action.typeName
    }
  }
}
