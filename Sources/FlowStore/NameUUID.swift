/// Name-based UUIDs (RFC 9562 version 5: SHA-1 of a namespace and a name), which map flowrun's
/// text ids to the table's UUID columns deterministically: the same flow id always gives the
/// same `flow_id`, the same session the same row `id` (docs/submissions.md).
public enum NameUUID {
  /// flowrun's namespace: the version-5 UUID of the URL `flowrun:submissions` in RFC 9562's URL
  /// namespace.
  public static let namespace = make(
    namespace: [
      0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8,
    ], name: "flowrun:submissions")

  /// The `flow_id` of a flow id.
  public static func flow(_ id: String) -> String { text(make(namespace: namespace, name: "flow:" + id)) }

  /// The `app_id` every flowrun row carries (flowrun has no apps): `app:flowrun`.
  public static let app = text(make(namespace: namespace, name: "app:flowrun"))

  /// A row's `id`: one row per session of a flow.
  public static func submission(flowID: String, sessionID: String) -> String {
    text(make(namespace: namespace, name: "submission:" + flowID + "\u{1F}" + sessionID))
  }

  /// Whether `text` is a UUID in its 8-4-4-4-12 hexadecimal form (either case).
  public static func isUUID(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count == 36 else { return false }
    for (index, byte) in bytes.enumerated() {
      if [8, 13, 18, 23].contains(index) {
        guard byte == UInt8(ascii: "-") else { return false }
      } else if !isHexDigit(byte) {
        return false
      }
    }
    return true
  }

  /// The version-5 UUID bytes of `name` in `namespace`.
  public static func make(namespace: [UInt8], name: String) -> [UInt8] {
    var bytes = Array(SHA1.digest(namespace + Array(name.utf8)).prefix(16))
    bytes[6] = (bytes[6] & 0x0F) | 0x50
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    return bytes
  }

  /// Lowercase 8-4-4-4-12 text.
  public static func text(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    var out = ""
    for (index, byte) in bytes.enumerated() {
      if [4, 6, 8, 10].contains(index) { out.append("-") }
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0F)])
    }
    return out
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
  }
}
