import FlowExpression
import Testing

@testable import FlowSimulation

/// `AnswerCounts` counts answers by display text exactly as a dictionary keyed by the text
/// does (the same keys, spelt as first seen), whatever it keeps as values: numbers of one text
/// but other bits (0 and -0), canonically equal texts of other bytes, more distinct answers
/// than it lists, non-scalars.
@Suite struct AnswerCountsTests {
  static let tables: [[Value]] = [
    [.string("lose"), .string("build"), .string("lose"), .bool(true), .bool(false), .bool(true)],
    [.number(0), .number(-0.0), .number(0), .number(1.5), .string("1.5"), .number(.nan), .number(.nan)],
    [.string("caf\u{E9}"), .string("cafe\u{301}"), .string("caf\u{E9}"), .string("")],
    (0..<40).map { .number(Double($0 % 23)) } + (0..<30).map { .string("t\($0 % 19)") },
    [.null, .list([.string("a")]), .list([.number(1), .null]), .list([.string("a")]), .null],
  ]

  @Test(arguments: tables)
  func countsLikeADictionaryOfTexts(_ answers: [Value]) {
    var counts = AnswerCounts()
    var expected: [String: Int] = [:]
    for answer in answers {
      counts.add(answer)
      expected[answer.displayString, default: 0] += 1
    }
    #expect(counts.byText == expected)
    #expect(
      counts.byText.keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        == expected.keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) })
    #expect(counts.isEmpty == answers.isEmpty)
  }
}
