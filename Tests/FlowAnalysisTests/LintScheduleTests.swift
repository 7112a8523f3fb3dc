import FlowFormat
import FlowSupport
import Testing

@testable import FlowAnalysis

/// The lint rules on two threads (`LintSchedule`) report exactly what they report on one, in
/// the same order, with and without JSON paths, run after run (a race shows on some run, not
/// on the first): on the generated and mutated shapes of the uncollected-variable equivalence
/// tests and on every rule's triggering example.
@Suite struct LintScheduleTests {
  static let runs = 12

  static func sameOnTwoThreads(_ loaded: LoadResult, _ name: String) {
    for jsonPaths in [true, false] {
      let one = FlowChecker.check(loaded, rules: LintRegistry.rules, jsonPaths: jsonPaths, parallelScreens: .max)
      for run in 1...runs {
        let two = FlowChecker.check(loaded, rules: LintRegistry.rules, jsonPaths: jsonPaths, parallelScreens: 0)
        #expect(two == one, "\(name), JSON paths \(jsonPaths), run \(run)")
      }
    }
  }

  @Test(arguments: UncollectedVariableEquivalenceTests.shapes)
  func generatedShapes(_ shape: UncollectedVariableEquivalenceTests.Shape) throws {
    let loaded = FlowLoader.load(bytes: try UncollectedVariableEquivalenceTests.json(shape), file: "generated.json")
    let one = FlowChecker.check(loaded, rules: LintRegistry.rules, jsonPaths: true, parallelScreens: .max)
    #expect(one.contains { $0.id.hasPrefix("check.") } || shape.rates == nil, "\(shape.name): nothing to compare")
    Self.sameOnTwoThreads(loaded, shape.name)
  }

  @Test func triggeringExamples() {
    for rule in LintRegistry.rules where !rule.isReportedByLoader {
      Self.sameOnTwoThreads(FlowLoader.load(bytes: Array(rule.triggeringExample.utf8), file: "x.json"), rule.id)
    }
  }
}
