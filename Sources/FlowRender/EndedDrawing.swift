import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections

/// What an ended session shows instead of a screen:
///
///     ── Flow completed · fitness ──────────────
///     Screens shown (3): welcome → name → done
///
///     Collected data:
///       name: Alex
///
/// The title is `Flow completed`, `Flow dismissed on <screen>`, `Session ended (quit) on
/// <screen>` or `Session failed on <screen>` followed by the message.
struct EndedDrawing {
  let session: Session
  let options: RenderOptions

  func lines() -> [StyledLine] {
    let width = options.effectiveWidth
    let screen = session.currentScreen.id
    let title: String
    var message: String?
    var style: TextStyle = .bold
    switch session.status {
    case .completed:
      title = "Flow completed"
      style = [.green, .bold]
    case .dismissed: title = "Flow dismissed on \(screen)"
    case .quit(let reason): title = "Session ended (\(reason.rawValue)) on \(screen)"
    case .failed(let text):
      title = "Session failed on \(screen)"
      message = text
      style = [.red, .bold]
    case .running, .awaiting: title = "Running"
    }
    var lines = HeaderDrawing.rule(title: title + " · " + session.currentFlow.id, width: width, style: style)
    if let message {
      lines += TextWrapper.wrap([StyledRun(message, .red)], width: width, prefix: [StyledRun("! ", .red)])
    }
    let path = session.path
    if !path.isEmpty {
      lines += TextWrapper.wrap(
        [StyledRun(path.joined(separator: " → "))], width: width,
        prefix: [StyledRun("Screens shown (\(path.count)): ")], continuation: [StyledRun("  ")])
    }
    let data = session.secrets.data(session.data)
    guard !data.isEmpty else { return lines }
    lines.append(.blank)
    lines.append(StyledLine("Collected data:", .bold))
    for (key, value) in data {
      let shown: String
      switch value {
      case .object: shown = value.description
      // In brackets, so a list of one (`[cardio]`) does not read as a plain value.
      case .list(let items): shown = "[" + items.map(\.displayString).joined(separator: ", ") + "]"
      default: shown = value.displayString
      }
      lines += TextWrapper.wrap(
        [StyledRun(shown)], width: width, prefix: [StyledRun("  " + key + ": ", .cyan)],
        continuation: [StyledRun("    ")])
    }
    return lines
  }
}
