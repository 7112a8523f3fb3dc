import FlowExpression
import Testing

/// Inputs found by the libFuzzer targets (`.ci/fuzz`), each of which crashed before its fix.
@Suite struct FuzzRegressionTests {
  /// `Int(digits)` trapped when the digit count of `round` was beyond Int's range
  /// (found by `.ci/fuzz expression`: `{hours_daily * 1 / 25 | round: 1e300}`-like input).
  @Test(arguments: ["1e300", "-1e300", "9223372036854775807", "-9223372036854775808", "1e19"])
  func roundWithAHugeDigitCountDoesNotTrap(_ digits: String) throws {
    let filter = Template(parsing: "{hours_per_day / 3 | round: \(digits)}").render(in: sampleData)
    #expect(!filter.text.isEmpty)
    let function = try Expression.parse("round(hours_per_day / 3, \(digits))").evaluate(in: sampleData)
    let expected: Value = digits.hasPrefix("-") ? 0 : .number(2.0 / 3)
    #expect(function == expected)
  }

  @Test func roundStillRoundsNormally() throws {
    #expect(try Expression.parse("round(2 / 3, 2)").evaluate(in: sampleData) == 0.67)
    #expect(try Expression.parse("round(1234.5, -2)").evaluate(in: sampleData) == 1200)
    #expect(Template(parsing: "{value / 7 | round: 1}").render(in: sampleData).text == "176366.7")
  }
}
