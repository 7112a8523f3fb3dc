import FlowAnalysis
import FlowFormat
import Foundation
import Testing
import _FlowTestSupport

/// `check.uncollected-variable` on names no block collects: a typo is reported wherever no
/// awaited action or native screen could have supplied the name as result data.
@Suite struct UncollectedVariableTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var json: String
    /// The expected messages, each followed by its notes, joined by " | ".
    var reported: [String]
    var testDescription: String { name }
  }

  static func fitness(replacing old: String, with new: String) -> String {
    let path = packageRoot().appendingPathComponent("sample-flows/fitness.json").path
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    precondition(text.contains(old), old)
    return text.replacingOccurrences(of: old, with: new)
  }

  /// welcome → (form) → `middle` → end; `middle` may await an action, blocks as given.
  static func flow(middleAwaits: Bool = false, before: String = "", after: String = "") -> String {
    let action =
      middleAwaits
      ? #"{"type": "custom", "identifier": "auth.apple", "awaitResult": true, "onFailure": {"type": "next"}}"#
      : #"{"type": "next"}"#
    return """
      {"version": 1, "id": "t", "screens": [
        {"id": "form", "name": "Form", "type": "form", "content": {"blocks": [
          {"id": "n", "type": "input", "content": {"fieldName": "name"}}\(before),
          {"id": "b1", "type": "button", "content": {"text": "Go"}}]}},
        {"id": "middle", "name": "Middle", "type": "form", "content": {"blocks": [
          {"id": "b2", "type": "button", "content": {"text": "Sign in", "action": \(action)}}]}},
        {"id": "end", "name": "End", "type": "feature", "content": {"blocks": [
          {"id": "t", "type": "text", "content": {"text": "Done"}}\(after),
          {"id": "b3", "type": "button", "content": {"text": "Finish", "action": {"type": "complete"}}}]}}]}
      """
  }

  static let cases: [Case] = [
    Case(
      name: "the reviewer's fitness typo before the awaited action",
      json: fitness(replacing: "{name}, you'll reclaim", with: "{nmae}, you'll reclaim"),
      reported: [
        "screen 'reclaim' reads 'nmae', which no screen collects | read by block 'reclaim_headline' | did you mean 'name'?"
      ]),
    Case(
      name: "a typo after the awaited action, one edit from a field",
      json: fitness(replacing: "You're all set, {name}!", with: "You're all set, {nmae}!"),
      reported: [
        "screen 'done' reads 'nmae', which no screen collects | read by block 'done_title' | did you mean 'name'?"
      ]),
    Case(
      name: "result data after an awaited action",
      json: flow(middleAwaits: true, after: #", {"id": "x", "type": "text", "content": {"text": "Hi {apple_email}"}}"#),
      reported: []),
    Case(
      name: "the same name read where no action has run yet",
      json: flow(
        middleAwaits: true, before: #", {"id": "x", "type": "text", "content": {"text": "Hi {apple_email}"}}"#),
      reported: ["screen 'form' reads 'apple_email', which no screen collects | read by block 'x'"]),
    Case(
      name: "no awaited action anywhere",
      json: flow(after: #", {"id": "x", "type": "text", "content": {"text": "Hi {apple_email}"}}"#),
      reported: ["screen 'end' reads 'apple_email', which no screen collects | read by block 'x'"]),
    Case(
      name: "visibleWhen reading a field collected nowhere",
      json: flow(
        after: #", {"id": "x", "type": "text", "visibleWhen": "plan_tier == 'pro'", "content": {"text": "Pro"}}"#),
      reported: ["screen 'end' reads 'plan_tier', which no screen collects | read by visibleWhen of block 'x'"]),
    Case(
      name: "visibleWhen reading a collected field",
      json: flow(
        after: #", {"id": "x", "type": "text", "visibleWhen": "is_set(name)", "content": {"text": "Hi {name}"}}"#),
      reported: []),
    Case(
      name: "a typo behind a default filter",
      json: flow(after: #", {"id": "x", "type": "text", "content": {"text": "Hi {nmae | default: 'you'}"}}"#),
      reported: ["screen 'end' reads 'nmae', which no screen collects | read by block 'x' | did you mean 'name'?"]),
  ]

  @Test(arguments: cases)
  func namesCollectedNowhere(_ example: Case) {
    let rule = UncollectedVariableRule()
    let found = FlowChecker.check(json: example.json).filter { $0.id == rule.id }
    let lines = found.map { ([$0.message] + $0.notes.map(\.message)).joined(separator: " | ") }
    #expect(lines == example.reported)
  }
}
