import Foundation
import Testing
import _FlowTestSupport

/// What flowrun reports and emits can be trusted (issue 23 rows 16 and 19): onEnter loops are
/// reported, emitted YAML parses.
@Suite(.timeLimit(.minutes(3))) struct TrustworthyOutputTests {
  struct Loop: Sendable, CustomTestStringConvertible {
    var name: String
    var screens: String
    /// The loop check names, or nil when the flow must pass `check.onenter-loop`.
    var message: String?
    var testDescription: String { name }
  }

  static func screen(_ id: String, onEnter: String? = nil, rules: String? = nil) -> String {
    let enter = onEnter.map { ", \"onEnter\": \($0)" } ?? ""
    let rules = rules.map { ", \"rules\": \($0)" } ?? ""
    return """
      {"id": "\(id)", "name": "\(id)", "type": "feature"\(enter)\(rules), "content": {"blocks": [
        {"id": "\(id)_go", "type": "button", "content": {"text": "Go"}}]}}
      """
  }

  static let loops: [Loop] = [
    Loop(
      name: "two screens routing to each other (the issue)",
      screens: [
        screen("a", onEnter: #"{"type": "screen", "screenId": "b"}"#),
        screen("b", onEnter: #"{"type": "screen", "screenId": "a"}"#),
      ].joined(separator: ","),
      message: "onEnter actions route a → b → a forever"),
    Loop(
      name: "a next that the following screen sends back",
      screens: [
        screen("start"),
        screen("a", onEnter: #"{"type": "next"}"#),
        screen("b", onEnter: #"{"type": "screen", "screenId": "a"}"#),
      ].joined(separator: ","),
      message: "onEnter actions route a → b → a forever"),
    Loop(
      name: "a router whose rule depends on data is not a certain loop",
      screens: [
        screen("start"),
        screen(
          "a", onEnter: #"{"type": "next"}"#, rules: #"[{"when": "ready == true", "goto": "b"}, {"goto": "$complete"}]"#
        ),
        screen("b", onEnter: #"{"type": "screen", "screenId": "a"}"#),
      ].joined(separator: ","),
      message: nil),
  ]

  /// `check` reports a certain onEnter loop as an error with its id and position; `paths`
  /// reports the sessions that fail there and exits 1.
  @Test(arguments: loops)
  func onEnterLoopsAreReported(_ loop: Loop) throws {
    let temporary = try TemporaryDirectory()
    let directory = temporary.url
    let flow = directory.appendingPathComponent("loop.json").path
    try "{\"version\": 1, \"id\": \"loop\", \"screens\": [\(loop.screens)]}\n".write(
      toFile: flow, atomically: true, encoding: .utf8)
    let check = try runFlowrun(["check", flow])
    let paths = try runFlowrun(["paths", flow])
    if let message = loop.message {
      #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
      #expect(check.stdout.contains("error: \(message)"), "\(check.stdout)")
      #expect(check.stdout.contains("[check.onenter-loop]"))
      #expect(paths.status == 1, "\(paths.stdout)")
      #expect(paths.stdout.contains("error: a session fails on the way:\n  step budget of"), "\(paths.stdout)")
    } else {
      #expect(!check.stdout.contains("check.onenter-loop"), "\(check.stdout)")
    }
  }

  /// `paths --emit` for a flow whose file name YAML cares about writes scripts that parse and
  /// pass, with the name as written.
  @Test(arguments: ["fit\"ness.json", "a: b #c'd.json", "- [x], {y} & *z.json"])
  func emittedScriptsParseWhateverTheFlowIsCalled(_ name: String) throws {
    let temporary = try TemporaryDirectory()
    let directory = temporary.url
    let flow = directory.appendingPathComponent(name)
    try FileManager.default.copyItem(at: packageRoot().appendingPathComponent("sample-flows/fitness.json"), to: flow)
    let out = directory.appendingPathComponent("out").path
    let paths = try runFlowrun(["paths", flow.path, "--emit", out])
    #expect(paths.status == 0, "\(paths.stdout)\(paths.stderr)")
    let test = try runFlowrun(["test", out])
    #expect(test.status == 0, "\(test.stdout)")
    let stem = String(name.dropLast(".json".count))
    #expect(test.stdout.contains("(\(stem) path 1: "), "\(test.stdout)")
  }
}
