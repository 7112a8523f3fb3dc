import FlowExpression
import Testing

@Suite struct ValueTests {
  @Test(
    arguments: [
      (Value.string("build"), "'build'"), (2, "2"), (["a", "b"], "['a', 'b']"), (nil, "null"),
      (true, "true"), ("it's", "'it\\'s'"), (["k": 1, "a": [true]], "{'k': 1, 'a': [true]}"),
      (182.5, "182.5"),
    ] as [(Value, String)])
  func description(value: Value, expected: String) {
    #expect(value.description == expected)
  }

  @Test(
    arguments: [
      (Value.string("build"), "build"), (730, "730"), (["a", "b"], "a, b"), (nil, ""),
      (false, "false"),
      ([1, 2.5], "1, 2.5"),
    ] as [(Value, String)])
  func displayString(value: Value, expected: String) {
    #expect(value.displayString == expected)
  }

  @Test(
    arguments: [
      (Value.string("42"), 42.0 as Double?), (" 4.5 ", 4.5), ("-3e2", -300), ("+1", 1), ("", nil),
      ("abc", nil), ("0x10", nil), ("inf", nil), ("nan", nil), ("1e", nil), (".5", 0.5), ("5.", 5),
      (7, 7), (true, nil), (nil, nil),
    ] as [(Value, Double?)])
  func numericValue(value: Value, expected: Double?) {
    #expect(value.numericValue == expected)
  }

  @Test(
    arguments: [
      (Value.null, false), (true, true), (false, false), (0, false), (1, true), ("", false),
      ("x", true), ([], false), ([0], true), ([:], false), (["a": 1], true),
    ] as [(Value, Bool)])
  func truthiness(value: Value, expected: Bool) {
    #expect(value.isTruthy == expected)
  }
}
