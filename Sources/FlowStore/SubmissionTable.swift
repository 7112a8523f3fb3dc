import FlowExpression
import FlowFormat
import FlowSupport

/// `flowrun submissions` on a terminal: one line per row, the API's fields in columns, the
/// data as compact JSON cut to fit.
public enum SubmissionTable {
  /// The widest data column before it is cut with `…`.
  static let dataWidth = 60

  public static func text(_ page: SubmissionPage) -> String {
    let header = ["CREATED", "SESSION", "USER", "LAST SCREEN", "COMPLETED", "DATA"]
    let rows = page.submissions.map { row in
      [
        row.createdAt, row.sessionID, row.userID,
        row.lastScreenID.map { id in row.lastScreenIndex.map { "\(id) #\($0)" } ?? id } ?? "-",
        row.completedAt ?? "-", cut(Value.object(row.data).json),
      ]
    }
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
    var text = ""
    for line in all {
      let cells = line.enumerated().map { column, cell in
        column == line.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - DisplayWidth.of(cell))
      }
      text += cells.joined(separator: "  ") + "\n"
    }
    let shown = page.submissions.count
    text += "\(shown) of \(page.total) submission\(page.total == 1 ? "" : "s")\n"
    return text
  }

  private static func cut(_ text: String) -> String {
    guard DisplayWidth.of(text) > dataWidth else { return text }
    var out = ""
    var width = 0
    for character in text {
      let next = DisplayWidth.of(character)
      if width + next > dataWidth - 1 { break }
      out.append(character)
      width += next
    }
    return out + "…"
  }
}
