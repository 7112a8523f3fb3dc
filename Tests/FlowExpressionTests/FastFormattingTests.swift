import Testing

@testable import FlowExpression

/// The shortcuts of number printing and string quoting against the general code.
@Suite struct FastFormattingTests {
  @Test(arguments: [
    1.0, -1, 7, 30, 730, -42, 1e15, 9_007_199_254_740_991, -9_007_199_254_740_991, 123_456_789_012, 2e10,
  ])
  func integersPrintAsTheirDigits(_ value: Double) {
    #expect(NumberFormatting.javaScriptString(value) == NumberFormatting.javaScriptDigitsString(value))
  }

  @Test func seededIntegersPrintAsTheirDigits() {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<2_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let magnitude = Double((state >> 11) >> (state % 50))
      let value = state & 1 == 0 ? magnitude : -magnitude
      guard value != 0 else { continue }
      #expect(NumberFormatting.javaScriptString(value) == NumberFormatting.javaScriptDigitsString(value))
    }
  }

  @Test(arguments: [
    ("plain", "'plain'"), ("", "''"), ("it's", "'it\\'s'"), ("a\\b", "'a\\\\b'"), ("l1\nl2", "'l1\\nl2'"),
    ("t\tt", "'t\\tt'"), ("cr\r\n", "'cr\\r\\n'"), ("é ü 💪", "'é ü 💪'"),
  ])
  func quoting(_ text: String, _ quoted: String) {
    #expect(Value.string(text).description == quoted)
  }
}
