import Foundation
import Testing
import _FlowTestSupport

/// `flowrun diff OLD NEW` end to end on sample-flows/fitness.json: a reformatted copy is the
/// same flow, one changed rule shows the path it changes with the inputs that expose it, an
/// added required field breaks the scripts that passed.
@Suite struct DiffCommandTests {
  static let fitness = "sample-flows/fitness.json"

  /// fitness.json edited by `edit` (on the parsed JSON), written pretty-printed with sorted keys.
  static func variant(
    _ directory: TemporaryDirectory, _ name: String, _ edit: (inout [String: Any]) -> Void
  ) throws
    -> String
  {
    let data = try Data(contentsOf: packageRoot().appendingPathComponent(fitness))
    var flow = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    edit(&flow)
    let text = try JSONSerialization.data(withJSONObject: flow, options: [.prettyPrinted, .sortedKeys])
    return directory.file(name, contents: String(decoding: text, as: UTF8.self))
  }

  /// Edits the screen `id` of a flow.
  static func screen(_ flow: inout [String: Any], _ id: String, _ edit: (inout [String: Any]) -> Void) {
    var screens = flow["screens"] as? [[String: Any]] ?? []
    for index in screens.indices where screens[index]["id"] as? String == id { edit(&screens[index]) }
    flow["screens"] = screens
  }

  static func oneRuleChanged(_ flow: inout [String: Any]) {
    screen(&flow, "hours") { $0["rules"] = [["when": "hours_daily <= 1", "goto": "interests"], ["goto": "reclaim"]] }
  }

  @Test func reformattedCopyIsIdentical() throws {
    let directory = try TemporaryDirectory()
    let copy = try Self.variant(directory, "copy.json") { _ in }
    let result = try runFlowrun(["diff", Self.fitness, copy])
    #expect(result.status == 0)
    #expect(result.stdout.contains("no behavioural difference"))
    #expect(result.stderr.isEmpty)
  }

  @Test func oneRuleShowsTheChangedPathWithItsInputs() throws {
    let directory = try TemporaryDirectory()
    let changed = try Self.variant(directory, "rule.json", Self.oneRuleChanged)
    let result = try runFlowrun(["diff", Self.fitness, changed])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains(
        "`hours` rule 1 now when `hours_daily <= 1` → interests (was when `hours_daily == 0` → interests)"))
    // The name typed on the way is whichever the exploration reached `hours` with first.
    let path = try #require(result.stdout.components(separatedBy: "paths that change").last)
    #expect(path.contains("  1. {tap: Get Started}, {fill: {name: "))
    #expect(
      path.contains(
        """
        {tap: Continue}, {fill: {hours_daily: 1}}, {tap: Continue}
             old: on `reclaim`
             new: on `interests`
        """))
    #expect(!path.contains("  2. "))
  }

  @Test func jsonAndMarkdown() throws {
    let directory = try TemporaryDirectory()
    let changed = try Self.variant(directory, "rule.json", Self.oneRuleChanged)
    let json = try runFlowrun(["diff", Self.fitness, changed, "--format", "json"])
    #expect(json.status == 1)
    let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(report["identical"] as? Bool == false)
    let paths = try #require(report["paths"] as? [[String: Any]])
    #expect(paths.count == 1)
    #expect(paths.first?["new"] as? String == "on `interests`")
    let markdown = try runFlowrun(["diff", Self.fitness, changed, "--format", "markdown"])
    #expect(markdown.status == 1)
    #expect(markdown.stdout.contains("| # | inputs | old | new | data |"))
    #expect(
      markdown.stdout.contains("`{fill: {hours_daily: 1}}` `{tap: Continue}` | on `reclaim` | on `interests` |  |"))
  }

  @Test func addedRequiredFieldBreaksScripts() throws {
    let directory = try TemporaryDirectory()
    let changed = try Self.variant(directory, "age.json") { flow in
      Self.screen(&flow, "name") { screen in
        var content = screen["content"] as? [String: Any] ?? [:]
        var blocks = content["blocks"] as? [[String: Any]] ?? []
        blocks.insert(
          [
            "id": "age_input", "type": "input", "order": 3,
            "content": ["fieldName": "age", "label": "Age", "inputType": "number", "required": true],
          ], at: 2)
        content["blocks"] = blocks
        screen["content"] = content
      }
    }
    let result = try runFlowrun(["diff", Self.fitness, changed, "--scripts", "sample-flows/tests/fitness"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("`name` gained field `age` (number, required)"))
    #expect(result.stdout.contains("only in new: validation_failed(fields)"))
    #expect(result.stdout.contains("scripts that pass on old and fail on new:"))
    #expect(result.stdout.contains("lose-time.flow-test.yaml: "))
  }

  struct Failure: Sendable, CustomStringConvertible {
    var arguments: [String]
    var status: Int32
    var says: String
    var description: String { arguments.joined(separator: " ") }
  }

  static let failures: [Failure] = [
    Failure(arguments: ["diff", fitness, "no/such.json"], status: 2, says: "no/such.json: error: cannot read file"),
    Failure(
      arguments: ["diff", "Tests/FlowFormatTests/Fixtures/invalid/missing-screen-id.json", fitness], status: 2,
      says: "load.missing-key"),
    Failure(
      arguments: ["diff", fitness, fitness, "--scripts", "no/such/dir"], status: 2, says: "--scripts no/such/dir"),
    Failure(arguments: ["diff", fitness], status: 64, says: "Missing expected argument '<new>'"),
  ]

  @Test(arguments: failures)
  func refused(_ failure: Failure) throws {
    let result = try runFlowrun(failure.arguments)
    #expect(result.status == failure.status)
    #expect(result.stderr.contains(failure.says))
  }
}
