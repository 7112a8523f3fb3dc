/// Document 000's naming rule for field names: "use snake_case for all field names (e.g.,
/// user_name, daily_hours)". A name that breaks it still collects (the SDK stores any key),
/// but `{Daily Hours}` is not an expression, so no template can read it.
enum FieldNaming {
  /// Lowercase ASCII letters, digits and underscores, starting with a letter.
  static func isSnakeCase(_ name: String) -> Bool {
    guard let first = name.utf8.first, isLower(first) else { return false }
    return name.utf8.allSatisfy { isLower($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
  }

  /// The snake_case spelling of a name (`Daily Hours`, `dailyHours`, `daily-hours` →
  /// `daily_hours`), or nil when there is none (a letter outside ASCII, no letter to start with).
  static func snakeCase(_ name: String) -> String? {
    guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
    var words: [[UInt8]] = [[]]
    let bytes = Array(name.utf8)
    for (index, byte) in bytes.enumerated() {
      guard isLower(byte) || isUpper(byte) || isDigit(byte) else {
        if !words[words.count - 1].isEmpty { words.append([]) }
        continue
      }
      // A capital starts a word after a lowercase letter or a digit (`dailyHours`), and ends a
      // run of capitals before a lowercase letter (`HTTPCode` → `http`, `code`).
      if isUpper(byte), index > 0, !words[words.count - 1].isEmpty {
        let previous = bytes[index - 1]
        let nextIsLower = index + 1 < bytes.count && isLower(bytes[index + 1])
        if isLower(previous) || isDigit(previous) || (isUpper(previous) && nextIsLower) { words.append([]) }
      }
      words[words.count - 1].append(isUpper(byte) ? byte + 32 : byte)
    }
    let joined = words.filter { !$0.isEmpty }.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "_")
    return isSnakeCase(joined) ? joined : nil
  }

  private static func isLower(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
  private static func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
  private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
