import FlowEngine
import FlowExpression
import FlowFormat
import FlowGenerator
import Foundation
import Testing
import _FlowTestSupport

/// Sessions a `SessionStarter` starts (one context per variant shared between users, the last
/// user's session recycled) against `Session.start` with each user's whole configuration: the
/// same inputs give the same outputs, data, events (user and session ids), trace, path and
/// status, and no user sees another's id or traits.
@Suite struct SessionStarterTests {
  static let now: Int64 = 1_767_225_600_000

  /// User `index`'s traits: they differ between users, so a shared part would show.
  static func traits(_ index: Int) -> [String: Value] {
    ["plan": .string(index % 2 == 0 ? "pro" : "free"), "age": .number(Double(20 + index))]
  }

  /// Users 0..<12 of `document` started both ways and walked with the same random inputs.
  static func walk(_ document: FlowDocument, seed: UInt64, recordsHistory: Bool) throws {
    var config = SessionConfig(now: now, waitsForResults: true, recordsHistory: recordsHistory)
    config.emitsEvents = recordsHistory
    var starter = SessionStarter(document: document, config: config, tables: DocumentTables(document))
    var random = SplitMix64(seed: seed)
    var spare: Session?
    for index in 0..<12 {
      var userConfig = config
      userConfig.userID = "user-\(index)"
      userConfig.traits = traits(index)
      let plainStart = try Session.start(document: document, config: userConfig)
      var outputs: [Output] = []
      var started = try starter.start(
        userID: userConfig.userID, traits: userConfig.traits, recycling: spare, into: &outputs)
      #expect(plainStart.1 == outputs)
      var plain = plainStart.0
      #expect(started.config == plain.config && started.sessionID == plain.sessionID)
      DocumentTablesTests.walkBoth(&plain, &started, random: &random)
      #expect(
        plain.render(tpl("{$user.id} {$user.plan} {$user.age}"))
          == started.render(tpl("{$user.id} {$user.plan} {$user.age}")))
      spare = started
    }
  }

  @Test(arguments: FastPathEquivalenceTests.cases)
  func generatedFlowsWalkTheSame(_ testCase: FastPathEquivalenceTests.Case) throws {
    let document = try #require(FastPathEquivalenceTests.document(testCase))
    try Self.walk(document, seed: testCase.seed, recordsHistory: testCase.recordsHistory)
  }

  @Test(arguments: DocumentTablesTests.samples)
  func sampleFlowsWalkTheSame(_ name: String) throws {
    for recordsHistory in [false, true] {
      try Self.walk(DocumentTablesTests.sample(name), seed: 7, recordsHistory: recordsHistory)
    }
  }

  /// Two users of one starter (one shared context): each reads its own `$user`, config and
  /// session id, in templates and in events, and their sessions are not equal.
  @Test func usersOfOneContextKeepTheirOwnIdentity() throws {
    let document = try DocumentTablesTests.sample("goals.json")
    var starter = SessionStarter(document: document, config: SessionConfig(now: Self.now))
    var outputs: [Output] = []
    let first = try starter.start(userID: "first", traits: Self.traits(0), into: &outputs)
    let firstEvents = outputs
    let second = try starter.start(userID: "second", traits: Self.traits(1), recycling: first, into: &outputs)
    #expect(first.render(tpl("{$user.id}/{$user.plan}")) == "first/pro")
    #expect(second.render(tpl("{$user.id}/{$user.plan}")) == "second/free")
    #expect(first.config.userID == "first" && second.config.userID == "second")
    #expect(first.sessionID != second.sessionID)
    let userIDs = { (outputs: [Output]) in
      Set(outputs.compactMap { output -> String? in if case .event(let event) = output { event.userID } else { nil } })
    }
    #expect(userIDs(firstEvents) == ["first"])
    #expect(userIDs(outputs) == ["second"])
    #expect(first != second)
  }
}
