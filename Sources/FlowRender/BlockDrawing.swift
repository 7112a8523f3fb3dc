import FlowEngine
import FlowExpression
import FlowFormat
import FlowSupport
import OrderedCollections

/// Draws the blocks of the current screen, each as one section.
///
///     text h1     Title, bold, underlined with ═        text h2   underlined with ─
///     text h3     ▸ Title                               caption, label: dim (plain: as body)
///     richText    bold / italic spans (ANSI only)       body: wrapped to the width
///     image       [image: alt]  (else the file name of src; video and lottie alike)
///     icon        the emoji on its own line             divider   ─ across the width
///     spacer      one extra blank line                  button    [1] Label  (Session.actions)
///     input       Label *            (* = required)     checklist Label (choose any)
///                   > value  |  > (placeholder)  |  > ____       1. [x] Item  (multi)
///                   ! error message under the field               1. (•) Item  (single)
///     slider      Label                                 toggle    [on] Label / [off] Label
///                   0 ───●──────── 8   2 h
///     feature-card a box ┌─┐ │ Headline │ │ body │ └─┘ (at most 60 columns)
///     progress    the flow position (bar dots steps ring), see ProgressDrawing
///     custom      [custom: identifier]                  other     [unsupported block: type]
struct BlockDrawing {
  let session: Session
  let width: Int
  /// The screen's controls (`Session.actions`, built once per drawing).
  let actions: [ActionEntry]

  init(session: Session, width: Int) {
    self.session = session
    self.width = width
    actions = session.actions
  }

  /// The control of a block (a screen has a few: a search, not a table made per screen).
  func action(of blockID: String) -> ActionEntry? {
    actions.last { $0.blockID == blockID }
  }

  /// Every visible block, each as one section.
  func draw(into composer: inout SectionComposer) {
    for block in session.visibleBlocks { draw(block, into: &composer) }
  }

  func draw(_ block: Block, into composer: inout SectionComposer) {
    var kind = Section.Kind.normal
    switch block.content {
    case .scrollContainer(let children):
      for child in children where session.isVisible(child) { draw(child, into: &composer) }
      return
    case .button:
      // A button is its control, looked up once: none (hidden, disabled) draws nothing.
      guard let control = action(of: block.id) else { return }
      composer.section(.button) { button(control, into: &$0) }
      return
    case .spacer:
      kind = .spacer
    default:
      break
    }
    composer.section(kind) { canvas in
      drawContent(block, into: &canvas)
      if let field = block.fieldName, let message = session.validationErrors[field] {
        canvas.write(errorLines(message))
      }
    }
  }

  private func drawContent(_ block: Block, into canvas: inout Canvas) {
    switch block.content {
    case .text(let text):
      self.text(text, into: &canvas)
    case .media(let kind, let src, let alt):
      placeholder(kind, alt: alt, src: src, into: &canvas)
    case .icon(let icon):
      canvas.wrapLines([StyledRun(icon)], width: width)
    case .button:
      break  // drawn by `draw(_:into:)`, with the control it looked up
    case .input(let input):
      self.input(input, block: block, into: &canvas)
    case .choice(let choice):
      canvas.write(self.choice(choice, block: block))
    case .slider(let slider):
      canvas.write(self.slider(slider, block: block))
    case .toggle(let toggle):
      canvas.write(self.toggle(toggle, block: block))
    case .progress(let variant):
      canvas.write(progress(variant))
    case .spacer:
      canvas.finishLine()
    case .divider:
      canvas.write(StyledLine(horizontalRule(width), .dim))
    case .featureCard(let headline, let body):
      featureCard(headline: headline, body: body, into: &canvas)
    case .scrollContainer:
      break
    case .custom(let identifier, _):
      bracketed("custom: \(identifier ?? "?")", into: &canvas)
    case .unsupported:
      bracketed("unsupported block: \(block.type)", into: &canvas)
    }
  }

  // MARK: Text

  func text(_ block: TextBlock, into canvas: inout Canvas) {
    var runs: [StyledRun]
    if !block.richText.isEmpty {
      runs = block.richText.map { span in
        var style: TextStyle = []
        if span.bold { style.insert(.bold) }
        if span.italic { style.insert(.italic) }
        return StyledRun(session.text(of: span.text), style)
      }
    } else if let text = block.text {
      runs = [StyledRun(session.text(of: text))]
    } else {
      return
    }
    switch block.variant {
    case "h1": canvas.write(heading(runs, rule: "═"))
    case "h2": canvas.write(heading(runs, rule: "─"))
    case "h3": canvas.wrapLines(adding(.bold, to: runs), width: width, prefix: [StyledRun("▸ ", .bold)])
    case "caption", "label": canvas.wrapLines(adding(.dim, to: runs), width: width)
    default: canvas.wrapLines(runs, width: width)
    }
  }

