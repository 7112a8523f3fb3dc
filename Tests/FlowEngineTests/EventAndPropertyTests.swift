import FlowEngine
import FlowExpression
import FlowFormat
import FlowGenerator
import Testing
import _FlowTestSupport

@Suite struct EventAndPropertyTests {
  @Test(arguments: [
    (Int64(0), "1970-01-01T00:00:00.000Z"),
    (1_767_225_600_000, "2026-01-01T00:00:00.000Z"),
    (951_782_400_123, "2000-02-29T00:00:00.123Z"),
    (-1, "1969-12-31T23:59:59.999Z"),
    (4_102_444_799_999, "2099-12-31T23:59:59.999Z"),
  ])
  func timestamps(ms: Int64, text: String) {
    #expect(Timestamp.iso8601(milliseconds: ms) == text)
  }

  @Test func envelopeValueIsOrderedAndComplete() {
    var session = begin(document(abc()), SessionConfig(userID: "u_42", now: jan2026)).0
    _ = session.send(.wait(ms: 1500))
    _ = session.send(.next)
    let started = session.events[0]
    #expect(started.property("flow_version") == 3)
    #expect(started.screenID == nil)
    let completed = session.events[3]
    #expect(completed.type == .screenCompleted)
    #expect(completed.property("duration_ms") == 1500)
    guard case .object(let object) = completed.value else {
      Issue.record("not an object")
      return
    }
    #expect(
      object.map(\.key) == [
        "seq", "event_type", "timestamp", "session_id", "user_id", "flow_id", "screen_id", "screen_index", "properties",
      ])
    #expect(completed.timestamp == "2026-01-01T00:00:01.500Z")
    #expect(completed.userID == "u_42")
    #expect(completed.screenIndex == 0)
  }

  @Test func sessionIDIsDerivedDeterministicallyOrGiven() {
    let a = begin(document(abc()), SessionConfig(userID: "u1", now: jan2026)).0.sessionID
    let b = begin(document(abc()), SessionConfig(userID: "u1", now: jan2026)).0.sessionID
    let c = begin(document(abc()), SessionConfig(userID: "u2", now: jan2026)).0.sessionID
    let d = begin(document(abc()), SessionConfig(now: jan2026 + 1)).0.sessionID
    #expect(a == b)
    #expect(a != c && a != d)
    #expect(a.count == 16)
    #expect(begin(document(abc()), SessionConfig(now: jan2026, sessionID: "given")).0.sessionID == "given")
  }

  @Test func completionCarriesCollectedDataAndDuration() {
    var session = begin(flow("f", [screen("s", [input("name")])]))
    _ = session.send(.set(field: "name", value: "Alex"))
    _ = session.send(.wait(ms: 10))
    let outputs = session.send(.next)
    let completed = outputs.events.last!
    #expect(completed.type == .onboardingCompleted)
    #expect(completed.property("collected_data") == ["name": "Alex"])
    #expect(completed.property("duration_ms") == 10)
  }

  // MARK: Determinism and random walks

  static func sampleFlows() -> [FlowDocument] {
    let form = flow(
      "form",
      [
        legacy("welcome", skipText: "Skip"),
        screen(
          "q",
          [
            checklist("goal", goals), input("age", kind: .number, required: true, min: 1, max: 120),
            button("n", "Next"),
          ],
          rules: [rule("goal == 'lose' && age >= 18", "plan"), rule("goal == 'muscle'", "$complete")]),
        screen(
          "perm",
          [
            button("ok", "Enable", .custom(CustomAction(identifier: "permission.notifications", awaitResult: true))),
            button("later", "Later"), button("close", "Close", .dismiss),
          ]),
        legacy("wait", kind: .filler, autoAdvanceMs: 500),
        legacy("plan", onEnter: .custom(CustomAction(identifier: "track"))),
      ])
    let parent = flow("main", [legacy("a"), legacy("sub", kind: .flow, subflow: "child"), legacy("z")])
    let child = flow("child", [legacy("c1"), legacy("cam", kind: .native, identifier: "cam"), legacy("c3")])
    return [document(form), document(parent, child), document(abc())]
  }

  static let inputs: [Input] = [
    .next, .back, .skip, .dismiss, .complete, .tap(.number(1)), .tap(.number(2)), .tap(.number(3)),
    .tap(.label("skip")),
    .set(field: "goal", value: "lose"), .set(field: "goal", value: "Build muscle"), .set(field: "age", value: "30"),
    .set(field: "age", value: "x"), .pick(field: "goal", items: ["fit"]), .result(.success(["granted": true])),
    .result(.failure("no")), .result(.cancelled), .wait(ms: 300), .goto(screenID: "welcome"),
    .setVariable(name: "v", value: 1), .quit(reason: .quit),
  ]

  @Test(arguments: [false, true])
  func randomWalksKeepInvariantsAndAreDeterministic(interactive: Bool) {
    for (docIndex, doc) in Self.sampleFlows().enumerated() {
      for seed in 0..<60 {
        var random = SplitMix64(seed: UInt64(seed * 31 + docIndex))
        let config = SessionConfig(now: jan2026, waitsForResults: interactive)
        var session = begin(doc, config).0
        var replay = session
        var lastSeq = session.events.last?.seq ?? 0
        for _ in 0..<40 {
          let input = Self.inputs[Int(random.next() % UInt64(Self.inputs.count))]
          let before = session
          let outputs = session.send(input)
          #expect(replay.send(input) == outputs)
          if outputs.rejection != nil {
            #expect(outputs.count == 1)
            #expect(session == before)
          }
          for event in outputs.events {
            #expect(event.seq == lastSeq + 1)
            lastSeq = event.seq
          }
          if !session.status.isEnded {
            #expect(session.currentFlow.screen(session.currentScreen.id) != nil)
            #expect(session.isCurrentScreenShown)
          }
        }
        #expect(session == replay)
      }
    }
  }
}
