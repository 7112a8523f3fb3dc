import FlowFormat
import FlowSupport

/// Where a screen stands in a flow's progress range: step `step` of `total` (both 1-based).
///
/// The range follows Sequence's indicator (research/sequence.md §1.5): `start` is
/// `startScreen` (default 0) clamped to the flow, `end` is `endScreen` (default the last screen)
/// clamped to `start...last`; the screens counted are `start...end` minus `skipScreens`. Outside
/// `start...end` there is no position (the indicator is hidden). On a counted screen the step is
/// its rank among the counted screens; on a skipped screen it is the rank of the last counted
/// screen before it (at least 1). No counted screen, or a flow of one screen: no position.
public struct ProgressPosition: Hashable, Sendable {
  public var step: Int
  public var total: Int

  public init(step: Int, total: Int) {
    self.step = step
    self.total = total
  }

  /// `step / total`: the bar's filled fraction (Sequence's `(rel + 1) / size`).
  public var fraction: Double { total > 0 ? Double(step) / Double(total) : 0 }

  /// The position of screen `index` (0-based, in `order` order) among `screenCount` screens.
  public static func of(index: Int, screenCount: Int, indicator: ProgressIndicator?) -> ProgressPosition? {
    guard screenCount > 1, index >= 0, index < screenCount else { return nil }
    let last = screenCount - 1
    let start = min(max(indicator?.startScreen ?? 0, 0), last)
    let end = min(max(indicator?.endScreen ?? last, start), last)
    guard (start...end).contains(index) else { return nil }
    // Counted, not listed: every screen of a 28,000-screen flow asks.
    let skipped = Set(indicator?.skipScreens ?? [])
    let total = end - start + 1 - skipped.count { (start...end).contains($0) }
    guard total > 0 else { return nil }
    let step = max(1, index - start + 1 - skipped.count { (start...index).contains($0) })
    return ProgressPosition(step: step, total: total)
  }
}

/// The drawings of a progress position, one line each.
///
///     bar      ━━━━━━━━━━━━────────────────────  2/5   (at most 30 cells, filled ∝ step/total)
///     dots     ● ◉ ○ ○ ○                              (done, current, to come)
///     steps    ✓ ‹2› 3 4 5                            (done ticked, current in ‹ ›, unlike [1] buttons)
///     minimal  2/5
///     ring     ◑ 40%                                  (progress blocks only)
///
/// A drawing wider than the width falls back to `minimal` (dots, steps) or a shorter bar.
enum ProgressDrawing {
  static func line(_ position: ProgressPosition, variant: String, width: Int) -> StyledLine {
    let label = "\(position.step)/\(position.total)"
    switch variant {
    case "dots":
      return marks(position.total, width: width) { i in
        i < position.step ? ("●", .cyan) : i == position.step ? ("◉", [.cyan, .bold]) : ("○", .dim)
      } ?? StyledLine(label)
    case "steps":
      return marks(position.total, width: width) { i in
        i < position.step ? ("✓", .green) : i == position.step ? ("‹\(i)›", [.cyan, .bold]) : ("\(i)", .dim)
      } ?? StyledLine("step \(position.step) of \(position.total)")
    case "minimal":
      return StyledLine(label)
    case "ring":
      let percent = Int((position.fraction * 100).rounded())
      let glyphs = ["○", "◔", "◑", "◕", "●"]
      let glyph = glyphs[min(4, Int((position.fraction * 4).rounded()))]
      return StyledLine([StyledRun(glyph, .cyan), StyledRun(" \(percent)%")])
    default:
      let cells = max(1, min(30, width - DisplayWidth.of(label) - 2))
      let filled = min(cells, max(1, Int((position.fraction * Double(cells)).rounded())))
      return StyledLine([
        StyledRun(repeated("━", filled), .cyan),
        StyledRun(horizontalRule(cells - filled), .dim),
        StyledRun("  " + label),
      ])
    }
  }

  /// One mark per screen, separated by spaces; nil as soon as the line is wider than `width`
  /// (a flow of thousands of screens does not build a line of thousands of marks per screen).
  static func marks(_ count: Int, width: Int, _ mark: (Int) -> (String, TextStyle)) -> StyledLine? {
    var line = StyledLine()
    var used = 0
    for i in 1...count {
      if i > 1 {
        line.append(" ")
        used += 1
      }
      let (text, style) = mark(i)
      line.append(text, style)
      used += DisplayWidth.of(text)
      if used > width { return nil }
    }
    return line
  }
}
