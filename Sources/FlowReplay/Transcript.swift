import FlowEngine
import FlowFormat
import FlowRender

/// The plain-text transcript of a replay (what `snapshot:` steps compare): every rendered
/// screen and every input with what the session said, in FlowRender's `Transcript` format.
struct ReplayTranscript {
  private(set) var entries: [Transcript.Entry] = []
  /// A disabled transcript records nothing (scripts without `snapshot:` steps).
  var enabled = true

  init(enabled: Bool = true) { self.enabled = enabled }

  var text: String { Transcript.render(entries) }

  mutating func start(session: Session, width: Int) {
    screen(session: session, width: width)
  }

  /// The texts are built only when the transcript is recorded (no string work otherwise).
  mutating func input(_ text: @autoclosure () -> String) {
    guard enabled else { return }
    let text = text()
    if entries.isEmpty || entries[entries.count - 1].input != nil {
      entries.append(Transcript.Entry(screen: ""))
    }
    entries[entries.count - 1].input = text
  }

  mutating func note(_ text: @autoclosure () -> String) {
    guard enabled else { return }
    let text = text()
    if entries.isEmpty { entries.append(Transcript.Entry(screen: "")) }
    entries[entries.count - 1].responses.append(text)
  }

  /// The current screen as drawn now (the renderer draws ended sessions too).
  mutating func screen(session: Session, width: Int) {
    guard enabled else { return }
    entries.append(
      Transcript.Entry(screen: ScreenRenderer.render(session, options: RenderOptions(width: width, color: false))))
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
        block.forEachText { text in
          switch text {
          case .template(let template): add(template)
          case .spans(let spans): out.append(spans.map { session.render($0.text) }.joined())
          case .literal(let literal): out.append(literal)
          }
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
