import FlowExpression
import Testing

@testable import FlowFormat

/// `Flow.index(of:)` finds the first screen of each id, and nothing for an id no screen has,
/// whatever the count (the index's table grows by powers of two).
@Suite struct ScreenIndexTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var ids: [String]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "no screens", ids: []),
    Case(name: "one screen", ids: ["a"]),
    Case(name: "a repeated id", ids: ["a", "b", "a", "c", "b"]),
    Case(name: "an empty id", ids: ["", "x"]),
    Case(name: "3 screens, a full 4-slot table", ids: ["s0", "s1", "s2"]),
    Case(name: "1,000 screens", ids: (0..<1_000).map { "s\($0)" }),
    Case(name: "2,000 long ids, every one twice", ids: (0..<2_000).map { "main_info_screen_\($0 % 1_000)" }),
  ]

  static func screen(_ id: String) -> Screen {
    Screen(
      id: id, name: id, kind: .feature, type: "feature", order: 0,
      content: ScreenContent(
        usesBlocks: true, blocks: [], buttonText: TextTemplate(template: .init(parsing: "Go"), location: nil)),
      location: SourceLocation(line: 1, column: 1, offset: 0))
  }

  @Test(arguments: cases) func findsTheFirstScreenOfEachID(_ testCase: Case) {
    let flow = Flow(
      id: "f", name: "f", version: 1, screens: testCase.ids.map(Self.screen),
      location: SourceLocation(line: 1, column: 1, offset: 0))
    for id in Set(testCase.ids) {
      #expect(flow.index(of: id) == testCase.ids.firstIndex(of: id), "\(id)")
      #expect(flow.screen(id)?.id == id)
    }
    for missing in ["missing", "s1000", "S0", "a "] where !testCase.ids.contains(missing) {
      #expect(flow.index(of: missing) == nil, "\(missing)")
    }
  }
}