  func heading(_ runs: [StyledRun], rule: String) -> [StyledLine] {
    let lines = TextWrapper.wrap(adding(.bold, to: runs), width: width)
    guard let widest = lines.map(\.width).max(), widest > 0 else { return lines }
    return lines + [StyledLine(String(repeating: rule, count: widest), .dim)]
  }

  func adding(_ style: TextStyle, to runs: [StyledRun]) -> [StyledRun] {
    runs.map { StyledRun($0.text, $0.style.union(style)) }
  }

  func plain(_ template: TextTemplate?) -> String? {
    guard let template else { return nil }
    let text = session.text(of: template)
    return text.isEmpty ? nil : text
  }

  // MARK: Placeholders

  func placeholder(_ kind: String, alt: String?, src: String?, into canvas: inout Canvas) {
    let name = alt.flatMap { $0.isEmpty ? nil : $0 } ?? src.flatMap(Self.fileName)
    bracketed(name.map { "\(kind): \($0)" } ?? kind, into: &canvas)
  }

  static func fileName(_ src: String) -> String? {
    let path = src.split(separator: "?").first.map(String.init) ?? src
    let name = path.split(separator: "/").last.map(String.init) ?? path
    return name.isEmpty ? nil : name
  }

  func bracketed(_ text: String, into canvas: inout Canvas) {
    canvas.wrapLines([StyledRun("[\(text)]", .dim)], width: width, continuation: [StyledRun(" ")])
  }

  // MARK: Buttons

  /// `[1] Label`, the label wrapped after the number.
  func button(_ entry: ActionEntry, style: TextStyle = .bold, into canvas: inout Canvas) {
    let number = StyledRun("[\(entry.number)] ", [.cyan, .bold])
    if canvas.wrap([StyledRun(entry.label, style)], width: width, prefix: [number]) == 0 {
      canvas.append(number.text, number.style)
    }
    canvas.finishLine()
  }

  // MARK: Fields

  func errorLines(_ message: String, indent: String = "  ") -> [StyledLine] {
    TextWrapper.wrap(
      [StyledRun(message, .red)], width: width, prefix: [StyledRun(indent + "! ", [.red, .bold])])
  }

  /// The label line of a collecting block. `field` (dim) stands in for a missing label: the
  /// prompt that asks for the value names it the same way.
  func label(
    _ template: TextTemplate?, field: String? = nil, required: Bool = false, hint: String? = nil
  )
    -> [StyledLine]
  {
    let runs = labelRuns(template, field: field, required: required, hint: hint)
    return runs.isEmpty ? [] : TextWrapper.wrap(runs, width: width)
  }

  /// The runs of `label`'s line, before wrapping.
  private func labelRuns(_ template: TextTemplate?, field: String?, required: Bool, hint: String?) -> [StyledRun] {
    var runs: [StyledRun] = []
    let text = plain(template)
    if let name = text ?? field {
      runs.append(StyledRun(name, text == nil ? .dim : .bold))
      if required { runs.append(StyledRun(" *", [.red, .bold])) }
      if let hint { runs.append(StyledRun(" (\(hint))", .dim)) }
    } else if hint != nil || required {
      // Neither label nor field name: the hint alone, saying "required" in words.
      let words = [required ? "required" : nil, hint].compactMap { $0 }.joined(separator: ", ")
      runs.append(StyledRun("(\(words))", .dim))
    }
    return runs
  }

  /// An input block, drawn into the canvas (its label and value lines as `label` and
  /// `TextWrapper.wrap` make them).
  func input(_ input: InputBlock, block: Block, into canvas: inout Canvas) {
    // An input with neither label nor placeholder would be an anonymous blank; a checklist or
    // slider without a label is usually answered by the screen title above it.
    let field = input.placeholder == nil ? block.fieldName : nil
    let label = labelRuns(input.label, field: field, required: input.required, hint: nil)
    if !label.isEmpty { canvas.wrapLines(label, width: width) }
    let value = session.value(of: block).map { session.secrets.text($0, of: block.fieldName ?? "") } ?? ""
    let runs: [StyledRun]
    if !value.isEmpty {
      runs = [StyledRun(value)]
    } else if let placeholder = plain(input.placeholder) {
      runs = [StyledRun("(\(placeholder))", .dim)]
    } else {
      runs = [StyledRun("____________", .dim)]
    }
    canvas.wrapLines(runs, width: width, prefix: [StyledRun("  > ", .cyan)])
  }

