import FlowExpression
import OrderedCollections

/// The values AppDNA's date, time, datetime, color and range inputs store, from what a person
/// or a script enters (docs/dialects/appdna.md, "Form fields"). A form field stores
/// `1990-05-14`, `09:30`, `2026-01-01T09:30:00`; an input block (`storesISO`) the full ISO-8601
/// UTC string the SDK's date pickers write (`2026-01-01T00:00:00Z`, today's date for a time).
public enum ValueShapes {
  /// The stored text for an entry of a date/time/datetime/color input, or nil when the entry
  /// has not that shape. `today` (`YYYY-MM-DD`) dates an ISO time. Stored values read back.
  public static func stored(_ entry: String, kind: InputBlock.Kind, iso: Bool, today: String) -> String? {
    let text = entry.trimmingWhitespace
    switch kind {
    case .color: return color(text)
    case .date:
      let (date, time) = split(text)
      guard let date = self.date(date), time == nil || time.flatMap(clock) == "00:00:00" else { return nil }
      return iso ? "\(date)T00:00:00Z" : date
    case .time:
      let (date, time) = split(text)
      // A bare time, or an ISO one as stored: its date is kept.
      guard let time = clock(time ?? text), date == nil || self.date(date ?? "") != nil else { return nil }
      return iso ? "\(date.flatMap(self.date) ?? today)T\(time)Z" : String(time.prefix(5))
    case .datetime:
      let (date, time) = split(text)
      guard let date = self.date(date), let time = time.flatMap(clock) else { return nil }
      return "\(date)T\(time)" + (iso ? "Z" : "")
    default: return text
    }
  }

  /// A valid entry of a time/datetime/color/range input (samplers, previews, `paths`); nil for
  /// the other kinds. A range spans its bounds.
  public static func sample(_ input: InputBlock) -> String? {
    let js = NumberFormatting.javaScriptString
    switch input.kind {
    case .time: return "09:30"
    case .datetime: return (input.dateBounds?.clamp("2026-01-01") ?? "2026-01-01") + "T09:30"
    case .color: return "#FF6B6B"
    case .range:
      let low = input.min ?? 0
      return "\(js(low))..\(js(Swift.max(low, input.max ?? low + 100)))"
    case .text, .email, .number, .phone, .password, .url, .date, .location: return nil
    }
  }

  /// What an entry of this kind must look like, for messages.
  public static func expected(_ kind: InputBlock.Kind) -> String {
    switch kind {
    case .date: "Enter a valid date (YYYY-MM-DD)"
    case .time: "Enter a valid time (HH:MM)"
    case .datetime: "Enter a valid date and time (YYYY-MM-DDTHH:MM)"
    case .color: "Enter a color as #RRGGBB or #RRGGBBAA"
    default: "Enter a valid value"
    }
  }

  /// `#RRGGBB` / `#RRGGBBAA` upper-cased (a leading `#` may be left out), else nil.
  public static func color(_ text: String) -> String? {
    let hex = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
    guard hex.count == 6 || hex.count == 8, hex.allSatisfy(\.isHexDigit) else { return nil }
    return "#" + hex.uppercased()
  }

  /// A range answer as the object `{keys[0]: low, keys[1]: high}` within `min`…`max`: an object
  /// with those keys (or `low`/`high`, `min`/`max`), a two-number list, or text `LOW-HIGH`,
  /// `LOW..HIGH`, `LOW to HIGH`, `LOW,HIGH`. The error says what is wrong.
  public static func range(_ answer: Value, keys: [String], min: Double?, max: Double?) -> Result<Value, RangeError> {
    let numbers: [Double]?
    switch answer {
    case .object(let object):
      let pairs = [keys, ["low", "high"], ["min", "max"]]
      numbers =
        pairs.lazy.compactMap { pair -> [Double]? in
          guard let low = object[pair[0]]?.numericValue, let high = object[pair[1]]?.numericValue else { return nil }
          return [low, high]
        }.first
    case .list(let items): numbers = items.count == 2 ? items.compactMap(\.numericValue) : nil
    case .string(let text):
      let trimmed = text.trimmingWhitespace
      if trimmed.hasPrefix("{") || trimmed.hasPrefix("["), let parsed = Value(parsingJSON: trimmed) {
        return range(parsed, keys: keys, min: min, max: max)
      }
      numbers = rangeNumbers(trimmed)
    default: numbers = nil
    }
    guard let numbers, numbers.count == 2, numbers.allSatisfy(\.isFinite) else {
      return .failure(RangeError(message: "takes a range: LOW-HIGH, or {\(keys[0]): LOW, \(keys[1]): HIGH}"))
    }
    let js = NumberFormatting.javaScriptString
    guard numbers[0] <= numbers[1] else {
      return .failure(RangeError(message: "takes a range whose low \(js(numbers[0])) is not above its high"))
    }
    if let min, numbers[0] < min {
      return .failure(RangeError(message: "goes down to \(js(min)), not \(js(numbers[0]))"))
    }
    if let max, numbers[1] > max {
      return .failure(RangeError(message: "goes up to \(js(max)), not \(js(numbers[1]))"))
    }
    return .success(.object([keys[0]: .number(numbers[0]), keys[1]: .number(numbers[1])]))
  }

