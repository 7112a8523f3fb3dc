import FlowTerminal
import Testing

@Suite struct CompletionTests {}

extension CompletionTests {
  @Test(arguments: [
    ("", ""),
    ("sta", "sta"),
    ("  sta", "sta"),
    (":goto we", "we"),
    (":goto ", ""),
    ("a\tb", "b"),
  ])
  func wordAtCursor(linePrefix: String, expected: String) {
    #expect(Completion.wordAtCursor(in: linePrefix) == expected[...])
  }

  @Test(arguments: [
    ([String](), ""),
    (["start"], "start"),
    (["start", "status"], "sta"),
    (["start", "stop", "status"], "st"),
    (["abc", "xyz"], ""),
    (["café", "cafés"], "café"),
    (["e\u{301}a", "e\u{301}b"], "e\u{301}"),
  ])
  func longestCommonPrefix(strings: [String], expected: String) {
    #expect(Completion.longestCommonPrefix(strings) == expected)
  }

  @Test func uniqueMatchInsertsTheRest() {
    #expect(Completion.resolve(word: "sto", candidates: ["start", "stop"]) == .insert("p"))
  }

  @Test func completeWordInsertsNothing() {
    #expect(Completion.resolve(word: "stop", candidates: ["stop", "start"]) == .insert(""))
  }

  @Test func ambiguousMatchesExtendToTheirCommonPrefixAndList() {
    #expect(
      Completion.resolve(word: "s", candidates: ["start", "status", "quit", "start"])
        == .ambiguous(insert: "ta", candidates: ["start", "status"]))
  }

  @Test func noMatch() {
    #expect(Completion.resolve(word: "x", candidates: ["start"]) == .noMatch)
    #expect(Completion.resolve(word: "", candidates: []) == .noMatch)
  }

  @Test func matchingIsCaseSensitive() {
    #expect(Completion.resolve(word: "get", candidates: ["Get started"]) == .noMatch)
  }

  @Test func emptyWordOffersEveryCandidate() {
    #expect(
      Completion.resolve(word: "", candidates: [":back", ":skip"])
        == .ambiguous(insert: ":", candidates: [":back", ":skip"]))
  }

  @Test func columnsFillDownThenAcross() {
    let items = ["one", "two", "three", "four", "five"]
    #expect(Completion.columns(items, width: 20) == ["one    three  five", "two    four"])
    #expect(Completion.columns(items, width: 12) == ["one    four", "two    five", "three"])
    #expect(Completion.columns(items, width: 200) == ["one    two    three  four   five"])
    #expect(Completion.columns(items, width: 1) == items)
    #expect(Completion.columns([], width: 80) == [])
  }
}