  func choice(_ choice: ChoiceBlock, block: Block) -> [StyledLine] {
    var hint: String?
    if choice.allowMultiple {
      switch (choice.minSelections, choice.maxSelections) {
      case (let low?, let high?) where low == high: hint = "choose \(low)"
      case (let low?, let high?): hint = "choose \(low)–\(high)"
      case (let low?, nil): hint = "choose at least \(low)"
      case (nil, let high?): hint = "choose up to \(high)"
      case (nil, nil): hint = "choose any"
      }
    }
    var lines = label(choice.label, required: choice.required, hint: hint)
    let selected: Set<String>
    switch session.value(of: block) {
    case .list(let values)?: selected = Set(values.map(\.displayString))
    case let value?: selected = value.isEmpty ? [] : [value.displayString]
    case nil: selected = []
    }
    let digits = String(choice.items.count).count
    for (index, item) in choice.items.enumerated() {
      let isOn = selected.contains(item.value)
      let mark = choice.allowMultiple ? (isOn ? "[x]" : "[ ]") : (isOn ? "(•)" : "( )")
      let number = String(index + 1)
      let pad = String(repeating: " ", count: digits - number.count)
      let prefix = [
        StyledRun("  " + pad + number + ". ", .cyan), StyledRun(mark + " ", isOn ? [.green, .bold] : []),
      ]
      lines += TextWrapper.wrap(
        [StyledRun(session.text(of: item.label), isOn ? .bold : [])], width: width, prefix: prefix)
    }
    return lines
  }

  func slider(_ slider: SliderBlock, block: Block) -> [StyledLine] {
    var lines = label(slider.label)
    let current = session.value(of: block)?.numericValue ?? slider.defaultValue
    let low = NumberFormatting.javaScriptString(slider.min)
    let high = NumberFormatting.javaScriptString(slider.max)
    let shown =
      (slider.valuePrefix ?? "") + NumberFormatting.javaScriptString(current) + (slider.valueSuffix ?? "")
    let indent = 2
    let fixed = indent + DisplayWidth.of(low) + 1 + 1 + DisplayWidth.of(high)
    let valueWidth = 3 + DisplayWidth.of(shown)
    var cells = min(20, width - fixed - valueWidth)
    let inline = cells >= 5
    if !inline { cells = max(3, min(20, width - fixed)) }
    let span = slider.max - slider.min
    let fraction = span > 0 ? min(max((current - slider.min) / span, 0), 1) : 0
    let knob = Int((fraction * Double(cells - 1)).rounded())
    var scale = StyledLine("  " + low + " ")
    scale.append(horizontalRule(knob), .dim)
    scale.append("●", [.cyan, .bold])
    scale.append(horizontalRule(cells - 1 - knob), .dim)
    scale.append(" " + high)
    if inline {
      scale.append("   ")
      scale.append(shown, .bold)
      lines.append(scale)
    } else {
      lines.append(scale)
      lines += TextWrapper.wrap([StyledRun(shown, .bold)], width: width, prefix: [StyledRun("  = ")])
    }
    return lines
  }

  func toggle(_ toggle: ToggleBlock, block: Block) -> [StyledLine] {
    let isOn = session.value(of: block)?.isTruthy ?? toggle.defaultValue
    let mark = isOn ? StyledRun("[on] ", [.green, .bold]) : StyledRun("[off] ", .dim)
    let text = plain(toggle.label) ?? block.fieldName ?? ""
    return TextWrapper.wrap([StyledRun(text)], width: width, prefix: [mark])
  }

  // MARK: Progress and cards

  func progress(_ variant: String) -> [StyledLine] {
    let flow = session.currentFlow
    guard
      let position = ProgressPosition.of(
        index: session.currentScreenIndex, screenCount: flow.screens.count, indicator: flow.progressIndicator)
    else { return [] }
    return [ProgressDrawing.line(position, variant: variant, width: width)]
  }

  /// A feature card's left side and its columns (measured once: a wrap measured it per text),
  /// and its right side.
  static let cardSide = [StyledRun("│ ", .dim)]
  static let cardSideWidth = StyledLine(cardSide).width
  static let cardTail = [StyledRun(" │", .dim)]

  func featureCard(headline: TextTemplate?, body: TextTemplate?, into canvas: inout Canvas) {
    let boxWidth = min(width, 60)
    let texts: [(text: String?, style: TextStyle)] = [(plain(headline), .bold), (plain(body), [])]
    guard texts.contains(where: { $0.text != nil }) else { return }
    let mark = canvas.mark()
    canvas.write(box: "┌", horizontalRule(boxWidth - 2), "┐")
    let lines = canvas.lineCount
    // Each line of the text between `│ ` and ` │`, padded to the box's inside width.
    let inner = boxWidth - 4 + Self.cardSideWidth
    canvas.box = (inner, Self.cardTail)
    for case (let text?, let style) in texts {
      canvas.wrapLines(
        [StyledRun(text, style)], width: inner, prefix: Self.cardSide, prefixWidth: Self.cardSideWidth,
        continuation: Self.cardSide)
    }
    canvas.box = nil
    guard canvas.lineCount > lines else { return canvas.rollBack(to: mark) }
    canvas.write(box: "└", horizontalRule(boxWidth - 2), "┘")
  }
}

extension Canvas {
  /// A box's top or bottom line, dim.
  fileprivate mutating func write(box left: String, _ rule: String, _ right: String) {
    append(left, .dim)
    append(rule, .dim)
    append(right, .dim)
    finishLine()
  }
}
