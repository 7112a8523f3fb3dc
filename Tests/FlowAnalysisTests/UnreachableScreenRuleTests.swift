import FlowFormat
import Testing

@testable import FlowAnalysis

/// `check.unreachable-screen` reports each region of unreachable screens once, at the first
/// screen no other unreachable one leads to, and names the rest in a note: every unreachable
/// screen is either reported or named, once.
@Suite struct UnreachableScreenRuleTests {
  static let go = Example.button("go")
  static let back = Example.button("back", "Back", action: #"{"type": "previous"}"#)
  static let done = Example.button("done", "Done", action: #"{"type": "complete"}"#)
  static func to(_ screen: String) -> String {
    Example.button("to_\(screen)", action: #"{"type": "screen", "screenId": "\#(screen)"}"#)
  }
  static func screen(_ id: String, _ blocks: [String]) -> String { Example.screen(id, "feature", blocks) }

  /// (what, flow, the reported screens with the count of screens their note names).
  static let cases: [(String, String, [String: Int])] = [
    ("every screen reached", Example.flow([screen("a", [go]), screen("b", [go]), screen("c", [done])]), [:]),
    (
      "a dead end early: the chain after it is one warning",
      Example.flow([
        screen("a", [go]), screen("stuck", [back]), screen("c1", [go]), screen("c2", [go]), screen("c3", [go]),
        screen("c4", [done]),
      ]),
      ["c1": 3]
    ),
    (
      "two regions, the first ending in a dead end of its own",
      Example.flow([
        screen("a", [done]), screen("r1", [go]), screen("r1_stuck", [back]), screen("r2", [go]),
        screen("r2_end", [done]),
      ]),
      ["r1": 1, "r2": 1]
    ),
    (
      "a lone unreachable screen has no note",
      Example.flow([screen("a", [done]), screen("lone", [done])]),
      ["lone": 0]
    ),
    (
      "a loop nothing leads to: one warning at its first screen",
      Example.flow([screen("a", [done]), screen("x", [to("y")]), screen("y", [to("x")])]),
      ["x": 1]
    ),
    (
      "two orphans into one shared screen: the shared one is named once",
      Example.flow([
        screen("a", [done]), screen("o1", [to("shared")]), screen("o2", [to("shared")]), screen("shared", [done]),
      ]),
      ["o1": 1, "o2": 0]
    ),
  ]

  @Test(arguments: cases)
  func regions(_ what: String, _ json: String, _ expected: [String: Int]) throws {
    let found = FlowChecker.check(json: json).filter { $0.id == "check.unreachable-screen" }
    var reported: [String: Int] = [:]
    for diagnostic in found {
      let id = try #require(diagnostic.message.split(separator: "'").dropFirst().first.map(String.init))
      let note = diagnostic.notes.first?.message ?? ""
      // "it leads to N more screens no path reaches: …"
      let count = note.split(separator: " ").dropFirst(3).first.flatMap { Int($0) } ?? 0
      reported[id] = count
    }
    #expect(reported == expected, "\(what): \(found.map { ($0.message, $0.notes.map(\.message)) })")
  }

  @Test func noteNamesThreeAndCountsTheRest() {
    let chain = (1...6).map { Self.screen("c\($0)", [$0 == 6 ? Self.done : Self.go]) }
    let json = Example.flow([Self.screen("a", [Self.go]), Self.screen("stuck", [Self.back])] + chain)
    let found = FlowChecker.check(json: json).filter { $0.id == "check.unreachable-screen" }
    #expect(
      found.flatMap { $0.notes.map(\.message) } == [
        "it leads to 5 more screens no path reaches: 'c2', 'c3', 'c4' and 2 more"
      ])
  }
}
