/// Terminal columns taken by text: wide (East Asian wide and fullwidth, emoji) characters take
/// 2, combining marks, joiners, variation selectors and control characters 0, everything else 1.
///
/// Measured per grapheme cluster (`Character`), so an emoji ZWJ sequence, a flag or a keycap
/// counts 2 in all, and `e` + U+0301 counts 1. East Asian *ambiguous* characters (box drawing,
/// `●`, `•`) count 1, as in Western terminals.
public enum DisplayWidth {
  /// The columns `text` takes on one line.
  public static func of(_ text: String) -> Int { columns(text) }

  /// The columns `text` takes on one line (concrete, like the `String` one, so callers in other
  /// modules do not walk the text through generic witnesses).
  public static func of(_ text: Substring) -> Int { columns(text) }

  /// The columns `text` takes on one line.
  public static func of(_ text: some StringProtocol) -> Int { columns(text) }

  private static func columns(_ text: some StringProtocol) -> Int {
    // ASCII: one column per printable byte, none for control bytes (whole clusters like
    // `\r\n` are control bytes only), without walking grapheme clusters.
    var ascii = 0
    for byte in text.utf8 {
      guard byte < 0x80 else { return simpleScalarsWidth(text) ?? text.reduce(0) { $0 + of($1) } }
      if byte >= 0x20 && byte != 0x7F { ascii += 1 }
    }
    return ascii
  }

  /// The width of text made only of scalars that are a whole grapheme cluster each and one
  /// column wide (Latin-1 and Latin Extended letters, dashes, quotes, bullets, arrows, box
  /// drawing: the renderer's rules, frames and paths), or nil for anything else: walking clusters costs ten
  /// times as much.
  public static func simpleScalarsWidth(_ text: some StringProtocol) -> Int? { scalarsWidth(text) }

  /// `simpleScalarsWidth` of a string, specialized here (through the generic witnesses, a
  /// caller in another module paid 4,000 instructions for a screen's title).
  public static func simpleScalarsWidth(_ text: String) -> Int? { scalarsWidth(text) }

  private static func scalarsWidth(_ text: some StringProtocol) -> Int? {
    var columns = 0
    for scalar in text.unicodeScalars {
      guard let width = simpleWidth(scalar.value) else { return nil }
      columns += width
    }
    return columns
  }

  /// The columns of one simple scalar (0 or 1), or nil for a scalar that is not simple: the
  /// one rule `simpleScalarsWidth` and the renderer's byte-level measure share. Inlinable: the
  /// renderer calls it for every byte of a header.
  @inlinable public static func simpleWidth(_ v: UInt32) -> Int? {
    if v < 0x300 { return v >= 0x20 && !(0x7F..<0xA0).contains(v) && v != 0xAD ? 1 : 0 }
    if (0x2010...0x2027).contains(v) || (0x2190...0x21FF).contains(v) || (0x2500...0x259F).contains(v) { return 1 }
    return nil
  }

  /// The columns one grapheme cluster takes: 0, 1 or 2.
  public static func of(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if scalars.count == 1 { return of(first) }
    // An emoji presentation selector or an emoji base makes the whole cluster one wide glyph.
    if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
    if first.properties.isEmojiPresentation || isRegionalIndicator(first) { return 2 }
    var sum = 0
    for scalar in scalars { sum += of(scalar) }
    return min(sum, 2)
  }

  /// The columns one scalar takes on its own: 0, 1 or 2.
  public static func of(_ scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
    if v < 0x7F { return 1 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control: return 0
    default: break
    }
    if (0xFE00...0xFE0F).contains(v) || (0xE0100...0xE01EF).contains(v) { return 0 }
    // Hangul conjoining vowels and finals join the preceding initial.
    if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) { return 0 }
    if scalar.properties.isEmojiPresentation { return 2 }
    for range in wideRanges where range.contains(v) { return 2 }
    return 1
  }

  static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
    (0x1F1E6...0x1F1FF).contains(scalar.value)
  }

  /// East Asian Wide and Fullwidth blocks (Unicode 15), coarsely.
  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F,  // Hangul Jamo initials
    0x2E80...0x303E,  // CJK radicals, Kangxi, CJK symbols and punctuation
    0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, compatibility Jamo, enclosed CJK
    0x3400...0x4DBF,  // CJK extension A
    0x4E00...0x9FFF,  // CJK unified ideographs
    0xA000...0xA4CF,  // Yi
    0xA960...0xA97F,  // Hangul Jamo extended A
    0xAC00...0xD7A3,  // Hangul syllables
    0xF900...0xFAFF,  // CJK compatibility ideographs
    0xFE10...0xFE19,  // vertical forms
    0xFE30...0xFE6F,  // CJK compatibility forms, small forms
    0xFF00...0xFF60,  // fullwidth forms
    0xFFE0...0xFFE6,
    0x16FE0...0x18CFF,  // Tangut and friends
    0x1B000...0x1B2FF,  // Kana supplement and extensions
    0x1F200...0x1F2FF,  // enclosed ideographic supplement
    0x1F300...0x1F64F,  // pictographs and emoticons
    0x1F900...0x1F9FF,  // supplemental symbols and pictographs
    0x1FA70...0x1FAFF,  // symbols and pictographs extended A
    0x20000...0x2FFFD,  // CJK extensions B..F
    0x30000...0x3FFFD,  // CJK extension G and later
  ]
}
