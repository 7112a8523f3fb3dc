import FlowEngine
import FlowFormat

/// How a screen is drawn: width in terminal columns and whether ANSI styling is allowed.
public struct RenderOptions: Hashable, Sendable {
  public var width: Int
  public var color: Bool

  public init(width: Int = 80, color: Bool = false) {
    self.width = width
    self.color = color
  }
}

/// Draws the current screen of a session as text. Pure: returns the text, never prints.
public enum ScreenRenderer {
  /// The current screen with its values, validation errors and pending action; every line
  /// ends with a newline.
  public static func render(_ session: Session, options: RenderOptions = RenderOptions()) -> String {
    // Interim body: the full renderer is being written (issue 4).
    var lines = ["== \(session.currentScreen.name) =="]
    for entry in session.actions { lines.append("  \(entry.number). \(entry.label)") }
    return lines.joined(separator: "\n") + "\n"
  }
}
