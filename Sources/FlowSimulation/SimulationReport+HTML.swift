import FlowReplay
import Foundation

extension SimulationReport {
  /// Width of a 100 % bar in the funnel charts (SVG user units).
  public static let barWidth = 500.0

  /// One self-contained HTML page (no script, no network): per variant an SVG funnel chart, the
  /// outcomes and the funnel table; then the comparisons. Each bar is a `rect.bar` carrying
  /// `data-variant`, `data-screen`, `data-reached` and `data-users`; its width is
  /// `barWidth × reached / users`.
  public var html: String {
    var out = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <title>flowrun simulate \(Self.escape(result.flow))</title>
      <style>
      body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
      table { border-collapse: collapse; margin: 1em 0; }
      td, th { padding: 2px 10px; text-align: right; border-bottom: 1px solid #ddd; }
      td:first-child, th:first-child { text-align: left; }
      .bar { fill: #4a7bd0; } .track { fill: #eef1f6; } text { font-size: 12px; fill: #222; }
      </style>
      </head>
      <body>
      <h1>flowrun simulate: \(Self.escape(result.flow))</h1>
      <p>\(result.users) users, seed \(result.seed), model: \(Self.escape(result.model ?? "defaults")). \
      Intervals: 95 % Wilson score. Times: virtual clock.</p>

      """
    for variant in variants {
      out += "<section class=\"variant\" data-variant=\"\(Self.escape(variant.key))\">\n"
      out += "<h2>\(Self.escape(variant.key)): \(variant.users) users</h2>\n"
      out += "<p>completed \(variant.completed.count) (\(Figures.percent(variant.completed.value)), 95 % CI "
      out += "\(Figures.interval(variant.completed.interval))); dismissed \(variant.dismissed.count); dropped off "
      out += "\(variant.droppedOff.count)</p>\n"
      out += chart(variant)
      out += "<table>\n<tr><th>screen</th><th>reached</th><th>of users</th><th>95 % CI</th><th>ended here</th>"
      out += "<th>drop-off</th></tr>\n"
      for step in variant.funnel {
        out += "<tr><td>\(Self.escape(step.screen))</td><td>\(step.reached.count)</td>"
        out += "<td>\(Figures.percent(step.reached.value))</td><td>\(Figures.interval(step.reached.interval))</td>"
        out += "<td>\(step.endedHere)</td><td>\(Figures.percent(step.dropOff))</td></tr>\n"
      }
      out += "</table>\n</section>\n"
    }
    if !comparisons.isEmpty {
      out += "<h2>Completion between variants</h2>\n<p>Two-proportion z-test (pooled, two-sided).</p>\n<ul>\n"
      for comparison in comparisons {
        out += "<li>\(Self.escape(comparison.variant)) vs \(Self.escape(comparison.baseline)): "
        out += "\(Figures.fixed(comparison.difference * 100, 1)) points"
        if let z = comparison.z, let p = comparison.p {
          out += ", z = \(Figures.fixed(z, 2)), p = \(Figures.fixed(p, 4))"
        }
        out += "</li>\n"
      }
      out += "</ul>\n"
    }
    return out + "</body>\n</html>\n"
  }

  /// The funnel of one variant as SVG: a labelled track and bar per screen.
  private func chart(_ variant: Variant) -> String {
    let row = 26.0
    let label = 200.0
    let height = Double(variant.funnel.count) * row + 4
    var svg =
      "<svg class=\"funnel\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(label + Self.barWidth + 90))\" "
      + "height=\"\(Int(height))\" role=\"img\" aria-label=\"funnel of \(Self.escape(variant.key))\">\n"
    for (index, step) in variant.funnel.enumerated() {
      let y = Double(index) * row + 2
      let width = Self.barWidth * step.reached.value
      svg += "<text x=\"0\" y=\"\(Figures.fixed(y + 15, 0))\">\(Self.escape(step.screen))</text>"
      svg +=
        "<rect class=\"track\" x=\"\(Int(label))\" y=\"\(Figures.fixed(y, 0))\" width=\"\(Int(Self.barWidth))\" height=\"20\"/>"
      svg +=
        "<rect class=\"bar\" x=\"\(Int(label))\" y=\"\(Figures.fixed(y, 0))\" width=\"\(Figures.fixed(width, 2))\" "
      svg += "height=\"20\" data-variant=\"\(Self.escape(variant.key))\" data-screen=\"\(Self.escape(step.screen))\" "
      svg += "data-reached=\"\(step.reached.count)\" data-users=\"\(variant.users)\"/>"
      svg += "<text x=\"\(Int(label + Self.barWidth + 8))\" y=\"\(Figures.fixed(y + 15, 0))\">"
      svg += "\(Figures.percent(step.reached.value))</text>\n"
    }
    return svg + "</svg>\n"
  }

  /// Text for HTML element content and attribute values.
  static func escape(_ text: String) -> String { ReplayReport.escape(text) }
}
