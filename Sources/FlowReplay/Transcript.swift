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
