import FlowBenchSupport
import Testing

/// The "Targets" table `flowrun-bench run` prints: whether each measured value meets its goal,
/// how values and goals are written, and the table and summary lines (no timing here: the
/// values are given).
@Suite struct BenchTargetTests {
  struct Case: Sendable, CustomStringConvertible {
    var measured: Double?
    var comparison: BenchTarget.Comparison
    var goal: Double
    var met: Bool?
    var description: String { "\(measured.map { "\($0)" } ?? "nil") \(comparison) \(goal)" }
  }

  @Test(arguments: [
    Case(measured: 29.9, comparison: .below, goal: 30, met: true),
    Case(measured: 30, comparison: .below, goal: 30, met: false),
    Case(measured: 0.6, comparison: .atMost, goal: 0.6, met: true),
    Case(measured: 0.61, comparison: .atMost, goal: 0.6, met: false),
    Case(measured: 1_000_000, comparison: .atLeast, goal: 1_000_000, met: true),
    Case(measured: 999_999, comparison: .atLeast, goal: 1_000_000, met: false),
    Case(measured: nil, comparison: .atMost, goal: 2, met: nil),
    Case(measured: .infinity, comparison: .below, goal: 5, met: nil),
    Case(measured: .nan, comparison: .atLeast, goal: 1, met: nil),
  ])
  func metOrNot(_ c: Case) {
    let target = BenchTarget("t", measured: c.measured, c.comparison, c.goal, unit: .ratio)
    #expect(target.isMet == c.met)
    #expect(target.status == (c.met == true ? "met" : c.met == false ? "**NOT met**" : "**not measured**"))
  }

  @Test(arguments: [
    (BenchTarget("a", measured: 0.0123, .below, 0.02, unit: .seconds), "12.3 ms", "< 20.0 ms"),
    (BenchTarget("b", measured: 27.314, .below, 30, unit: .seconds), "27.31 s", "< 30.00 s"),
    (BenchTarget("c", measured: 0.5949, .atMost, 0.6, unit: .ratio), "0.59x", "≤ 0.60x"),
    (BenchTarget("d", measured: 925_400_000, .atMost, 1e9, unit: .bytes), "925.4 MB", "≤ 1000.0 MB"),
    (
      BenchTarget("e", measured: 1_320_000, .atLeast, 1e6, unit: .perSecond("steps")), "1.32 M steps/s",
      "≥ 1.00 M steps/s"
    ),
    (
      BenchTarget("f", measured: 66_300, .atLeast, 200_000, unit: .perSecond("users")), "66.3 k users/s",
      "≥ 200.0 k users/s"
    ),
    (BenchTarget("g", measured: 1, .atLeast, 1, unit: .presence), "shown", "shown"),
    (BenchTarget("h", measured: 0, .atLeast, 1, unit: .presence), "not shown", "shown"),
    (BenchTarget("i", measured: nil, .atMost, 2, unit: .ratio), "—", "≤ 2.00x"),
  ])
  func valuesAndGoalsAreWritten(_ target: BenchTarget, _ measured: String, _ goal: String) {
    #expect(target.measuredText == measured)
    #expect(target.goalText == goal)
  }

  @Test func tableListsEveryTargetThenCounts() {
    let targets = [
      BenchTarget(
        "#17 item 5: `flowrun --version`", measured: 0.0122, .below, 0.020, unit: .seconds, note: "20 spawns"),
      BenchTarget("#17 item 2: a | b", measured: 1.46, .atMost, 0.6, unit: .ratio, note: "0.79 s / 0.54 s"),
      BenchTarget(
        "#14 item 6: simulate", measured: nil, .atLeast, 200_000, unit: .perSecond("users"), note: "did not run"),
    ]
    #expect(
      BenchTargetTable.lines(targets) == [
        "| Target | Measured | Goal | Status | Notes |",
        "|---|---:|---:|---|---|",
        "| #17 item 5: `flowrun --version` | 12.2 ms | < 20.0 ms | met | 20 spawns |",
        "| #17 item 2: a \\| b | 1.46x | ≤ 0.60x | **NOT met** | 0.79 s / 0.54 s |",
        "| #14 item 6: simulate | — | ≥ 200.0 k users/s | **not measured** | did not run |",
        "",
        "1 of 3 targets met; not met: #17 item 2: a | b; not measured: #14 item 6: simulate.",
      ])
    #expect(!BenchTargetTable.allMet(targets))
  }

  @Test(arguments: [
    ([Double?](), true, "0 of 0 targets met."),
    ([0.5, 0.6], true, "2 of 2 targets met."),
    ([0.5, 0.7], false, "1 of 2 targets met; not met: 1."),
    ([0.5, nil], false, "1 of 2 targets met; not measured: 1."),
  ])
  func strictNeedsEveryTargetMeasuredAndMet(_ values: [Double?], _ allMet: Bool, _ summary: String) {
    let targets = values.enumerated().map {
      BenchTarget("\($0.offset)", measured: $0.element, .atMost, 0.6, unit: .ratio)
    }
    #expect(BenchTargetTable.allMet(targets) == allMet)
    #expect(BenchTargetTable.summary(targets) == summary)
    #expect(BenchTargetTable.lines(targets).isEmpty == values.isEmpty)
  }
}
