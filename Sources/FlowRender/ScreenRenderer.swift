import FlowEngine
import FlowFormat

/// How a screen is drawn: width in terminal columns and whether ANSI styling is allowed.
public struct RenderOptions: Hashable, Sendable {
  /// The narrowest width drawn; smaller widths are raised to this.
  public static let minimumWidth = 20

  public var width: Int
  public var color: Bool
  /// Draw the `── Name (id) · type ──` header line.
  public var showHeader: Bool

  public init(width: Int = 80, color: Bool = false, showHeader: Bool = true) {
    self.width = width
    self.color = color
    self.showHeader = showHeader
  }

  /// `width`, raised to `minimumWidth`.
  var effectiveWidth: Int { max(width, Self.minimumWidth) }
}

/// Draws the current screen of a session as text. Pure: returns the text, never prints.
///
/// Layout, top to bottom: the header, the progress indicator when its `position` is not
/// `bottom`, the blocks (or the legacy content) separated by blank lines (buttons stay
/// together), the skip control, the indicator when at the bottom, then notes: validation errors
/// of fields not on the screen, the last action error, what the session waits for. An ended
/// session draws a summary instead. See docs in `BlockDrawing` for each block.
public enum ScreenRenderer {
  /// The current screen with its values, validation errors and pending action; every line
  /// ends with a newline. With `color` false the text has no escape sequences.
  public static func render(_ session: Session, options: RenderOptions = RenderOptions()) -> String {
    var bytes: [UInt8] = []
    write(session, options: options, into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `render`'s text appended to `bytes` as UTF-8.
  static func write(_ session: Session, options: RenderOptions, into bytes: inout [UInt8]) {
    var canvas = Canvas(color: options.color)
    swap(&canvas.bytes, &bytes)
    if session.status.isEnded {
      canvas.write(EndedDrawing(session: session, options: options).lines())
    } else {
      ScreenDrawing(session: session, options: options).write(into: &canvas)
    }
    swap(&canvas.bytes, &bytes)
  }

  /// The header line alone (`── Name (id) · type ──…`), for screens drawn without a session.
  public static func header(
    for screen: Screen, in flow: Flow, showFlow: Bool = false, options: RenderOptions
  )
    -> String
  {
    HeaderDrawing.lines(screen: screen, flow: flow, showFlow: showFlow, width: options.effectiveWidth)
      .text(color: options.color)
  }
}
