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

  func sections() -> [Section] {
    let screen = session.currentScreen
    let content = screen.content
    var sections: [Section] = []
    if let icon = content.icon, !icon.isEmpty {
      sections.append(Section(lines: TextWrapper.wrap([StyledRun(icon)], width: width)))
    }
    if let title = blocks.plain(content.title) {
      sections.append(Section(lines: blocks.heading([StyledRun(title)], rule: "═")))
    }
    if let subtitle = blocks.plain(content.subtitle) {
      sections.append(Section(lines: TextWrapper.wrap([StyledRun(subtitle)], width: width)))
    }
    if let image = content.image, !image.isEmpty {
      sections.append(Section(lines: blocks.placeholder("image", alt: nil, src: image)))
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
      sections.append(Section(lines: lines))
    }
    if screen.kind == .flow {
      sections.append(Section(lines: blocks.bracketed("sub-flow: \(screen.subflow ?? "?") (not found)")))
    }
    for entry in session.actions where entry.kind == .legacyButton {
      sections.append(blocks.buttonSection(entry))
    }
    return sections
  }
}
