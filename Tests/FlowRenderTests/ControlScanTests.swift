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

  /// `simpleColumns` (the bytes decoded in place) against `DisplayWidth.simpleScalarsWidth`,
  /// with scalars at the edges of every simple range, wide and combining ones, and after ASCII.
  @Test(arguments: [
    "", "abc", "Screen s0 (s0) \u{B7} feature", "\u{1F}\u{20}\u{7E}\u{7F}\u{80}\u{9F}\u{A0}\u{AC}\u{AD}\u{AE}",
    "\u{2FF}", "\u{300}", "e\u{301}", "\u{200F}\u{2010}\u{2027}\u{2028}", "\u{218F}\u{2190}\u{21FF}\u{2200}",
    "\u{24FF}\u{2500}\u{259F}\u{25A0}", "a \u{2192} b \u{2500}\u{2500}", "\u{4E2D}", "\u{1F4AA}", "\u{FFFD}",
  ])
  func simpleColumnsAreTheScalarsWidth(text: String) {
    var copy = text
    #expect(copy.withUTF8(simpleColumns) == DisplayWidth.simpleScalarsWidth(text), "\(text.debugDescription)")
    // Cut inside a scalar: not whole scalars, so not measured here.
    let bytes = Array(text.utf8)
    if let last = bytes.last, last >= 0x80 {
      #expect(bytes.dropLast().withUnsafeBufferPointer(simpleColumns) == nil)
    }
  }

  /// `TextShape` against the byte loop: controls, non-ASCII bytes, line feeds, and two spaces
  /// in a row at every offset (the second insertion puts a space next to the first one's).
  @Test(arguments: insertions)
  func shapeIsWhatTheByteLoopFinds(insertion: String) {
    for length in [0, 1, 7, 8, 9, 15, 16, 17, 24] {
      for position in 0...length {
        let base = String(repeating: "a", count: length)
        for extra in ["", " "] {
          let text = String(base.prefix(position)) + extra + insertion + String(base.dropFirst(position))
          let bytes = Array(text.utf8)
          let pairs = zip(bytes, bytes.dropFirst())
          for tabIsControl in [false, true] {
            var copy = text
            let shape = copy.withUTF8 { TextShape($0, tabIsControl: tabIsControl) }
            #expect(
              shape.control == Self.naiveHoldsControl(text, tabIsControl: tabIsControl), "\(text.debugDescription)")
            #expect(shape.ascii == bytes.allSatisfy { $0 < 0x80 }, "\(text.debugDescription)")
            #expect(shape.lineBreak == bytes.contains(0x0A), "\(text.debugDescription)")
            #expect(shape.doubleSpace == pairs.contains { $0 == 0x20 && $1 == 0x20 }, "\(text.debugDescription)")
          }
        }
      }
    }
  }

  /// The byte masks mark exactly the bytes asked for, whatever their neighbours.
  @Test func byteMasksAreExact() {
    for value in 0...255 {
      for position in 0..<8 {
        for filler: UInt64 in [0x00, 0x01, 0x20, 0x21, 0x7F, 0x80, 0xFF] {
          var word = filler &* 0x0101_0101_0101_0101
          word &= ~(0xFF << (8 * UInt64(position)))
          word |= UInt64(value) << (8 * UInt64(position))
          for (byte, bound) in [(UInt8(0x20), UInt8(0x20)), (0x0A, 0x80), (0x7F, 0x01), (0xC2, 0x00)] {
            var equal: UInt64 = 0
            var below: UInt64 = 0
            for index in 0..<8 {
              let b = UInt8(truncatingIfNeeded: word >> (8 * UInt64(index)))
              if b == byte { equal |= 0x80 << (8 * UInt64(index)) }
              if b < bound { below |= 0x80 << (8 * UInt64(index)) }
            }
            #expect(ByteWords.bytes(word, equalTo: byte) == equal)
            #expect(ByteWords.bytes(word, below: bound) == below)
          }
        }
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
