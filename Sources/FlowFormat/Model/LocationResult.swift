import FlowExpression
import OrderedCollections

/// What an AppDNA location field stores (document 001, "Location Data Structure"): the 11 keys
/// in the document's order. flowrun has no geocoder: an object (a script's mapping, JSON typed
/// at the prompt) is taken as the chosen suggestion, and plain text as a place nobody looked up.
public enum LocationResult {
  /// The keys, in order, and whether each holds a number (else a string); any may be null.
  public static let keys: [(name: String, isNumber: Bool)] = [
    ("formatted_address", false), ("city", false), ("state", false), ("state_code", false), ("country", false),
    ("country_code", false), ("latitude", true), ("longitude", true), ("timezone", false),
    ("timezone_offset", true), ("postal_code", false),
  ]

  /// The keys iOS SDK 1.0.70 stores for a form field's pick (`--ios-quirks`).
  public static let iosKeys: Set<String> = ["city", "state", "country", "timezone", "latitude", "longitude"]

  /// How an answer is written, for messages.
  public static let shape =
    "an object with formatted_address, city, state, state_code, country, country_code, "
    + "latitude, longitude, timezone, timezone_offset, postal_code"

  /// The stored object: an object's known keys (missing ones null, others dropped), JSON object
  /// text read as that object, other text as `formatted_address` with every other key null.
  /// Nil when a key holds the wrong kind of value, or for a value that is no place at all. With
  /// `iosQuirks`, only the SDK's six keys (plain text then names none of them: all six null).
  public static func value(of answer: Value, iosQuirks: Bool = false) -> Value? {
    var given: OrderedDictionary<String, Value>
    switch answer {
    case .object(let object): given = object
    case .string(let text):
      let trimmed = text.trimmingWhitespace
      if trimmed.hasPrefix("{"), case .object(let object)? = Value(parsingJSON: trimmed) {
        given = object
      } else {
        given = ["formatted_address": .string(trimmed)]
      }
    default: return nil
    }
    var result: OrderedDictionary<String, Value> = [:]
    for key in keys where !iosQuirks || iosKeys.contains(key.name) {
      let value = given[key.name] ?? .null
      switch value {
      case .null: break
      case .number where key.isNumber, .string where !key.isNumber: break
      default: return nil
      }
      result[key.name] = value
    }
    return .object(result)
  }
}
