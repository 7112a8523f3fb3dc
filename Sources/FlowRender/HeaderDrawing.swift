import FlowFormat

/// The screen header: `── Name (id) · type ──────` filled with a rule to the width.
///
/// The id is left out when it equals the name; the type is the type as written, with the
/// detail that matters for it: `native: paywall`, `permission: notifications`,
/// `flow: profile_setup`. In a document of several flows the flow id comes first:
/// `── profile_setup / Your name (your_name) · form ──`.
enum HeaderDrawing {
  static func title(screen: Screen, flow: Flow, showFlow: Bool) -> String {
    // Appended piece by piece into one string (interpolations made a string per piece: a
    // tenth of drawing a screen).
    var title = ""
    if showFlow {
      title += flow.id
      title += " / "
    }
    title += screen.name
    if screen.name != screen.id {
      title += " ("
      title += screen.id
      title += ")"
    }
    title += " · "
    title += screen.type
    switch screen.kind {
    case .native:
      title += ": "
      title += screen.content.identifier ?? screen.id
    case .permission:
      if let permission = screen.content.permissionType {
        title += ": "
        title += permission
      }
    case .flow:
      if let subflow = screen.subflow {
        title += ": "
        title += subflow
      }
    default: break
    }
    return sanitize(title).replacingNewlines()
  }

  static func lines(screen: Screen, flow: Flow, showFlow: Bool, width: Int) -> [StyledLine] {
    rule(title: title(screen: screen, flow: flow, showFlow: showFlow), width: width)
  }

  /// The title's lead and the indent of its later lines; the lead's columns, measured once.
  static let lead = [StyledRun("── ", .dim)]
  static let leadWidth = StyledLine(lead).width
  static let indent = [StyledRun("   ")]

  /// `lines`, drawn.
  static func write(screen: Screen, flow: Flow, showFlow: Bool, width: Int, into canvas: inout Canvas) {
    let title = title(screen: screen, flow: flow, showFlow: showFlow)
    canvas.measure(true)
    let count = canvas.wrap(
      [StyledRun(title, .bold)], width: width - 2, prefix: lead, prefixWidth: leadWidth, continuation: indent)
    if count == 0 { canvas.append("──", .dim) }
    let fill = width - canvas.columns - 1
    canvas.measure(false)
    if fill >= 2 {
      canvas.append(" ")
      canvas.append(horizontalRule(fill), .dim)
    }
    canvas.finishLine()
  }

  /// `── title ───…` to `width`; a long title wraps, and the rule closes its last line.
  static func rule(title: String, width: Int, style: TextStyle = .bold) -> [StyledLine] {
    var lines = TextWrapper.wrap(
      [StyledRun(title, style)], width: width - 2, prefix: [StyledRun("── ", .dim)],
      continuation: [StyledRun("   ")])
    if lines.isEmpty { lines = [StyledLine("──", .dim)] }
    let used = lines[lines.count - 1].width
    let fill = width - used - 1
    if fill >= 2 {
      lines[lines.count - 1].append(" ")
      lines[lines.count - 1].append(horizontalRule(fill), .dim)
    }
    return lines
  }
}

extension String {
  func replacingNewlines() -> String {
    guard holdsLineFeed(self) else { return self }
    return split(separator: "\n", omittingEmptySubsequences: true).joined(separator: " ")
  }
}
