import Foundation
import Testing
import _FlowTestSupport

/// Patterns that backtrack catastrophically (issue #11's first row, #23's row 21) through every
/// command: each ends with a clear message and its usual exit code instead of hanging. The
/// timeout of `runFlowrun` turns a hang into a failure.
@Suite struct PatternCommandTests {
  /// One input whose pattern can backtrack exponentially, a Continue button, an end screen.
  static func flow(pattern: String, extra: String = "") -> String {
    """
    {"version": 1, "id": "code", "screens": [
      {"id": "code", "name": "Code", "type": "form", "content": {"blocks": [
        {"id": "code_input", "type": "input", "content": {"fieldName": "code", "label": "Code", "pattern": "\(pattern)"\(extra)}},
        {"id": "go", "type": "button", "content": {"text": "Continue"}}]}},
      {"id": "done", "name": "Done", "type": "feature", "content": {"blocks": [
        {"id": "finish", "type": "button", "content": {"text": "Finish", "action": {"type": "complete"}}}]}}
    ]}
    """
  }

  static let almostMatching = String(repeating: "a", count: 38) + "!"

  static func directory(_ files: [String: String]) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-pattern-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    for (name, text) in files {
      try text.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    return url
  }

  /// The issue's row: the answer is rejected at once, `1` is then refused by the pattern, and
  /// the end of input ends the run unfinished.
  @Test func runRejectsAnAnswerTooComplexToCheck() throws {
    let directory = try Self.directory(["flow.json": Self.flow(pattern: "^(a+)+$")])
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try runFlowrun(
      ["run", "flow.json"], stdin: Self.almostMatching + "\n1\n", directory: directory, timeout: 30)
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("! Code: pattern too complex to check"))
    #expect(result.stdout.contains("Session ended (end_of_input) on code"))
  }

  @Test func testExpectsTheErrorThenGoesOn() throws {
    let script = """
      name: too complex, then a matching answer
      flow: flow.json
      steps:
        - fill: {code: \(Self.almostMatching)}
        - tap: Continue
          expect_error: pattern too complex to check
        - expect: {screen: code, errors: {code: pattern too complex to check}}
        - fill: {code: aaaa}
        - tap: Continue
        - tap: Finish
      expect: {completed: true, data: {code: aaaa}}
      """
    let directory = try Self.directory(["flow.json": Self.flow(pattern: "^(a+)+$"), "row.flow-test.yaml": script])
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try runFlowrun(["test", "."], directory: directory, timeout: 30)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("1 passed, 0 failed"))
  }

  /// `paths` builds an answer the pattern matches instead of validating over-long ones for ever.
  @Test func pathsFindsTheCompletingPath() throws {
    let directory = try Self.directory(["flow.json": Self.flow(pattern: "^(a+)+b$", extra: #", "maxLength": 40"#)])
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try runFlowrun(["paths", "flow.json"], directory: directory, timeout: 30)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("paths to completion: 1"))
    #expect(result.stdout.contains("code → done → $complete"))
  }

  @Test func pathsSaysWhenNoAnswerMatches() throws {
    let directory = try Self.directory(["flow.json": Self.flow(pattern: "a(?!)")])
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try runFlowrun(["paths", "flow.json"], directory: directory, timeout: 30)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stdout.contains(
        "note: no answer matching the pattern 'a(?!)' of block 'code_input' was found; only answers it rejects are tried"
      ))
  }

  @Test func checkWarnsInsideThePattern() throws {
    let directory = try Self.directory(["flow.json": Self.flow(pattern: "^(a+)+$")])
    defer { try? FileManager.default.removeItem(at: directory) }
    let plain = try runFlowrun(["check", "flow.json"], directory: directory, timeout: 30)
    #expect(plain.status == 0, "\(plain.stdout)\(plain.stderr)")
    #expect(plain.stdout.contains("flow.json:3:106: warning: pattern '^(a+)+$' can take exponential time"))
    #expect(plain.stdout.contains("[check.regex-backtracking]"))
    let strict = try runFlowrun(["check", "--strict", "flow.json"], directory: directory, timeout: 30)
    #expect(strict.status == 1)
  }

  @Test(arguments: [
    (
      ["test", "--filter", "([a-z]"],
      "--filter is not a valid regular expression: ([a-z] (missing closing parenthesis at offset 6)"
    ),
    (["test", "--filter", "^(a+)+$"], "--filter ^(a+)+$ is too complex to check against"),
  ])
  func badFiltersAreUsageErrors(arguments: [String], message: String) throws {
    let script = """
      name: \(Self.almostMatching)
      flow: flow.json
      steps: [{fill: {code: aaaa}}]
      """
    let directory = try Self.directory(["flow.json": Self.flow(pattern: "^(a+)+$"), "s.flow-test.yaml": script])
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try runFlowrun(arguments + ["."], directory: directory, timeout: 30)
    #expect(result.status == 64, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }
}
