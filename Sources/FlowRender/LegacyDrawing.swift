import FlowEngine
import FlowFormat
import FlowSupport

/// Draws a legacy (non-block) screen: icon, title (as h1), subtitle, image, carousel slides,
/// then the legacy button. `native` screens show their title and subtitle; a `flow` screen
/// drawn as a plain screen (its sub-flow is missing) names the sub-flow.
///
/// Slides are numbered and indented under their title:
///
///     1/3  🎧 Guided sessions
///          Short audio sessions led by real teachers.
struct LegacyDrawing {
  let blocks: BlockDrawing

  var session: Session { blocks.session }
  var width: Int { blocks.width }

  func draw(into composer: inout SectionComposer) {
    let screen = session.currentScreen
    let content = screen.content
    if let icon = content.icon, !icon.isEmpty {
      composer.add(Section(lines: TextWrapper.wrap([StyledRun(icon)], width: width)))
    }
    if let title = blocks.plain(content.title) {
      composer.add(Section(lines: blocks.heading([StyledRun(title)], rule: "═")))
    }
    if let subtitle = blocks.plain(content.subtitle) {
      composer.add(Section(lines: TextWrapper.wrap([StyledRun(subtitle)], width: width)))
    }
    if let image = content.image, !image.isEmpty {
      composer.section(.normal) { blocks.placeholder("image", alt: nil, src: image, into: &$0) }
    }
    let count = content.slides.count
    for (index, slide) in content.slides.enumerated() {
      let number = "\(index + 1)/\(count)  "
      let indent = String(repeating: " ", count: DisplayWidth.of(number))
      var title: [StyledRun] = []
      if let icon = slide.icon, !icon.isEmpty { title.append(StyledRun(icon + " ")) }
      title.append(StyledRun(session.render(slide.title), .bold))
      var lines = TextWrapper.wrap(title, width: width, prefix: [StyledRun(number, .cyan)])
      let body = session.render(slide.body)
      if !body.isEmpty {
        lines += TextWrapper.wrap([StyledRun(body)], width: width, prefix: [StyledRun(indent)])
      }
      composer.add(Section(lines: lines))
    }
    if screen.kind == .flow {
      composer.section(.normal) { blocks.bracketed("sub-flow: \(screen.subflow ?? "?") (not found)", into: &$0) }
    }
    for entry in session.actions where entry.kind == .legacyButton {
      composer.section(.button) { blocks.button(entry, into: &$0) }
    }
  }
}
