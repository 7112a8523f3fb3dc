import ArgumentParser
import FlowEngine
import FlowExpression

/// `--now`: the virtual clock's start, an ISO-8601 UTC instant within the clock's range.
struct Instant: OptionValue {
  /// Epoch milliseconds.
  let milliseconds: Int64

  /// `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM[:SS[.fff]]` followed by `Z` or `±HH:MM` (also `±HHMM`,
  /// `±HH`). A lowercase `t`/`z` and a space instead of `T` are accepted; nothing else is.
  static func parse(_ text: String) -> Result<Instant, ValidationError> {
    func refused(_ reason: String) -> Result<Instant, ValidationError> {
      .failure(ValidationError("--now '\(text)': \(reason)"))
    }
    let failure = refused("expected an ISO-8601 time such as 2026-01-01T09:30:00Z or 2026-01-01")
    var scanner = Scanner(Array(text.utf8))
    guard let year = scanner.digits(4), scanner.take("-"), let month = scanner.digits(2), scanner.take("-"),
      let day = scanner.digits(2)
    else { return failure }
    guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else {
      return refused("no such date")
    }
    var hour: Int64 = 0
    var minute: Int64 = 0
    var second: Int64 = 0
    var millisecond: Int64 = 0
    var offsetMinutes: Int64 = 0
    if !scanner.atEnd {
      guard scanner.take("T") || scanner.take("t") || scanner.take(" "), let h = scanner.digits(2),
        scanner.take(":"), let m = scanner.digits(2)
      else { return failure }
      hour = h
      minute = m
      if scanner.take(":") {
        guard let s = scanner.digits(2) else { return failure }
        second = s
        if scanner.take(".") || scanner.take(",") {
          let fraction = scanner.digitRun()
          guard !fraction.isEmpty else { return failure }
          let padded = (fraction + "000").prefix(3)
          millisecond = Int64(String(padded)) ?? 0
        }
      }
      guard hour < 24, minute < 60, second < 61 else {
        return refused("no such time of day")
      }
      if scanner.take("Z") || scanner.take("z") {
      } else if let sign = scanner.sign() {
        guard let oh = scanner.digits(2) else { return failure }
        var om: Int64 = 0
        if scanner.take(":") {
          guard let m = scanner.digits(2) else { return failure }
          om = m
        } else if let m = scanner.digits(2) {
          om = m
        }
        guard oh < 24, om < 60 else { return failure }
        offsetMinutes = sign * (oh * 60 + om)
      } else {
        return refused("give the time zone as Z or ±HH:MM (the clock is UTC)")
      }
      guard scanner.atEnd else { return failure }
    }
    let local = Timestamp.milliseconds(
      year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59),
      millisecond: millisecond)
    let instant = local - offsetMinutes * 60_000
    guard Limits.clockMs.contains(instant) else {
      return refused(Limits.clockText)
    }
    return .success(Instant(milliseconds: instant))
  }

  static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  private struct Scanner {
    var bytes: [UInt8]
    var index = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var atEnd: Bool { index == bytes.count }
    mutating func take(_ character: Character) -> Bool {
      guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else { return false }
      index += 1
      return true
    }
    mutating func digits(_ count: Int) -> Int64? {
      guard index + count <= bytes.count else { return nil }
      var value: Int64 = 0
      for byte in bytes[index..<(index + count)] {
        guard byte >= 48, byte <= 57 else { return nil }
        value = value * 10 + Int64(byte - 48)
      }
      index += count
      return value
    }
    mutating func digitRun() -> String {
      var text = ""
      while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
        text.append(Character(UnicodeScalar(bytes[index])))
        index += 1
      }
      return text
    }
    mutating func sign() -> Int64? {
      if take("+") { return 1 }
      if take("-") { return -1 }
      return nil
    }
  }
}