  public struct RangeError: Error, Equatable {
    public var message: String
  }

  private static func rangeNumbers(_ text: String) -> [Double]? {
    for separator in ["..", " to ", ","] {
      guard let found = text.firstRange(of: separator) else { continue }
      return [text[..<found.lowerBound], text[found.upperBound...]].map {
        Value.string(String($0).trimmingWhitespace).numericValue ?? .nan
      }
    }
    // `LOW-HIGH`: the dash after the first character (a low bound may be negative).
    guard let dash = text.dropFirst().firstIndex(of: "-") else { return nil }
    return [text[..<dash], text[text.index(after: dash)...]].map {
      Value.string(String($0).trimmingWhitespace).numericValue ?? .nan
    }
  }

  /// `YYYY-MM-DD` and `HH:MM[:SS][Z]` of `2026-01-01T09:30` (also with a space), or the text as
  /// the date when it has no time.
  private static func split(_ text: String) -> (date: String?, time: String?) {
    guard let separator = text.firstIndex(where: { $0 == "T" || $0 == " " }) else {
      return text.contains(":") ? (nil, nil) : (text, nil)
    }
    return (String(text[..<separator]), String(text[text.index(after: separator)...]))
  }

  /// A calendar date `YYYY-MM-DD`, else nil.
  private static func date(_ text: String?) -> String? {
    guard let text else { return nil }
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month),
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) })
    else { return nil }
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return (1...lengths[month - 1]).contains(day) ? text : nil
  }

  /// `HH:MM:SS` of a 24-hour `HH:MM` or `HH:MM:SS` (a trailing `Z` allowed), else nil.
  private static func clock(_ text: String) -> String? {
    let body = text.hasSuffix("Z") ? text.dropLast() : Substring(text)
    let parts = body.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
      let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
    else { return nil }
    let second = parts.count == 3 ? Int(parts[2]) : 0
    guard let second, (0..<60).contains(second) else { return nil }
    return "\(parts[0]):\(parts[1]):\(parts.count == 3 ? String(parts[2]) : "00")"
  }
}

extension InputBlock {
  /// Whether entries are read as `ValueShapes.stored` (a Sequence date stays as entered).
  public var hasValueShape: Bool {
    switch kind {
    case .time, .datetime, .color: true
    case .date: storesISO
    case .text, .email, .number, .phone, .password, .url, .location, .range: false
    }
  }
}

/// The dates an AppDNA date answer may take: `min_date`/`max_date`, and `allow_past`/
/// `allow_future` against the session's day (its virtual clock).
public struct DateBounds: Hashable, Sendable {
  public var earliest: String?
  public var latest: String?
  public var allowsPast = true
  public var allowsFuture = true
  /// `date_validation_message`, shown for a past or future date instead of the SDK's default.
  public var message: String?

  public init(earliest: String? = nil, latest: String? = nil) {
    self.earliest = earliest
    self.latest = latest
  }

  /// `candidate` (`YYYY-MM-DD`) moved within the bounds, for samplers: a future-only input
  /// takes a day far ahead, a past-only one a day long ago.
  public func clamp(_ candidate: String) -> String {
    var date = candidate
    if !allowsPast { date = Swift.max(date, "2099-01-01") }
    if !allowsFuture { date = Swift.min(date, "2000-01-01") }
    if let earliest, date < earliest { date = earliest }
    if let latest, date > latest { date = latest }
    return date
  }

  /// Why the answer's date (its first ten characters) is out of bounds, or nil. `today` is
  /// `YYYY-MM-DD`.
  public func problem(with answer: String, today: String) -> String? {
    let date = String(answer.prefix(10))
    if let earliest, date < earliest { return "Choose a date on or after \(earliest)" }
    if let latest, date > latest { return "Choose a date on or before \(latest)" }
    if !allowsFuture, date > today { return message ?? "Future dates are not allowed" }
    if !allowsPast, date < today { return message ?? "Past dates are not allowed" }
    return nil
  }
}
