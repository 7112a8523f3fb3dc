import ArgumentParser
import FlowEngine
import FlowExpression

/// `--now`: the virtual clock's start, an ISO-8601 UTC instant within the clock's range.
struct Instant: OptionValue {
  /// Epoch milliseconds.
  let milliseconds: Int64

  /// ISO-8601 as `CivilTime.readInstant` reads it, but for a time of day without a zone: the
  /// clock is UTC, and a zone left out on the command line is more likely meant as local time
  /// than as UTC (a script's `now:` and the timelines take it as UTC).
  static func parse(_ text: String) -> Result<Instant, ValidationError> {
    func refused(_ reason: String) -> Result<Instant, ValidationError> {
      .failure(ValidationError("--now '\(text)': \(reason)"))
    }
    let zone = "give the time zone as Z or ±HH:MM (the clock is UTC)"
    switch CivilTime.readInstant(iso8601: text) {
    case .failure(.malformed): return refused("expected an ISO-8601 time such as 2026-01-01T09:30:00Z or 2026-01-01")
    case .failure(.noSuchDate): return refused("no such date")
    case .failure(.noSuchTime): return refused("no such time of day")
    case .failure(.badZone): return refused(zone)
    case .success(let read):
      guard !read.zoneless else { return refused(zone) }
      guard Limits.clockMs.contains(read.instant.milliseconds) else { return refused(Limits.clockText) }
      return .success(Instant(milliseconds: read.instant.milliseconds))
    }
  }
}
