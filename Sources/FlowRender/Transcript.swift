/// A plain-text record of a walk: each rendered screen followed by the line typed at it (and
/// what the session said back), as replay `snapshot:` steps compare and write.
///
///     ── Name · form ──────────
///     …the screen…
///     > Alex
///     ! Names can't contain digits
///
///     ── Next screen ──────────
///
/// Screens are stored as rendered; any ANSI styling is removed, trailing spaces are trimmed,
/// entries are separated by one blank line, and the document ends with exactly one newline.
public enum Transcript {
  /// One step of a walk.
  public struct Entry: Hashable, Sendable {
    /// The screen as `ScreenRenderer.render` drew it (empty when nothing was drawn).
    public var screen: String
    /// The input line typed at it; nil for the last screen, or a screen left without input.
    public var input: String?
    /// What the session said about the input (a rejection, a validation error), one a line.
    public var responses: [String]

    public init(screen: String, input: String? = nil, responses: [String] = []) {
      self.screen = screen
      self.input = input
      self.responses = responses
    }
  }

  /// The whole transcript as one document.
  public static func render(_ entries: [Entry]) -> String {
    var blocks: [String] = []
    for entry in entries {
      var lines = stripANSI(entry.screen).split(separator: "\n", omittingEmptySubsequences: false).map(trimEnd)
      while lines.last?.isEmpty == true { lines.removeLast() }
      if let input = entry.input { lines.append(trimEnd("> " + input)) }
      for response in entry.responses {
        for line in stripANSI(response).split(separator: "\n", omittingEmptySubsequences: false) {
          lines.append(trimEnd("! " + line))
        }
      }
      if !lines.isEmpty { blocks.append(lines.joined(separator: "\n")) }
    }
    return blocks.isEmpty ? "" : blocks.joined(separator: "\n\n") + "\n"
  }

  private static func trimEnd(_ line: some StringProtocol) -> String {
    var text = String(line)
    while text.last == " " { text.removeLast() }
    return text
  }
}
