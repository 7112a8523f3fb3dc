import FlowEngine
import FlowFormat
import FlowGenerator
import Foundation
import Testing
import _FlowTestSupport

/// A session started with `DocumentTables` (what the simulator passes) against one without:
/// the same inputs give the same outputs, data, trace, path and status, on generated flows
/// with rules, defaults and validation, and on the sample flows of every dialect.
@Suite struct DocumentTablesTests {
  static let samples = [
    "bundle.json", "fitness.json", "goals.json", "legacy.json", "signin.json", "survey.json",
    "appdna/coach-chat.json", "appdna/premium-upgrade.json", "appdna/profile-form.json", "appdna/quiz-bundle.json",
    "nuxie/onboarding-leg.json", "nuxie/paywall.json", "nuxie/welcome-description.json", "nuxie/winback.json",
  ]

  static func sample(_ name: String) throws -> FlowDocument {
    let result = FlowLoader.load(path: packageRoot().appendingPathComponent("sample-flows/\(name)").path)
    return try #require(result.document, "\(result.diagnostics)")
  }

  /// Random walks of `document` with and without its tables, compared step by step.
  static func walk(_ document: FlowDocument, seed: UInt64, recordsHistory: Bool) throws {
    let tables = DocumentTables(document)
    var random = SplitMix64(seed: seed)
    var config = SessionConfig(now: 1_767_225_600_000, waitsForResults: true, recordsHistory: recordsHistory)
    config.emitsEvents = recordsHistory
    for _ in 0..<20 {
      let plainStart = try Session.start(document: document, config: config)
      let tabledStart = try Session.start(document: document, config: config, tables: tables)
      #expect(plainStart.1 == tabledStart.1)
      var plain = plainStart.0
      var tabled = tabledStart.0
      Self.walkBoth(&plain, &tabled, random: &random)
    }
  }

  /// Sends both sessions the same random inputs (up to 50, chosen from `plain`'s choices) and
  /// expects the same outputs, then the same data, trace, path, events, status and validation.
  static func walkBoth(_ plain: inout Session, _ other: inout Session, random: inout SplitMix64) {
    for _ in 0..<50 where !plain.status.isEnded {
      let choices = FastPathEquivalenceTests.choices(plain)
      let input = choices[Int(random.next() % UInt64(choices.count))]
      #expect(plain.send(input) == other.send(input), "\(input)")
    }
    #expect(plain.data == other.data)
    #expect(plain.trace == other.trace)
    #expect(plain.path == other.path && plain.events == other.events)
    #expect(plain.status == other.status && plain.currentScreenID == other.currentScreenID)
    #expect(plain.validationFailures == other.validationFailures)
  }

  @Test(arguments: FastPathEquivalenceTests.cases)
  func generatedFlowsWalkTheSame(_ testCase: FastPathEquivalenceTests.Case) throws {
    let document = try #require(FastPathEquivalenceTests.document(testCase))
    try Self.walk(document, seed: testCase.seed, recordsHistory: testCase.recordsHistory)
  }

  @Test(arguments: samples)
  func sampleFlowsWalkTheSame(_ name: String) throws {
    for recordsHistory in [false, true] {
      try Self.walk(Self.sample(name), seed: 5, recordsHistory: recordsHistory)
    }
  }
}
