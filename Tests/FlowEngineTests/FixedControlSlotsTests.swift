import FlowEngine
import FlowFormat
import FlowGenerator
import Testing

/// `Session.fixedControlSlots(of:)`, where it gives slots, gives the ones `controlSlots(into:)`
/// lists for a session on that screen, whatever the session's state: on every screen of random
/// walks through the generated cases, quiet or recording.
@Suite struct FixedControlSlotsTests {
  @Test(arguments: FastPathEquivalenceTests.cases)
  func fixedSlotsAreTheListedOnes(_ testCase: FastPathEquivalenceTests.Case) throws {
    let document = try #require(FastPathEquivalenceTests.document(testCase))
    var random = SplitMix64(seed: testCase.seed)
    var config = SessionConfig(now: 1_767_225_600_000, recordsHistory: testCase.recordsHistory)
    config.emitsEvents = testCase.recordsHistory
    var slots: [ControlSlot] = []
    var compared = 0
    for _ in 0..<20 {
      var session = try Session.start(document: document, config: config).0
      for _ in 0..<40 where !session.status.isEnded {
        if let fixed = Session.fixedControlSlots(of: session.currentScreen) {
          session.controlSlots(into: &slots)
          #expect(fixed == slots, "\(session.currentScreenID)")
          compared += 1
        }
        let choices = FastPathEquivalenceTests.choices(session)
        _ = session.send(choices[Int(random.next() % UInt64(choices.count))])
      }
    }
    #expect(compared > 0)
  }
}
