import FlowExpression
import Testing

/// The arithmetic every bound of `Limits` relies on, and the template output bound.
@Suite struct LimitsTests {
  @Test(
    arguments: [
      (Int64.max, 1, Int64.max),
      (Int64.max - 1, 1, Int64.max),
      (Int64.min, -1, Int64.min),
      (
        Limits.clockMs.upperBound, Limits.durationMs.upperBound,
        Limits.clockMs.upperBound + Limits.durationMs.upperBound
      ),
      (-5, 3, -2),
    ] as [(Int64, Int64, Int64)])
  func saturatingAddStopsAtTheEnds(_ a: Int64, _ b: Int64, _ sum: Int64) {
    #expect(Limits.saturatingAdd(a, b) == sum)
  }

  @Test(
    arguments: [
      (0.0, 0), (-1, 0), (.nan, 0), (0.2, 1), (1000, 1000), (1e12, 1_000_000_000_000),
      (1e19, 1_000_000_000_000), (.infinity, 1_000_000_000_000),
    ] as [(Double, Int64)])
  func millisecondsAreWholeAndBounded(_ value: Double, _ ms: Int64) {
    #expect(Limits.milliseconds(value) == ms)
  }

  @Test(arguments: [(5, 20), (20, 20), (80, 80), (1000, 1000), (Int.max, 1000), (Int.min, 20)])
  func widthsClampIntoTheirRange(_ width: Int, _ clamped: Int) {
    #expect(Limits.clamp(width, to: Limits.width) == clamped)
  }

  @Test func rangesReadAsText() {
    #expect(Limits.text(Limits.durationMs) == "between 0 and 1,000,000,000,000")
    #expect(
      Limits.text(-Limits.magnitude...Limits.magnitude) == "between -1,000,000,000,000,000 and 1,000,000,000,000,000")
  }

  // (references to a value of `size` bytes, whether the output is cut)
  @Test(arguments: [(4, 1_000_000, false), (5, 1_000_000, true), (1, 5 << 20, true), (1000, 1 << 20, true)])
  func templateOutputIsCutAtItsBound(_ references: Int, _ size: Int, _ cut: Bool) {
    let template = Template(parsing: "«" + String(repeating: "{big}-", count: references) + "»")
    let rendering = template.render(in: ["big": .string(String(repeating: "é", count: size / 2))])
    let mark = " [… output cut at 4,194,304 bytes]"
    #expect(rendering.text.hasSuffix(mark) == cut)
    #expect(rendering.text.utf8.count <= Limits.templateBytes + mark.utf8.count)
    if cut {
      #expect(rendering.issues.map(\.message) == ["output longer than 4,194,304 bytes; cut there"])
      // Cut at a character boundary: what is left is whole `é`s after the opening text.
      let kept = rendering.text.dropLast(mark.count).dropFirst()
      #expect(kept.allSatisfy { $0 == "é" || $0 == "-" })
    } else {
      #expect(rendering.issues.isEmpty)
      #expect(rendering.text.utf8.count == 4 + references * (size + 1))
    }
  }
}
