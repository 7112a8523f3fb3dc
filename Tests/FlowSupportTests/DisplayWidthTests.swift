import FlowSupport
import Testing

@Suite struct DisplayWidthTests {
  @Test(arguments: [
    ("", 0),
    ("abc", 3),
    ("Hello, world", 12),
    ("é", 1),  // precomposed
    ("e\u{301}", 1),  // e + combining acute
    ("a\u{300}\u{301}\u{302}", 1),  // several combining marks
    ("中文", 4),
    ("日本語のテキスト", 16),
    ("한국어", 6),
    ("ｶ", 1),  // halfwidth katakana
    ("Ａ", 2),  // fullwidth latin
    ("🏃", 2),
    ("💪 Strength", 11),
    ("❤️", 2),  // text heart + VS16
    ("👨‍👩‍👧", 2),  // ZWJ family
    ("👍🏽", 2),  // skin tone
    ("🇵🇹", 2),  // flag
    ("1️⃣", 2),  // keycap
    ("⚡", 2),  // emoji presentation in BMP
    ("✓", 1),
    ("─━●○◉", 5),  // ambiguous width counts 1
    ("a\u{200B}b", 2),  // zero-width space
    ("a\u{200D}b", 2),  // joiner between letters
    ("\u{1B}", 0),  // control
    ("tab\there", 7),  // tab is a control: 0 (the renderer turns tabs into spaces first)
  ])
  func widths(text: String, expected: Int) {
    #expect(DisplayWidth.of(text) == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
  }

  @Test func scalars() {
    #expect(DisplayWidth.of(Unicode.Scalar(0x301)!) == 0)
    #expect(DisplayWidth.of(Unicode.Scalar(0x4E2D)!) == 2)
    #expect(DisplayWidth.of(Unicode.Scalar(0x41)!) == 1)
    #expect(DisplayWidth.of(Unicode.Scalar(0xFE0F)!) == 0)
    #expect(DisplayWidth.of(Unicode.Scalar(0x7F)!) == 0)
  }

  /// The shortcut for Latin, punctuation and box drawing measures what the cluster walk does,
  /// scalar by scalar and in a rule line followed by a combining mark (which leaves it).
  @Test(arguments: [0xA0...0x2FF, 0x2010...0x2027, 0x2190...0x21FF, 0x2500...0x259F] as [ClosedRange<UInt32>])
  func simpleScalarsMatchClusters(_ range: ClosedRange<UInt32>) {
    for value in range {
      let scalar = Unicode.Scalar(value)!
      let text = "a" + String(Character(scalar)) + "─"
      // Each a character of its own, next to spaces too (the renderer cuts such text at bytes).
      #expect((" " + text + " ").count == 5, "U+\(String(value, radix: 16))")
      #expect(DisplayWidth.of(text) == 2 + DisplayWidth.of(Character(scalar)), "U+\(String(value, radix: 16))")
      #expect(DisplayWidth.of(text + "e\u{301}") == DisplayWidth.of(text) + 1)
    }
  }
}
