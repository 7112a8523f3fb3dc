/// Proleptic Gregorian calendar arithmetic on epoch milliseconds, and ISO-8601 reading, without
/// Foundation (the engine's virtual clock and the Nuxie conditions share it).
public enum CivilTime {
  public static let dayMs: Int64 = 86_400_000

  /// Days since 1970-01-01 of a date (the era-based day count).
  public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let shiftedMonth = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date of a day number: the inverse of `days(year:month:day:)`.
  public static func civil(fromDays input: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = input + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  /// 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday).
  public static func weekday(ofDay day: Int64) -> Int { Int(floorModulo(day + 4, 7)) }

  public static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
  }

  public static func floorModulo(_ a: Int64, _ b: Int64) -> Int64 { a - floorDivide(a, b) * b }

  /// An instant read from ISO-8601 (`instant(iso8601:)`): whole seconds and the fraction's
  /// nanoseconds, so `01.5001` keeps its last digit.
  public struct Instant: Hashable, Sendable {
    public var seconds: Int64
    public var nanoseconds: Int64

    /// Epoch milliseconds (the fraction below a millisecond dropped).
    public var milliseconds: Int64 { seconds * 1000 + nanoseconds / 1_000_000 }
    /// Epoch seconds with the fraction.
    public var fractionalSeconds: Double { Double(seconds) + Double(nanoseconds) / 1e9 }
  }

  /// Why a text is not an ISO-8601 instant.
  public enum ISORefusal: Error, Hashable, Sendable {
    /// Not the shape: a digit, separator or fraction missing, or text left over.
    case malformed
    /// A month past 12, or a day its month has not (`2025-02-29`).
    case noSuchDate
    /// An hour past 23, a minute past 59 or a second past 60.
    case noSuchTime
    /// A time of day followed by neither `Z`, an offset nor the end.
    case badZone
  }

  /// The one ISO-8601 reader of flowrun (`--now`, `--until`, a script's `now:`, a profile's and
  /// a timeline's times, expression timestamps; docs/cli.md, "Times"): `YYYY-MM-DD`, or that,
  /// `T` (or `t`, or a space) and `HH:MM[:SS[(.|,)fraction]]`, then `Z` (or `z`), an offset
  /// `±HH`, `±HH:MM` or `±HHMM`, or nothing (UTC; `zoneless` tells). Dates are checked against
  /// their month; second 60 (a leap second) reads as 59.
  public static func readInstant(iso8601 text: String) -> Result<(instant: Instant, zoneless: Bool), ISORefusal> {
    let s = Array(text.utf8)
    var i = 0
    func digits(_ count: Int) -> Int64? {
      guard i + count <= s.count else { return nil }
      var n: Int64 = 0
      for byte in s[i..<(i + count)] {
        guard byte >= 0x30, byte <= 0x39 else { return nil }
        n = n * 10 + Int64(byte - 0x30)
      }
      i += count
      return n
    }
    func take(_ byte: UInt8) -> Bool {
      guard i < s.count, s[i] == byte else { return false }
      i += 1
      return true
    }
    guard let year = digits(4), take(0x2D), let month = digits(2), take(0x2D), let day = digits(2) else {
      return .failure(.malformed)
    }
    guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else {
      return .failure(.noSuchDate)
    }
    let midnight = days(year: year, month: month, day: day) * 86_400
    if i == s.count { return .success((Instant(seconds: midnight, nanoseconds: 0), false)) }
    guard take(0x54) || take(0x74) || take(0x20), let hour = digits(2), take(0x3A), let minute = digits(2) else {
      return .failure(.malformed)
    }
    var second: Int64 = 0
    var nanoseconds: Int64 = 0
    if take(0x3A) {
      guard let read = digits(2) else { return .failure(.malformed) }
      second = read
      if take(0x2E) || take(0x2C) {
        var scale: Int64 = 100_000_000
        let first = i
        while i < s.count, s[i] >= 0x30, s[i] <= 0x39 {
          nanoseconds += Int64(s[i] - 0x30) * scale
          scale /= 10
          i += 1
        }
        guard i > first else { return .failure(.malformed) }
      }
    }
    guard hour < 24, minute < 60, second <= 60 else { return .failure(.noSuchTime) }
    let local = midnight + hour * 3600 + minute * 60 + min(second, 59)
    if i == s.count { return .success((Instant(seconds: local, nanoseconds: nanoseconds), true)) }
    if take(0x5A) || take(0x7A) {
      guard i == s.count else { return .failure(.malformed) }
      return .success((Instant(seconds: local, nanoseconds: nanoseconds), false))
    }
    let sign: Int64
    if take(0x2B) {
      sign = 1
    } else if take(0x2D) {
      sign = -1
    } else {
      return .failure(.badZone)
    }
    guard let offsetHours = digits(2), offsetHours < 24 else { return .failure(.malformed) }
    var offsetMinutes: Int64 = 0
    if take(0x3A) || i < s.count {
      guard let m = digits(2), m < 60 else { return .failure(.malformed) }
      offsetMinutes = m
    }
    guard i == s.count else { return .failure(.malformed) }
    let offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
    return .success((Instant(seconds: local - offset, nanoseconds: nanoseconds), false))
  }

  /// `readInstant`'s instant, zone or not; nil for a refused text.
  public static func instant(iso8601 text: String) -> Instant? {
    try? readInstant(iso8601: text).get().instant
  }

  /// Epoch milliseconds of epoch seconds, within the clock's range (`Limits.clockMs`; NaN: 0):
  /// IR timestamps are any double, and a conversion must not trap.
  public static func milliseconds(seconds: Double) -> Int64 {
    guard !seconds.isNaN else { return 0 }
    let ms = (seconds * 1000).rounded(.down)
    return Int64(min(max(ms, Double(Limits.clockMs.lowerBound)), Double(Limits.clockMs.upperBound)))
  }

  public static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}

extension CivilTime {
  /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for epoch milliseconds (UTC).
  public static func iso8601(milliseconds: Int64) -> String {
    let days = floorDivide(milliseconds, dayMs)
    let msOfDay = milliseconds - days * dayMs
    let (year, month, day) = civil(fromDays: days)
    let hour = msOfDay / 3_600_000
    let minute = msOfDay / 60_000 % 60
    let second = msOfDay / 1000 % 60
    let ms = msOfDay % 1000
    var text = year < 0 ? "-" : ""
    text += pad(abs(year), 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    text += "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2) + "." + pad(ms, 3) + "Z"
    return text
  }

  static func pad(_ n: Int64, _ width: Int) -> String {
    let digits = String(n)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
  }
}
