import FlowExpression
import Testing

@Suite struct NumberFormattingTests {
  // Expected strings were produced by Node's String(x).
  @Test(arguments: [
    (730.0, "730"), (182.5, "182.5"), (1.0 / 3.0, "0.3333333333333333"), (1e21, "1e+21"),
    (1e20, "100000000000000000000"), (-0.0, "0"), (0.0, "0"), (Double.nan, "NaN"),
    (Double.infinity, "Infinity"), (-Double.infinity, "-Infinity"),
    (0.1 + 0.2, "0.30000000000000004"), (1e-6, "0.000001"), (1e-7, "1e-7"),
    (123e-20, "1.23e-18"), (Double.leastNonzeroMagnitude, "5e-324"),
    (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
    (9_007_199_254_740_992, "9007199254740992"),
    (123_456_789_012_345_683_968, "123456789012345680000"),
    (-1.5, "-1.5"), (0.000123, "0.000123"), (1.5e300, "1.5e+300"),
    (1.2345678e16, "12345678000000000"),
    (-1e-7, "-1e-7"), (100, "100"), (0.1, "0.1"), (2_469_134, "2469134"),
  ])
  func javaScriptString(value: Double, expected: String) {
    #expect(NumberFormatting.javaScriptString(value) == expected)
  }

  // Expected strings were produced by Node's Intl.NumberFormat("en-US", {maximumFractionDigits: 3}).
  @Test(arguments: [
    (2_469_134.0, "2,469,134"), (1_234_567.891, "1,234,567.891"), (182.5, "182.5"),
    (0.0005, "0.001"),
    (1.0005, "1.001"), (-1234.5678, "-1,234.568"), (999.9995, "1,000"),
    (1e21, "1,000,000,000,000,000,000,000"), (0.1 + 0.2, "0.3"), (1.005, "1.005"), (0, "0"),
    (123, "123"), (1000, "1,000"), (-0.0001, "0"), (Double.nan, "NaN"), (Double.infinity, "∞"),
  ])
  func grouped(value: Double, expected: String) {
    #expect(NumberFormatting.grouped(value) == expected)
  }

  @Test(arguments: [
    (2.5, 0, 3.0), (-2.5, 0, -3.0), (1.005, 2, 1.01), (182.456, 1, 182.5), (0.4, 0, 0.0),
    (1234.5, -2, 1200.0), (9.995, 2, 10.0), (-0.4, 0, -0.0),
  ])
  func roundHalfAwayFromZero(value: Double, digits: Int, expected: Double) {
    #expect(NumberFormatting.round(value, fractionDigits: digits) == expected)
  }
}
