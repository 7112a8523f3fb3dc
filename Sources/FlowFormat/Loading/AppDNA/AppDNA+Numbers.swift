import FlowExpression

/// The numbers of AppDNA blocks and fields, read within flowrun's limits: one outside them is a
/// `load.out-of-range` error at its position (the nearest end of the range is used), never a
/// conversion that traps or a loop that never ends.
extension DecodeContext {
  /// Durations in milliseconds (`total_duration_ms`, a loading item's `duration_ms`).
  static let appdnaMilliseconds = Double(Limits.durationMs.lowerBound)...Double(Limits.durationMs.upperBound)
  /// Durations in seconds (`duration_seconds`).
  static let appdnaSeconds = appdnaMilliseconds.lowerBound...appdnaMilliseconds.upperBound / 1000
  /// A step webhook's per-attempt timeout (ms) and retries (the SDK caps retries lower still).
  static let appdnaWebhookTimeouts = 1...3_600_000
  static let appdnaWebhookRetries = 0...1_000

  /// A length or count (`max_length`, `max_chips`, `max_selections`) of `object`, found under
  /// the key `parent` of the current context (nil: the context itself).
  mutating func appdnaCount(_ object: JSONObject, _ key: String, in parent: String? = nil) -> Int? {
    guard let parent else { return integer(object, key, within: Limits.count) }
    return at(parent) { $0.integer(object, key, within: Limits.count) }
  }

  /// A slider bound, step or default of `object` (under `parent`), within ±10^15.
  mutating func appdnaMagnitude(_ object: JSONObject, _ key: String, in parent: String? = nil) -> Double? {
    guard let parent else { return number(object, key, within: Self.magnitudes) }
    return at(parent) { $0.number(object, key, within: Self.magnitudes) }
  }

  /// Checks the durations a `countdown_timer` or an `animated_loading` block carries.
  mutating func checkAppDNADurations(_ object: JSONObject) {
    _ = number(object, "duration_seconds", within: Self.appdnaSeconds, unit: " s")
    _ = number(object, "total_duration_ms", within: Self.appdnaMilliseconds, unit: " ms")
    guard let items = object.lookup("loading_items")?.arrayValue else { return }
    at("loading_items") { context in
      for (index, item) in items.enumerated() {
        guard let itemObject = item.objectValue else { continue }
        _ = context.at(.index(index)) {
          $0.number(itemObject, "duration_ms", within: Self.appdnaMilliseconds, unit: " ms")
        }
      }
    }
  }
}
