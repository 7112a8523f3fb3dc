import FlowAnalysis
import FlowEngine
import FlowFormat
import FlowReplay
import Foundation
import Testing
import _FlowTestSupport

/// `paths --coverage` counts what `flowrun test` plays: the same inputs per step, the same stop
/// at a rejected step, the same failure of an awaited action no step answers.
@Suite struct ScriptCoverageTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var steps: [ScriptStep]
    var covered: [CoverageItem]
    var uncovered: [CoverageItem]
    var testDescription: String { name }
  }

  static let apple = ScriptStep(.tap(.label("Continue with Apple")))
  static let typo = ScriptStep(.tap(.label("No such button")))
  static let appleFailed = CoverageItem.outcome(screen: "welcome", identifier: "auth.apple", outcome: "failure")

  @Test(arguments: [
    Case(
      name: "an awaited action no step answers fails",
      steps: [apple, ScriptStep(.tap(.label("Use email instead")))],
      covered: [appleFailed, .screen("signin_error"), .screen("email_entry")], uncovered: []),
    Case(
      name: "a rejected step ends the script",
      steps: [typo, apple, ScriptStep(.result(.failure(nil)))],
      covered: [.screen("welcome")], uncovered: [appleFailed, .screen("signin_error")]),
    Case(
      name: "a step that expects its rejection goes on",
      steps: [
        ScriptStep(.tap(.label("No such button")), expectError: "no button"), apple, ScriptStep(.result(.failure(nil))),
      ],
      covered: [appleFailed, .screen("signin_error")], uncovered: []),
  ])
  func coverageFollowsTheReplay(_ test: Case) throws {
    let path = packageRoot().appendingPathComponent("sample-flows/signin.json").path
    let document = try #require(FlowLoader.load(path: path).document)
    let script = ReplayScript(
      file: "t.flow-test.yaml", name: test.name, flow: path, flowPath: path,
      mocks: ["account.restoreSession": .failure(nil)], steps: test.steps)
    let items = try #require(ScriptCoverage.items(of: script, document: document))
    for item in test.covered { #expect(items.contains(item), "\(item)") }
    for item in test.uncovered { #expect(!items.contains(item), "\(item)") }
  }
}
