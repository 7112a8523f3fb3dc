import FlowExpression
import Testing

/// `fixtures/journeys/time-window/cross-plane.json` restated (design §3.3), zone UTC; 2026-07-15
/// is a Wednesday and 2026-07-19 a Sunday. A nil expectation: the window is malformed.
@Suite struct TimeWindowTests {
  static func at(_ iso: String) -> Int64 { CivilTime.instant(iso8601: iso)!.milliseconds }

  static let vectors: [(Int, String, String, String, Set<Int>, TimeWindow.Decision?)] = [
    (1, "2026-07-15T10:00:00Z", "09:00", "17:00", [], .inWindow),
    (2, "2026-07-15T18:00:00Z", "09:00", "17:00", [], .pauseUntil(at("2026-07-16T09:00:00Z"))),
    (3, "2026-07-15T23:00:00Z", "22:00", "02:00", [], .inWindow),
    (4, "2026-07-15T10:00:00Z", "oops", "17:00", [], nil),
    (5, "2026-07-19T10:00:00Z", "09:00", "17:00", [0], .inWindow),
    (6, "2026-07-19T10:00:00Z", "09:00", "17:00", [5], .pauseUntil(at("2026-07-24T09:00:00Z"))),
    (7, "2026-07-15T10:00:00Z", "9:30", "17:00", [], nil),
    (8, "2026-07-15T10:00:00Z", "24:00", "17:00", [], nil),
  ]

  @Test(arguments: vectors)
  func vector(number: Int, now: String, start: String, end: String, days: Set<Int>, expected: TimeWindow.Decision?) {
    guard let from = TimeWindow.minutes(start), let to = TimeWindow.minutes(end) else {
      #expect(expected == nil, "vector \(number) parsed")
      return
    }
    let window = TimeWindow(start: from, end: to, days: days)
    #expect(window.decide(at: Self.at(now), in: ZonedCalendar(zone: "Etc/UTC")) == expected, "vector \(number)")
  }

  /// The window is local time: 09:00–17:00 in a zone two hours east opens at 07:00 UTC.
  @Test func localTimeInAnotherZone() {
    let calendar = ZonedCalendar(zone: "Plus2", rules: FixedTimeZones(["Plus2": 7200]))
    let window = TimeWindow(start: 9 * 60, end: 17 * 60)
    #expect(
      window.decide(at: Self.at("2026-07-15T06:00:00Z"), in: calendar) == .pauseUntil(Self.at("2026-07-15T07:00:00Z")))
    #expect(window.decide(at: Self.at("2026-07-15T14:59:00Z"), in: calendar) == .inWindow)
  }

  @Test func equalStartAndEndIsAWholeDay() {
    let window = TimeWindow(start: 600, end: 600)
    #expect(window.decide(at: Self.at("2026-07-15T03:00:00Z"), in: ZonedCalendar()) == .inWindow)
  }
}
