import FlowEngine
import FlowExpression

/// The pure parsers behind the session options of `run` and `test` (`--mock`, `--now`,
/// `--trait`, `--variant`); the command line turns their errors into usage errors (exit 64).
public enum RunArguments {
  /// `IDENTIFIER=success[:JSON] | failure[:TEXT] | cancelled`.
  public static func mock(_ text: String) -> Result<(identifier: String, result: ActionResult), InputLanguageError> {
    let usage = "expected IDENTIFIER=success[:JSON], IDENTIFIER=failure[:TEXT] or IDENTIFIER=cancelled"
    guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
      return .failure(InputLanguageError("--mock '\(text)': \(usage)"))
    }
    let identifier = String(text[..<equals])
    let spec = text[text.index(after: equals)...]
    let status = spec.prefix { $0 != ":" }
    let payload: String? = status.count < spec.count ? String(spec.dropFirst(status.count + 1)) : nil
    switch status {
    case "success":
      guard let payload, !payload.isEmpty else { return .success((identifier, .success(nil))) }
      switch JSONBridge.parse(payload) {
      case .success(let value): return .success((identifier, .success(value)))
      case .failure(let error):
        return .failure(InputLanguageError("--mock '\(text)': the data after 'success:' is not JSON: \(error.message)"))
      }
    case "failure":
      return .success((identifier, .failure(payload.flatMap { $0.isEmpty ? nil : $0 })))
    case "cancelled":
      guard payload == nil else {
        return .failure(InputLanguageError("--mock '\(text)': 'cancelled' takes nothing after it"))
      }
      return .success((identifier, .cancelled))
    default:
      return .failure(InputLanguageError("--mock '\(text)': unknown status '\(status)'; \(usage)"))
    }
  }

  /// `KEY=VALUE` (`--trait`, `--variant`): both sides non-empty.
  public static func keyValue(_ text: String, option: String) -> Result<
    (key: String, value: String), InputLanguageError
  > {
    guard let equals = text.firstIndex(of: "="), equals != text.startIndex,
      text.index(after: equals) != text.endIndex
    else {
      return .failure(InputLanguageError("\(option) '\(text)': expected KEY=VALUE"))
    }
    return .success((String(text[..<equals]), String(text[text.index(after: equals)...])))
  }

  /// A trait's value: JSON `true`, `false`, `null` or a number stay typed; anything else is text.
  public static func traitValue(_ text: String) -> Value {
    switch JSONBridge.value(parsing: text) {
    case .some(let value) where value != .string(text) && !isContainer(value): value
    default: .string(text)
    }
  }

  private static func isContainer(_ value: Value) -> Bool {
    switch value {
    case .list, .object, .string: true
    default: false
    }
  }

  /// An ISO-8601 UTC instant as epoch milliseconds: `YYYY-MM-DD`, or
  /// `YYYY-MM-DDTHH:MM[:SS[.fff]]` followed by `Z` or `±HH:MM` (also `±HHMM`, `±HH`).
  /// A lowercase `t`/`z` and a space instead of `T` are accepted; nothing else is.
  public static func iso8601(_ text: String) -> Result<Int64, InputLanguageError> {
    let failure = InputLanguageError(
      "--now '\(text)': expected an ISO-8601 time such as 2026-01-01T09:30:00Z or 2026-01-01")
    var scanner = Scanner(Array(text.utf8))
    guard let year = scanner.digits(4), scanner.take("-"), let month = scanner.digits(2), scanner.take("-"),
      let day = scanner.digits(2)
    else { return .failure(failure) }
    guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else {
      return .failure(InputLanguageError("--now '\(text)': no such date"))
    }
    var hour: Int64 = 0
    var minute: Int64 = 0
    var second: Int64 = 0
    var millisecond: Int64 = 0
    var offsetMinutes: Int64 = 0
    if !scanner.atEnd {
      guard scanner.take("T") || scanner.take("t") || scanner.take(" "), let h = scanner.digits(2),
        scanner.take(":"), let m = scanner.digits(2)
      else { return .failure(failure) }
      hour = h
      minute = m
      if scanner.take(":") {
        guard let s = scanner.digits(2) else { return .failure(failure) }
        second = s
        if scanner.take(".") || scanner.take(",") {
          let fraction = scanner.digitRun()
          guard !fraction.isEmpty else { return .failure(failure) }
          let padded = (fraction + "000").prefix(3)
          millisecond = Int64(String(padded)) ?? 0
        }
      }
      guard hour < 24, minute < 60, second < 61 else {
        return .failure(InputLanguageError("--now '\(text)': no such time of day"))
      }
      if scanner.take("Z") || scanner.take("z") {
      } else if let sign = scanner.sign() {
        guard let oh = scanner.digits(2) else { return .failure(failure) }
        var om: Int64 = 0
        if scanner.take(":") {
          guard let m = scanner.digits(2) else { return .failure(failure) }
          om = m
        } else if let m = scanner.digits(2) {
          om = m
        }
        guard oh < 24, om < 60 else { return .failure(failure) }
        offsetMinutes = sign * (oh * 60 + om)
      } else {
        return .failure(
          InputLanguageError("--now '\(text)': give the time zone as Z or ±HH:MM (the clock is UTC)"))
      }
      guard scanner.atEnd else { return .failure(failure) }
    }
    let local = Timestamp.milliseconds(
      year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59),
      millisecond: millisecond)
    let instant = local - offsetMinutes * 60_000
    guard Limits.clockMs.contains(instant) else {
      return .failure(InputLanguageError("--now '\(text)': \(Limits.clockText)"))
    }
    return .success(instant)
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
