/// One target of the issues (#17, #14, #23) next to what a benchmark measured: the "Targets"
/// table `flowrun-bench run` prints after the benchmark table (docs/performance.md, "How to
/// measure").
public struct BenchTarget: Sendable, Equatable {
  /// How the measured value must compare with the goal.
  public enum Comparison: Sendable, Equatable {
    case below
    case atMost
    case atLeast
  }

  /// What the numbers are, for writing them.
  public enum Unit: Sendable, Equatable {
    case seconds
    case bytes
    /// A ratio of two measurements, written `0.59x`.
    case ratio
    /// A rate, written `1.32 M steps/s` for `perSecond("steps")`.
    case perSecond(String)
    /// Whether something was seen: 1 when it was, 0 when not; the goal is 1.
    case presence
  }

  /// The issue and item, then what is measured on what (`#17 item 3: paths, 10,000 screens`).
  public var name: String
  /// Nil when the benchmark could not measure it (a tool missing, a child that did not start).
  public var measured: Double?
  public var comparison: Comparison
  public var goal: Double
  public var unit: Unit
  /// What else the reader needs (the two sides of a ratio, why it was not measured).
  public var note: String

  public init(
    _ name: String, measured: Double?, _ comparison: Comparison, _ goal: Double, unit: Unit, note: String = ""
  ) {
    self.name = name
    self.measured = measured
    self.comparison = comparison
    self.goal = goal
    self.unit = unit
    self.note = note
  }

  /// Whether the measured value meets the goal; nil when nothing (or no finite number) was
  /// measured.
  public var isMet: Bool? {
    guard let measured, measured.isFinite else { return nil }
    switch comparison {
    case .below: return measured < goal
    case .atMost: return measured <= goal
    case .atLeast: return measured >= goal
    }
  }

  public var status: String {
    switch isMet {
    case true?: "met"
    case false?: "**NOT met**"
    case nil: "**not measured**"
    }
  }

  public var measuredText: String {
    guard let measured, measured.isFinite else { return "—" }
    return Self.format(measured, unit)
  }

  public var goalText: String {
    if unit == .presence { return "shown" }
    let sign =
      switch comparison {
      case .below: "<"
      case .atMost: "≤"
      case .atLeast: "≥"
      }
    return "\(sign) \(Self.format(goal, unit))"
  }

  static func format(_ value: Double, _ unit: Unit) -> String {
    switch unit {
    case .seconds: formatSeconds(value)
    case .bytes: formatBytes(Int(value.rounded()))
    case .ratio: "\(fixed(value, 2))x"
    case .perSecond(let what): "\(formatCount(value)) \(what)/s"
    case .presence: value >= 1 ? "shown" : "not shown"
    }
  }
}

/// The "Targets" table: a Markdown table of every target, then a line that counts them.
public enum BenchTargetTable {
  /// The table's lines; empty when no benchmark that was run has a target.
  public static func lines(_ targets: [BenchTarget]) -> [String] {
    guard !targets.isEmpty else { return [] }
    var lines = ["| Target | Measured | Goal | Status | Notes |", "|---|---:|---:|---|---|"]
    for target in targets {
      let cells = [target.name, target.measuredText, target.goalText, target.status, target.note]
      lines.append("| " + cells.map(escaped).joined(separator: " | ") + " |")
    }
    lines.append("")
    lines.append(summary(targets))
    return lines
  }

  /// `12 of 14 targets met; not met: …; not measured: …`.
  public static func summary(_ targets: [BenchTarget]) -> String {
    let met = targets.count { $0.isMet == true }
    var text = "\(met) of \(targets.count) targets met"
    let missed = targets.filter { $0.isMet == false }.map(\.name)
    let unmeasured = targets.filter { $0.isMet == nil }.map(\.name)
    if !missed.isEmpty { text += "; not met: " + missed.joined(separator: "; ") }
    if !unmeasured.isEmpty { text += "; not measured: " + unmeasured.joined(separator: "; ") }
    return text + "."
  }

  /// Whether every target was measured and met (`--strict` exits 0 only then).
  public static func allMet(_ targets: [BenchTarget]) -> Bool {
    targets.allSatisfy { $0.isMet == true }
  }

  /// A cell's text with the table's separators escaped.
  static func escaped(_ text: String) -> String {
    text.replacing("|", with: "\\|").replacing("\n", with: " ")
  }
}
