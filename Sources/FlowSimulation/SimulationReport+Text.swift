import FlowSupport

extension SimulationReport {
  /// The text report: a header, one section per variant (outcomes, time to complete, funnel,
  /// answers, paths), then the comparisons.
  public var text: String {
    var out = "flowrun simulate \(result.flow): \(result.users) users, seed \(result.seed)"
    out += ", model: \(result.model ?? "defaults (docs/simulate.md)")\n"
    out += "Intervals: 95 % Wilson score. Times: virtual clock, \(VariantTally.bucketMilliseconds) ms buckets.\n"
    for variant in variants {
      out += "\n== \(variant.key): \(variant.users) users\n"
      out += "completed    \(rate(variant.completed))\n"
      out += "dismissed    \(rate(variant.dismissed))\n"
      out += "dropped off  \(rate(variant.droppedOff))\n"
      if variant.stuck > 0 { out += "stuck        \(variant.stuck) (no valid answer or control)\n" }
      if variant.failed > 0 { out += "failed       \(variant.failed) (the engine stopped the session)\n" }
      if !variant.completionTime.isEmpty {
        out += "time to complete: "
        out += variant.completionTime.map { "p\($0.quantile) \(Figures.seconds($0.milliseconds))" }.joined(
          separator: "  ")
        out += "\n"
      }
      out += "\n"
      var rows = [["screen", "reached", "of users", "95 % CI", "ended here", "drop-off"]]
      for step in variant.funnel {
        rows.append([
          step.screen, String(step.reached.count), Figures.percent(step.reached.value),
          Figures.interval(step.reached.interval), String(step.endedHere), Figures.percent(step.dropOff),
        ])
      }
      out += Self.table(rows)
      if !variant.answers.isEmpty {
        out += "\nanswers (users who ended with each; a multi-select counts each option)\n"
        for (field, values) in variant.answers {
          let shown = values.prefix(Self.shownAnswers).map { "\($0.answer) \($0.count)" }
          let more = values.count > Self.shownAnswers ? ", … (\(values.count - Self.shownAnswers) more)" : ""
          out += "  \(field): \(shown.joined(separator: ", "))\(more)\n"
        }
      }
      out += "\nmost frequent paths\n"
      for (path, count) in variant.paths.prefix(Self.shownPaths) {
        let share = Figures.percent(variant.users > 0 ? Double(count) / Double(variant.users) : 0)
        out += "  \(count) (\(share)): \(path)\n"
      }
    }
    if !comparisons.isEmpty {
      out += "\n== completion between variants: two-proportion z-test (pooled, two-sided)\n"
      for comparison in comparisons {
        let rateOf = { (key: String) in
          self.variants.first { $0.key == key }.map { Figures.percent($0.completed.value) } ?? ""
        }
        out +=
          "\(comparison.variant) vs \(comparison.baseline): \(rateOf(comparison.variant)) vs \(rateOf(comparison.baseline))"
        out += " (\(Figures.fixed(comparison.difference * 100, 1)) points)"
        if let z = comparison.z, let p = comparison.p {
          out += ", z = \(Figures.fixed(z, 2)), p \(p < 0.0001 ? "< 0.0001" : "= " + Figures.fixed(p, 4))"
          out += p < 0.05 ? ", significant at 5 %\n" : ", not significant at 5 %\n"
        } else {
          out += ", no test (no variance)\n"
        }
      }
    }
    return out
  }

  private func rate(_ rate: Rate) -> String {
    "\(rate.count) (\(Figures.percent(rate.value)), 95 % CI \(Figures.interval(rate.interval)))"
  }

  /// Rows as columns: the first column left-aligned, the others right-aligned.
  static func table(_ rows: [[String]]) -> String {
    guard let columns = rows.first?.count else { return "" }
    let widths = (0..<columns).map { column in rows.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
    return rows.map { row in
      row.enumerated().map { column, cell in
        let pad = String(repeating: " ", count: widths[column] - DisplayWidth.of(cell))
        return column == 0 ? cell + pad : pad + cell
      }.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
    }.joined()
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
