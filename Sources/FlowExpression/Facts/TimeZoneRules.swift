/// Time-zone offsets, injected: the expression language and the engine have no calendar of
/// their own (no Foundation); the command line passes the system's rules, tests a fixed table.
public protocol TimeZoneRules: Sendable {
  /// Seconds east of UTC in the zone `identifier` at the instant, or nil when the zone is not
  /// known.
  func offsetSeconds(zone identifier: String, atMilliseconds instant: Int64) -> Int?
}

/// Zones with a fixed offset each: `UTC`, `Etc/UTC` and `GMT` (0) plus whatever is given.
public struct FixedTimeZones: TimeZoneRules {
  public var offsets: [String: Int]

  public init(_ offsets: [String: Int] = [:]) {
    self.offsets = offsets.merging(["UTC": 0, "Etc/UTC": 0, "GMT": 0, "Etc/GMT": 0]) { mine, _ in mine }
  }

  public func offsetSeconds(zone identifier: String, atMilliseconds instant: Int64) -> Int? { offsets[identifier] }
}

/// A zone read through some rules: local calendar days and weekdays of instants.
public struct ZonedCalendar: Sendable {
  public var zone: String
  public var rules: any TimeZoneRules

  public init(zone: String = "UTC", rules: any TimeZoneRules = FixedTimeZones()) {
    self.zone = zone
    self.rules = rules
  }

  /// The wall-clock milliseconds of `instant` in the zone (UTC when the zone is unknown).
  public func local(_ instant: Int64) -> Int64 {
    instant + Int64(rules.offsetSeconds(zone: zone, atMilliseconds: instant) ?? 0) * 1000
  }

  /// The local day number (days since 1970-01-01) of `instant`.
  public func day(_ instant: Int64) -> Int64 { CivilTime.floorDivide(local(instant), CivilTime.dayMs) }
}
