import FlowEngine
import FlowFormat
import FlowRender

/// The plain-text transcript of a replay (what `snapshot:` steps compare): every rendered
/// screen and every input, in order. Built here until FlowRender offers a shared one.
struct Transcript {
  private(set) var lines: [String] = []

  var text: String { lines.joined(separator: "\n") + "\n" }

  mutating func start(session: Session, width: Int) {
    screen(session: session, width: width)
  }

  mutating func input(_ text: String) {
    lines.append("> \(text)")
  }

  mutating func note(_ text: String) {
    lines.append("! \(text)")
  }

  /// The current screen, or how the session ended.
  mutating func screen(session: Session, width: Int) {
    switch session.status {
    case .completed, .dismissed, .quit, .failed:
      lines.append("[session \(session.status.name) on screen '\(session.currentScreen.id)']")
    case .running, .awaiting:
      let rendered = ScreenRenderer.render(session, options: RenderOptions(width: width, color: false))
      var body = rendered
      while body.hasSuffix("\n") { body.removeLast() }
      lines.append(body)
      if case .awaiting(let pending) = session.status {
        lines.append("[awaiting \(pending.identifier)]")
      }
    }
  }
}

/// The texts of the current screen (visible blocks' templates, legacy fields, control labels),
/// one per line: what `text:` also matches, so a check does not depend on line wrapping or the
/// renderer's decorations.
enum ScreenText {
  static func lines(_ session: Session) -> [String] {
    var out: [String] = []
    let content = session.currentScreen.content
    func add(_ template: TextTemplate?) {
      if let template { out.append(session.render(template)) }
    }
    if content.usesBlocks {
      for block in session.visibleBlocks {
        switch block.content {
        case .text(let text):
          if text.richText.isEmpty { add(text.text) } else { out.append(text.richText.map { session.render($0.text) }.joined()) }
        case .button(let button): add(button.text)
        case .input(let input):
          add(input.label)
          add(input.placeholder)
        case .choice(let choice):
          add(choice.label)
          for item in choice.items { add(item.label) }
        case .slider(let slider): add(slider.label)
        case .toggle(let toggle): add(toggle.label)
        case .featureCard(let headline, let body):
          add(headline)
          add(body)
        case .icon(let icon): out.append(icon)
        default: break
        }
      }
    } else {
      add(content.title)
      add(content.subtitle)
      for slide in content.slides {
        add(slide.title)
        add(slide.body)
      }
    }
    out += session.actions.map(\.label)
    if let error = session.lastActionError { out.append(error) }
    return out
  }
}
