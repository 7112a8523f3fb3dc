/// A daily time window (`time_window`, a campaign's quiet hours): `HH:MM` to `HH:MM` in a zone,
/// on some weekdays, decided on the virtual clock as Nuxie's fixture algorithm does
/// (docs/dialects/nuxie.md, "Time windows").
public struct TimeWindow: Hashable, Sendable {
  /// Minutes after local midnight.
  public var start: Int
  public var end: Int
  /// Selected weekdays, 0 = Sunday; empty selects every day.
  public var days: Set<Int>

  public init(start: Int, end: Int, days: Set<Int> = []) {
    self.start = start
    self.end = end
    self.days = days
  }

  /// Reads `HH:MM` strictly: five characters, hour 00–23, minute 00–59 (`9:30` and `24:00` are
  /// malformed, nil).
  public static func minutes(_ text: String) -> Int? {
    let bytes = Array(text.utf8)
    guard bytes.count == 5, bytes[2] == 0x3A else { return nil }
    func digit(_ i: Int) -> Int? { (0x30...0x39).contains(bytes[i]) ? Int(bytes[i] - 0x30) : nil }
    guard let h1 = digit(0), let h2 = digit(1), let m1 = digit(3), let m2 = digit(4) else { return nil }
    let hour = h1 * 10 + h2
    let minute = m1 * 10 + m2
    guard hour < 24, minute < 60 else { return nil }
    return hour * 60 + minute
  }

  /// Whether `now` is inside the window, or when it next opens.
  public enum Decision: Hashable, Sendable {
    case inWindow
    /// Epoch milliseconds of the next opening.
    case pauseUntil(Int64)
    /// No selected day opens within a week (no day selected in 0–6).
    case unavailable
  }

  /// The decision at `now` (epoch ms) in `calendar`'s zone. An end at or before the start spans
  /// midnight (an end equal to the start is a whole day).
  public func decide(at now: Int64, in calendar: ZonedCalendar) -> Decision {
    let today = calendar.day(now)
    let spans = end <= start
    func selected(_ day: Int64) -> Bool { days.isEmpty || days.contains(CivilTime.weekday(ofDay: day)) }
    func interval(_ day: Int64) -> (Int64, Int64) {
      let opens = calendar.instant(localMilliseconds: day * CivilTime.dayMs + Int64(start) * 60_000, earliest: true)
      let endDay = spans ? day + 1 : day
      let closes = calendar.instant(localMilliseconds: endDay * CivilTime.dayMs + Int64(end) * 60_000, earliest: false)
      return (opens, closes)
    }
    for day in [today - 1, today] where selected(day) {
      let (opens, closes) = interval(day)
      if opens <= now && now < closes { return .inWindow }
    }
    for day in today...(today + 7) where selected(day) {
      let (opens, _) = interval(day)
      if opens > now { return .pauseUntil(opens) }
    }
    return .unavailable
  }
}

extension ZonedCalendar {
  /// The instant at which the zone's clock shows `local` (wall-clock epoch ms): the earliest (or
  /// latest) of two when the clock repeats an hour, the first valid minute after a skipped one.
  public func instant(localMilliseconds local: Int64, earliest: Bool) -> Int64 {
    func valid(_ wall: Int64) -> [Int64] {
      var found: [Int64] = []
      for probe in [wall - CivilTime.dayMs, wall, wall + CivilTime.dayMs] {
        let offset = Int64(rules.offsetSeconds(zone: zone, atMilliseconds: probe) ?? 0) * 1000
        let candidate = wall - offset
        if self.local(candidate) == wall, !found.contains(candidate) { found.append(candidate) }
      }
      return found
    }
    var wall = local
    // A clock that skips this time (spring forward): the first minute after it that exists.
    for _ in 0..<(2 * 24 * 60) {
      let found = valid(wall)
      if let instant = earliest ? found.min() : found.max() { return instant }
      wall += 60_000
    }
    return local
  }
}
