import FlowFormat
import FlowPattern
import Foundation
import Testing

/// Patterns are compiled at load: an invalid one is `load.invalid-regex` at its string (input
/// `pattern` or `matches` value), a valid one is listed with its string in `LoadResult.patterns`.
@Suite struct PatternLoadingTests {
  static let flow = """
    {"version": 1, "id": "p", "screens": [
      {"id": "a", "name": "A", "type": "form", "content": {"blocks": [
        {"id": "i", "type": "input", "content": {"fieldName": "code", "pattern": "PATTERN"}},
        {"id": "b", "type": "button", "content": {"text": "Go"}}]},
       "rules": [{"when": {"field": "code", "op": "matches", "value": "MATCHES"}, "goto": "b"}]},
      {"id": "b", "name": "B", "type": "feature", "content": {"title": "B"}}]}
    """

  static func load(pattern: String, matches: String) -> LoadResult {
    let json = flow.replacingOccurrences(of: "PATTERN", with: pattern).replacingOccurrences(
      of: "MATCHES", with: matches)
    return FlowLoader.load(bytes: Array(json.utf8), file: "p.json")
  }

  @Test(arguments: [
    ("(", "[A-Z]", "3:78", "invalid regular expression '(': missing closing parenthesis at offset 1"),
    ("[A-Z]", "a)", "5:67", "invalid regular expression 'a)': unmatched closing parenthesis at offset 1"),
  ])
  func invalidPatternsAreLoadErrorsAtTheirString(pattern: String, matches: String, at: String, message: String) throws {
    let result = Self.load(pattern: pattern, matches: matches)
    let errors = result.diagnostics.filter { $0.severity == .error }
    try #require(errors.count == 1, "\(result.diagnostics.map(\.message))")
    #expect(errors[0].id == "load.invalid-regex")
    #expect(errors[0].location?.description == at)
    #expect(errors[0].message == message)
  }

  @Test func compiledPatternsAreListedWithTheirStrings() throws {
    let result = Self.load(pattern: "^[A-Z]+$", matches: "^[A-Z]+$")
    #expect(result.diagnostics.isEmpty)
    #expect(result.patterns.map(\.pattern.source) == ["^[A-Z]+$", "^[A-Z]+$"])
    #expect(result.patterns.map(\.location.description) == ["3:78", "5:67"])
    // One compile for both: the same compiled pattern, which the model holds too.
    let input = try #require(result.document?.flows[0].screens[0].content.blocks.first)
    guard case .input(let block) = input.content else {
      Issue.record("not an input")
      return
    }
    #expect(block.pattern == result.patterns[0].pattern)
  }
}
