import FlowDriver
import FlowEngine
import FlowExpression
import FlowFormat
import FlowReplay
import OrderedCollections
import Testing

/// A line typed at `flowrun run` is the script step it stands for: the driver hands every
/// answer and `:` command to the engine through `ScriptStep.inputs(on:)`, as `flowrun test`
/// plays steps, so both leave the session in the same state.
@Suite struct LineStepTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var flow = "fitness.json"
    var mocks: [String: ActionResult] = [:]
    /// Lines that reach the screen, then the line under test.
    var lines: [String]
    var step: ScriptStep.Kind
    var testDescription: String { "\(flow): \(lines.last ?? "")" }
  }

  static let toInterests = ["1", "Alex", "1", "3", "1", "1"]
  static let toPassword = ["3", "new@example.com"]
  static let restoreFails: [String: ActionResult] = ["account.restoreSession": .failure(nil)]

  static func fill(_ field: String, _ value: Value) -> ScriptStep.Kind { .fill([.init(field: field, value: value)]) }

  @Test(arguments: [
    Case(lines: ["1"], step: .tap(.number(1))),
    Case(lines: ["Get Started"], step: .tap(.label("Get Started"))),
    Case(lines: ["1", "Alex"], step: fill("name", "Alex")),
    Case(lines: ["1", "Alex", "1", " 5 "], step: fill("hours_daily", "5")),
    Case(lines: ["1", "Alex", "1", ":set hours_daily 7"], step: fill("hours_daily", 7)),
    Case(lines: ["1", "Alex", "1", ":set nosuch 7"], step: fill("nosuch", 7)),
    Case(lines: toInterests + ["2,hiit"], step: .select([.init(field: "interests", items: ["cardio", "hiit"])])),
    Case(lines: ["1", ":back"], step: .back),
    Case(lines: ["1", ":skip"], step: .skip),
    Case(lines: ["1", ":dismiss"], step: .dismiss),
    Case(lines: ["1", ":wait 1500"], step: .wait(1500)),
    Case(lines: [":goto interests"], step: .goto("interests")),
    Case(flow: "signin.json", lines: [#":ok {"signedIn": true}"#], step: .result(.success(["signedIn": true]))),
    Case(flow: "signin.json", lines: [":fail offline"], step: .result(.failure("offline"))),
    Case(flow: "signin.json", lines: [":cancel"], step: .result(.cancelled)),
    // A recorded secret typed back gets the same stand-in a replay types.
    Case(flow: "signin.json", mocks: restoreFails, lines: toPassword + ["••••"], step: fill("password", "••••")),
    Case(
      flow: "signin.json", mocks: restoreFails, lines: toPassword + [":set password ••••"],
      step: fill("password", "••••")),
  ])
  func aLineIsTheStepItStandsFor(_ test: Case) throws {
    final class Moments: @unchecked Sendable {
      var driver: Driver?
      var before: Session?
      var after: Session?
    }
    let moments = Moments()
    let source = ScriptedLines(test.lines)
    source.onPrompt = { _ in
      guard let driver = moments.driver else { return }
      switch source.results.count {
      case 1: moments.before = driver.session
      case 0 where moments.after == nil: moments.after = driver.session
      default: break
      }
    }
    let driver = try Driver(
      document: sampleDocument(test.flow), config: runConfig(mocks: test.mocks), flowPath: test.flow, source: source,
      output: { _ in })
    moments.driver = driver
    driver.run()
    var replayed = try #require(moments.before)
    // The session at the prompt after the line; a line that ends the session has none.
    let after = moments.after ?? driver.session
    ScriptStep.send(ScriptStep(test.step).inputs(on: replayed)) { replayed.send($0) }
    #expect(after.data == replayed.data)
    #expect(after.status == replayed.status)
    #expect(after.currentScreen.id == replayed.currentScreen.id)
    #expect(after.events.map(\.eventType) == replayed.events.map(\.eventType))
    if test.flow == "signin.json", test.mocks == Self.restoreFails {
      #expect(after.data["password"] != "••••" && after.data["password"] != nil)
    }
  }
}
