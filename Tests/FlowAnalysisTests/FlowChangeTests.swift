import FlowFormat
import Foundation
import Testing

@testable import FlowAnalysis

/// The model changes `diff` and `run --watch` report: matched by id, told one line each, blind
/// to layout and key order.
@Suite struct FlowChangeTests {
  static func flow(_ screens: String) throws -> FlowDocument {
    let json = #"{"version": 1, "id": "f", "screens": ["# + screens + "]}"
    return try #require(FlowLoader.load(bytes: Array(json.utf8), file: "f.json").document)
  }

  static let base = #"""
    {"id": "a", "name": "A", "type": "form", "content": {"useBlocks": true, "blocks": [
      {"id": "n", "type": "input", "content": {"fieldName": "name", "required": true}},
      {"id": "go", "type": "button", "content": {"text": "Go"}}]},
     "rules": [{"when": "name == 'x'", "goto": "b"}]},
    {"id": "b", "name": "B", "type": "feature", "content": {"title": "Bye"}}
    """#

  struct Case: Sendable, CustomStringConvertible {
    var name: String
    var replace: (String, String)?
    var expected: [String]
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "same flow, keys reordered and re-spaced",
      replace: (#""name": "A", "type": "form""#, #""type":"form","name":"A""#), expected: []),
    Case(
      name: "a field gained",
      replace: (
        #"{"id": "go""#,
        #"{"id": "age", "type": "input", "content": {"fieldName": "age", "inputType": "number"}}, {"id": "go""#
      ),
      expected: ["`a` gained field `age` (number)"]),
    Case(
      name: "a field no longer required", replace: (#""required": true"#, #""required": false"#),
      expected: ["`a` field `name` now text (was text, required)"]),
    Case(
      name: "a rule changed", replace: ("name == 'x'", "name != 'x'"),
      expected: ["`a` rule 1 now when `name != 'x'` → b (was when `name == 'x'` → b)"]),
    Case(
      name: "a button's action changed",
      replace: (#""text": "Go"}"#, #""text": "Go", "action": {"type": "complete"}}"#),
      expected: ["`a` action 1 now `Go` → complete (was `Go` → next)"]),
    Case(
      name: "a screen removed",
      replace: (",\n" + #"{"id": "b", "name": "B", "type": "feature", "content": {"title": "Bye"}}"#, ""),
      expected: ["`b` removed"]),
  ]

  @Test(arguments: cases)
  func changes(_ test: Case) throws {
    let old = try Self.flow(Self.base)
    let edited = test.replace.map { Self.base.replacingOccurrences(of: $0.0, with: $0.1) } ?? Self.base
    let new = try Self.flow(edited)
    #expect(FlowChange.between(old, new).map(\.line) == test.expected)
  }

  @Test func screensAddedAndRemoved() throws {
    let old = try Self.flow(Self.base)
    let new = try Self.flow(
      Self.base.replacingOccurrences(of: #""id": "b", "name": "B""#, with: #""id": "c", "name": "C""#))
    #expect(
      FlowChange.between(old, new).map(\.line) == ["`b` removed", "`c` added"])
  }
}
