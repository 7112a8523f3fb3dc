import FlowExpression
import OrderedCollections

/// The event types of session.md, spelled as the Sequence SDK sends them.
public enum EventType: String, Hashable, Sendable, CaseIterable {
  case onboardingStarted = "onboarding_started"
  case experimentVariantAssigned = "experiment_variant_assigned"
  case screenViewed = "screen_viewed"
  case screenFirstViewed = "screen_first_viewed"
  case buttonTapped = "button_tapped"
  case validationFailed = "validation_failed"
  case actionRequested = "action_requested"
  case actionResult = "action_result"
  case screenSkipped = "screen_skipped"
  case screenCompleted = "screen_completed"
  case screenDroppedOff = "screen_dropped_off"
  case onboardingDismissed = "onboarding_dismissed"
  case onboardingCompleted = "onboarding_completed"
}

/// One analytics event: the envelope of session.md plus its properties.
public struct Event: Hashable, Sendable {
  /// 1-based, strictly increasing within a session.
  public var seq: Int
  public var type: EventType
  /// Epoch milliseconds of the virtual clock.
  public var time: Int64
  public var sessionID: String
  public var userID: String
  public var flowID: String
  public var screenID: String?
  /// 0-based position of the screen in its flow's order.
  public var screenIndex: Int?
  public var experimentID: String?
  public var variantID: String?
  public var properties: OrderedDictionary<String, Value>

  public init(
    seq: Int, type: EventType, time: Int64, sessionID: String, userID: String, flowID: String,
    screenID: String?, screenIndex: Int?, experimentID: String?, variantID: String?,
    properties: OrderedDictionary<String, Value>
  ) {
    self.seq = seq
    self.type = type
    self.time = time
    self.sessionID = sessionID
    self.userID = userID
    self.flowID = flowID
    self.screenID = screenID
    self.screenIndex = screenIndex
    self.experimentID = experimentID
    self.variantID = variantID
    self.properties = properties
  }

  /// One property, or nil when absent.
  public func property(_ key: String) -> Value? { properties[key] }

  /// `event_type`.
  public var eventType: String { type.rawValue }

  /// ISO-8601 UTC with milliseconds: `2026-01-01T00:00:00.000Z`.
  public var timestamp: String { Timestamp.iso8601(milliseconds: time) }

  /// The envelope as an ordered object (keys in session.md's order; absent optionals omitted),
  /// ready to be written as one NDJSON line.
  public var value: Value {
    var object: OrderedDictionary<String, Value> = [:]
    object.reserveCapacity(11)
    object["seq"] = .number(Double(seq))
    object["event_type"] = .string(type.rawValue)
    object["timestamp"] = .string(timestamp)
    object["session_id"] = .string(sessionID)
    object["user_id"] = .string(userID)
    object["flow_id"] = .string(flowID)
    if let screenID { object["screen_id"] = .string(screenID) }
    if let screenIndex { object["screen_index"] = .number(Double(screenIndex)) }
    if let experimentID { object["experiment_id"] = .string(experimentID) }
    if let variantID { object["variant_id"] = .string(variantID) }
    object["properties"] = .object(properties)
    return .object(object)
  }
}

/// Formats and reads virtual-clock times without Foundation.
public enum Timestamp {
  /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for epoch milliseconds (proleptic Gregorian, UTC).
  public static func iso8601(milliseconds: Int64) -> String {
    let (days, msOfDay) = floorDivMod(milliseconds, 86_400_000)
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

  /// Epoch milliseconds for a UTC calendar time.
  public static func milliseconds(
    year: Int64, month: Int64, day: Int64, hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0,
    millisecond: Int64 = 0
  ) -> Int64 {
    let days = self.days(year: year, month: month, day: day)
    return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (the era-based day count).
  static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let shiftedMonth = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The inverse of `days(year:month:day:)`.
  static func civil(fromDays input: Int64) -> (Int64, Int64, Int64) {
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

  static func floorDivMod(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
    var q = a / b
    var r = a % b
    if r < 0 {
      q -= 1
      r += b
    }
    return (q, r)
  }

  static func pad(_ n: Int64, _ width: Int) -> String {
    let digits = String(n)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
  }
}
