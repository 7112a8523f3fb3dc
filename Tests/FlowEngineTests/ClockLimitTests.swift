import FlowEngine
import FlowExpression
import FlowFormat
import Testing

/// The virtual clock saturates at the ends of `Limits.clockMs` instead of wrapping round, and
/// a duration past `Limits.durationMs` (a flow built in code, not loaded) waits that long.
@Suite struct ClockLimitTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var now: Int64
    var fillerMs: Double
    var waits: [Int64]
    /// Whether the filler has advanced by then.
    var advanced: Bool
    var clock: Int64
    var testDescription: String { name }
  }

  static let end = Limits.clockMs.upperBound
  static let start = Limits.clockMs.lowerBound

  static let cases: [Case] = [
    Case(
      name: "year 0 and large waits", now: start, fillerMs: 1000, waits: [Int64.max, Int64.max], advanced: true,
      clock: end),
    Case(name: "the last millisecond", now: end, fillerMs: 1, waits: [1_000_000_000_000], advanced: true, clock: end),
    Case(
      name: "a 292-million-year filler", now: jan2026, fillerMs: 9.2e18, waits: [1], advanced: false, clock: jan2026 + 1
    ),
    Case(
      name: "a 292-million-year filler, waited for", now: jan2026, fillerMs: 9.2e18, waits: [Int64.max], advanced: true,
      clock: end),
    Case(name: "a start past the end", now: Int64.max, fillerMs: 5, waits: [10], advanced: true, clock: end),
    Case(name: "a start before year 0", now: Int64.min, fillerMs: 5, waits: [4], advanced: false, clock: start + 4),
  ]

  @Test(arguments: cases)
  func clockSaturates(_ test: Case) {
    let filler = document(flow("f", [legacy("wait", kind: .filler, autoAdvanceMs: test.fillerMs), legacy("after")]))
    var (session, _) = begin(filler, SessionConfig(now: test.now))
    for ms in test.waits { #expect(session.send(.wait(ms: ms)).rejection == nil) }
    #expect(session.currentScreen.id == (test.advanced ? "after" : "wait"))
    #expect(session.virtualNow == test.clock)
    #expect(Limits.clockMs.contains(session.virtualNow))
  }
}
