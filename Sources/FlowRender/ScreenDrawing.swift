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

/// Draws sections one after the other, a blank line between two (consecutive buttons stay
/// together and a spacer adds one blank line of its own); a section that draws nothing leaves
/// no trace. The chat goes before the first button (the completion CTA).
struct SectionComposer {
  var canvas: Canvas
  /// A blank line goes before the first section (something is drawn above it).
  let blankFirst: Bool
  var chat: Section?
  private var previous: Section.Kind?

  init(canvas: Canvas, blankFirst: Bool, chat: Section?) {
    (self.canvas, self.blankFirst, self.chat) = (canvas, blankFirst, chat)
  }

  /// Whether a section has been drawn.
  var isEmpty: Bool { previous == nil }

  mutating func section(_ kind: Section.Kind, _ draw: (inout Canvas) -> Void) {
    if kind == .button, let chat {
      self.chat = nil
      add(chat)
    }
    let mark = canvas.mark()
    if let previous {
      if !(previous == .button && kind == .button), previous != .spacer { canvas.finishLine() }
    } else if blankFirst {
      canvas.finishLine()
    }
    let lines = canvas.lineCount
    draw(&canvas)
    if canvas.lineCount == lines {
      canvas.rollBack(to: mark)
    } else {
      previous = kind
    }
  }

  mutating func add(_ section: Section) {
    self.section(section.kind) { $0.write(section.lines) }
  }
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

  func write(into canvas: inout Canvas) {
    let start = canvas.lineCount
    if options.showHeader {
      HeaderDrawing.write(
        screen: screen, flow: flow, showFlow: session.document.flows.count > 1, width: width, into: &canvas)
    }
    let progress = indicatorLine()
    let atBottom = flow.progressIndicator?.position == "bottom"
    if let progress, !atBottom { canvas.write(progress) }
    let top = canvas.lineCount > start

    let blocks = BlockDrawing(session: session, width: width)
    var composer = SectionComposer(
      canvas: Canvas(color: canvas.color), blankFirst: top, chat: ChatDrawing.section(session, width: width))
    swap(&composer.canvas, &canvas)
    if screen.content.usesBlocks {
      blocks.draw(into: &composer)
    } else {
      LegacyDrawing(blocks: blocks).draw(into: &composer)
    }
    if let chat = composer.chat {
      composer.chat = nil
      composer.add(chat)
    }
    for entry in blocks.actions where entry.kind == .skip {
      composer.section(.button) { blocks.button(entry, style: .dim, into: &$0) }
    }
    let body = !composer.isEmpty
    swap(&composer.canvas, &canvas)
    if let progress, atBottom {
      if body || top { canvas.finishLine() }
      canvas.write(progress)
    }
    let notes = self.notes(blocks)
    if !notes.isEmpty {
      if canvas.lineCount > start { canvas.finishLine() }
      canvas.write(notes)
    }
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
