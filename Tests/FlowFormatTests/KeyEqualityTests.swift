import Testing

@testable import FlowFormat

/// `isSameKey` must answer exactly as `==` (canonical equivalence included), and strings that
/// are `==` must share a bit of `keyMark`, or the parser would miss a duplicate key.
@Suite struct KeyEqualityTests {
  static let strings: [String] = [
    "", "a", "b", "id", "type", "text", "next", "K", "\u{212A}", "Kelvin", "\u{212A}elvin", "é", "e\u{301}",
    "café", "cafe\u{301}", "0123456789abcde", "0123456789abcdf", "0123456789abcdef", "0123456789abcdeg",
    "a much longer key than fifteen bytes", "a much longer key than fifteen bytez", ";", "\u{37E}", "日本",
    String(decoding: Array("visibleWhen".utf8), as: UTF8.self), "visible" + "When",
  ]

  static let pairs = strings.flatMap { a in strings.map { (a, $0) } }

  @Test(arguments: pairs)
  func sameAsEquality(_ a: String, _ b: String) {
    #expect(a.isSameKey(b) == (a == b))
    if a == b { #expect(a.keyMark & b.keyMark != 0) }
  }

  /// Duplicates the marks would miss if they compared bytes: canonically equal keys in small
  /// and large objects, and a small ASCII key after a key of another form.
  @Test(arguments: [
    (#"{"K": 1, "x": 2, "\u212A": 3}"#, ["duplicate key 'K' (the last one wins)"]),
    (#"{"\u212A": 1, "x": 2, "K": 3}"#, ["duplicate key 'K' (the last one wins)"]),
    (#"{"caf\u00E9": 1, "cafe\u0301": 2}"#, ["duplicate key 'café' (the last one wins)"]),
    (#"{"a": 1, "b": 2, "c": 3}"#, []),
    (#"{"type": 1, "text": 2, "next": 3, "type": 4}"#, ["duplicate key 'type' (the last one wins)"]),
  ])
  func duplicateKeys(_ text: String, _ messages: [String]) {
    let (value, diagnostics) = JSONParser.parse(text)
    #expect(value != nil)
    #expect(diagnostics.map(\.message) == messages)
  }
}
