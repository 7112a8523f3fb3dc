import FlowSupport
import Testing

@testable import FlowRender

/// The word-at-a-time scans against a byte-by-byte reading of what they look for, with the
/// byte of interest at every offset of the eight-byte words and across their edges.
@Suite struct ControlScanTests {
  static func naiveHoldsControl(_ text: String, tabIsControl: Bool) -> Bool {
    var previous: UInt8 = 0
    for byte in text.utf8 {
      if byte < 0x20, byte != 0x0A, tabIsControl || byte != 0x09 { return true }
      if byte == 0x7F || (previous == 0xC2 && byte >= 0x80 && byte < 0xA0) { return true }
      previous = byte
    }
    return false
  }

  static let insertions = [
    "\u{0}", "\u{1}", "\t", "\n", "\r", "\u{1B}", "\u{1F}", " ", "~", "\u{7F}", "\u{80}", "\u{9F}", "\u{A0}",
    "é", "\u{AD}", "─", "💪", "@", "`",
  ]

  @Test(arguments: insertions)
  func findsWhatTheByteLoopFinds(insertion: String) {
    for length in [0, 1, 7, 8, 9, 15, 16, 17, 24] {
      for position in 0...length {
        let base = String(repeating: "a", count: length)
        let text = String(base.prefix(position)) + insertion + String(base.dropFirst(position))
        for tabIsControl in [false, true] {
          #expect(
            holdsControl(text, tabIsControl: tabIsControl) == Self.naiveHoldsControl(text, tabIsControl: tabIsControl),
            "\(text.debugDescription)")
        }
        #expect(StyledLine.columns(text) == DisplayWidth.of(text), "\(text.debugDescription)")
      }
    }
  }

  @Test func emptyAndPlainText() {
    #expect(!holdsControl("", tabIsControl: true))
    #expect(!holdsControl(String(repeating: "plain text, ", count: 20), tabIsControl: true))
    #expect(StyledLine.columns("") == 0)
    #expect(StyledLine.columns(String(repeating: "x", count: 100)) == 100)
  }
}
