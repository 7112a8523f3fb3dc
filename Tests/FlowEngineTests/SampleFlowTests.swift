import FlowEngine
import FlowExpression
import FlowFormat
import FlowGenerator
import Foundation
import Testing
import _FlowTestSupport

/// The sample flows, loaded from `sample-flows/` and walked through the engine.
@Suite struct SampleFlowTests {
  static let names = ["bundle", "fitness", "goals", "legacy", "signin", "survey"]

  static func document(_ name: String) throws -> FlowDocument {
    let path = packageRoot().appendingPathComponent("sample-flows/\(name).json").path
    let result = FlowLoader.load(path: path)
    return try #require(result.document, "\(result.diagnostics)")
  }

  static func start(_ name: String, _ config: SessionConfig = SessionConfig(now: 1_767_225_600_000)) throws -> Session {
    try Session.start(document: document(name), config: config).0
  }

  @Test func fitnessWalksToCompletionWithTheDocumentedTemplates() throws {
    var mocks = SessionConfig(userID: "u_42", now: 1_767_225_600_000)
    mocks.mocks = ["permission.notifications": .success(["granted": true])]
    var session = try Self.start("fitness", mocks)
    #expect(session.currentScreen.id == "welcome")
    _ = session.send(.tap(.label("Get Started")))
    _ = session.send(.set(field: "name", value: "Alex"))
    _ = session.send(.tap(.label("Continue")))
    #expect(session.currentScreen.id == "hours")
    _ = session.send(.set(field: "hours_daily", value: 2))
    _ = session.send(.tap(.label("Continue")))
    #expect(session.currentScreen.id == "reclaim")
    let headline = session.visibleBlocks.compactMap { block -> String? in
      guard case .text(let text) = block.content, let template = text.text else { return nil }
      return session.render(template)
    }
    #expect(headline.contains("Alex, you'll reclaim 730 hours this year!"))
    _ = session.send(.next)
    _ = session.send(.pick(field: "interests", items: ["strength", "cardio"]))
    _ = session.send(.tap(.label("Continue")))
    #expect(session.currentScreen.id == "notifications")
    _ = session.send(.tap(.label("Enable notifications")))
    #expect(session.currentScreen.id == "done")
    #expect(session.value(ofField: "granted") == .bool(true))
    _ = session.send(.tap(.label("Start my first workout")))
    #expect(session.status == .completed)
    #expect(session.path == ["welcome", "name", "hours", "reclaim", "interests", "notifications", "done"])
    #expect(session.events.last?.eventType == "onboarding_completed")
    #expect(session.value(ofField: "interests") == .list(["strength", "cardio"]))
  }

  @Test func zeroHoursSkipsTheReclaimScreenByRule() throws {
    var session = try Self.start("fitness")
    _ = session.send(.next)
    _ = session.send(.set(field: "name", value: "Sam"))
    _ = session.send(.next)
    _ = session.send(.set(field: "hours_daily", value: 0))
    _ = session.send(.next)
    #expect(session.currentScreen.id == "interests")
    #expect(session.lastBranchDecision?.lines.joined(separator: "\n").contains("hours_daily == 0") == true)
  }

  /// Inputs a curious user might type on any screen, chosen from what the screen offers.
  static func randomInput(for session: Session, using rng: inout SplitMix64) -> Input {
    var choices: [Input] = [
      .next, .back, .skip, .wait(ms: 3000), .result(.success(["granted": .bool(rng.next() % 2 == 0)])),
      .result(.failure("denied")), .result(.cancelled),
    ]
    for entry in session.actions { choices.append(.tap(.number(entry.number))) }
    choices.append(.tap(.number(session.actions.count + 1)))
    for block in session.visibleBlocks {
      guard let field = block.fieldName else { continue }
      switch block.content {
      case .input(let input):
        choices += [
          .set(field: field, value: "Alex"), .set(field: field, value: "alex@example.com"),
          .set(field: field, value: ""), .set(field: field, value: .string(String((input.min ?? 0) + 1))),
        ]
      case .choice(let choice):
        for item in choice.items { choices.append(.pick(field: field, items: [item.id])) }
        choices.append(.pick(field: field, items: choice.items.map(\.id)))
      case .slider(let slider):
        choices += [
          .set(field: field, value: .number(slider.min)), .set(field: field, value: .number(slider.max)),
          .set(field: field, value: .number(slider.max + 1)),
        ]
      case .toggle:
        choices += [.set(field: field, value: true), .set(field: field, value: false)]
      default: break
      }
    }
    if rng.next() % 40 == 0 { choices.append(.dismiss) }
    return choices[Int(rng.next() % UInt64(choices.count))]
  }

  @Test(arguments: names)
  func randomWalksKeepInvariantsAndReplayIdentically(_ name: String) throws {
    for seed in 0..<30 {
      var rng = SplitMix64(seed: UInt64(seed))
      var session = try Self.start(name)
      var inputs: [Input] = []
      for _ in 0..<60 where !session.status.isEnded {
        let input = Self.randomInput(for: session, using: &rng)
        let before = session
        let outputs = session.send(input)
        inputs.append(input)
        if outputs == [.rejected(outputs.first.flatMap { if case .rejected(let m) = $0 { m } else { nil } } ?? "")] {
          #expect(session == before, "a rejected input changed the session")
        }
        #expect(session.currentFlow.index(of: session.currentScreen.id) != nil)
        let seqs = session.events.map(\.seq)
        #expect(seqs == Array(seqs.indices).map { $0 + (seqs.first ?? 0) })
      }
      var replay = try Self.start(name)
      for input in inputs { _ = replay.send(input) }
      #expect(replay.events == session.events, "\(name) seed \(seed) did not replay identically")
      #expect(replay.data == session.data)
    }
  }
}
