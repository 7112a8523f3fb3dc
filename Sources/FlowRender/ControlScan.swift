import FlowSupport

/// Whether text holds a character a terminal would act on: a C0 control but line feed (and
/// tab, unless `tabIsControl`), DEL, or a C1 control (0xC2 then 0x80–0x9F in UTF-8). `sanitize`
/// and `terminalSafe` ask it of every run and every screen they are given, nearly always of
/// text that holds none (`TextShape`, eight bytes at a time).
func holdsControl(_ text: String, tabIsControl: Bool) -> Bool {
  var copy = text
  return copy.withUTF8 { holdsControl($0, tabIsControl: tabIsControl) }
}

func holdsControl(_ bytes: UnsafeBufferPointer<UInt8>, tabIsControl: Bool) -> Bool {
  guard let base = bytes.baseAddress else { return false }
  let count = bytes.count
  var index = 0
  var previous: UInt8 = 0
  while index + 8 <= count {
    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
    if previous == 0xC2 || ByteWords.hasByte(word, equalTo: 0xC2) {
      for offset in index..<(index + 8) {
        if isControl(base[offset], after: previous, tabIsControl: tabIsControl) { return true }
        previous = base[offset]
      }
    } else {
      if ByteWords.hasByte(word, below: 0x20) || ByteWords.hasByte(word, equalTo: 0x7F),
        controlMask(word, tabIsControl: tabIsControl) != 0
      {
        return true
      }
      previous = base[index + 7]
    }
    index += 8
  }
  while index < count {
    if isControl(base[index], after: previous, tabIsControl: tabIsControl) { return true }
    previous = base[index]
    index += 1
  }
  return false
}

/// The C0 controls and DELs of a word, marked (a C1 control needs the byte before it).
@inline(__always)
private func controlMask(_ word: UInt64, tabIsControl: Bool) -> UInt64 {
  var allowed = ByteWords.bytes(word, equalTo: 0x0A)
  if !tabIsControl { allowed |= ByteWords.bytes(word, equalTo: 0x09) }
  return (ByteWords.bytes(word, below: 0x20) & ~allowed) | ByteWords.bytes(word, equalTo: 0x7F)
}

/// What one pass over text finds: a control (as `holdsControl`), a byte that is not ASCII, a
/// line break or two spaces in a row. Eight bytes at a time: a word's controls, line feeds and
/// spaces are found as masks of marked bytes (`ByteWords.bytes`), so a line feed (one a line
/// of drawn text) costs no walk of its word; only a word holding a 0xC2, or following one, is
/// read byte by byte (a C1 control is 0xC2 then 0x80–0x9F).
struct TextShape {
  var control = false
  var ascii = true
  var lineBreak = false
  var doubleSpace = false

  init(_ bytes: UnsafeBufferPointer<UInt8>, tabIsControl: Bool) {
    guard let base = bytes.baseAddress else { return }
    let count = bytes.count
    var index = 0
    var previous: UInt8 = 0
    // Marks gathered over the words (high bits), looked at once at the end.
    var (controls, highs, feeds, doubles): (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    while index + 8 <= count {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      if previous == 0xC2 || ByteWords.hasByte(word, equalTo: 0xC2) {
        for offset in index..<(index + 8) { look(base[offset], after: &previous, tabIsControl) }
      } else {
        if ByteWords.hasByte(word, below: 0x20) || ByteWords.hasByte(word, equalTo: 0x7F) {
          controls |= controlMask(word, tabIsControl: tabIsControl)
          feeds |= ByteWords.bytes(word, equalTo: 0x0A)
        }
        highs |= word
        let spaces = ByteWords.bytes(word, equalTo: 0x20)
        doubles |= spaces & (spaces << 8)
        if previous == 0x20, word & 0xFF == 0x20 { doubleSpace = true }
        previous = base[index + 7]
      }
      index += 8
    }
    while index < count {
      look(base[index], after: &previous, tabIsControl)
      index += 1
    }
    if controls != 0 { control = true }
    if highs & 0x8080_8080_8080_8080 != 0 { ascii = false }
    if feeds != 0 { lineBreak = true }
    if doubles != 0 { doubleSpace = true }
  }

  private mutating func look(_ byte: UInt8, after previous: inout UInt8, _ tabIsControl: Bool) {
    if isControl(byte, after: previous, tabIsControl: tabIsControl) { control = true }
    if byte >= 0x80 { ascii = false }
    if byte == 0x0A { lineBreak = true }
    if byte == 0x20, previous == 0x20 { doubleSpace = true }
    previous = byte
  }
}

@inline(__always)
private func isControl(_ byte: UInt8, after previous: UInt8, tabIsControl: Bool) -> Bool {
  if byte < 0x20 { return byte != 0x0A && (tabIsControl || byte != 0x09) }
  return byte == 0x7F || (previous == 0xC2 && byte >= 0x80 && byte < 0xA0)
}

/// Whether every byte is printable ASCII (0x20–0x7E): then the text takes a column a byte.
func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let base = bytes.baseAddress else { return true }
  let count = bytes.count
  var index = 0
  while index + 8 <= count {
    guard ByteWords.isPrintableASCII(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) else {
      return false
    }
    index += 8
  }
  while index < count {
    guard base[index] >= 0x20, base[index] < 0x7F else { return false }
    index += 1
  }
  return true
}

/// Whether `text` holds a line feed, eight bytes at a time (a screen's title is asked once per
/// drawing; the byte-by-byte walk of its UTF-8 view cost more than building it).
func holdsLineFeed(_ text: String) -> Bool {
  var copy = text
  return copy.withUTF8 { bytes in
    guard let base = bytes.baseAddress else { return false }
    var index = 0
    while index + 8 <= bytes.count {
      if ByteWords.hasByte(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self), equalTo: 0x0A) {
        return true
      }
      index += 8
    }
    return bytes[index...].contains(0x0A)
  }
}

/// `DisplayWidth.simpleScalarsWidth` of UTF-8 bytes, decoded in place: no string is made of
/// them and no scalar iterator walks them (a screen's header holds a `·`, so every header was
/// measured the slow way). Nil when a scalar is not simple or the bytes are not whole scalars.
func simpleColumns(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
  var (columns, index) = (0, 0)
  let count = bytes.count
  while index < count {
    let lead = bytes[index]
    let value: UInt32
    if lead < 0x80 {
      value = UInt32(lead)
      index += 1
    } else if lead >= 0xC2, lead < 0xE0, index + 1 < count {
      value = UInt32(lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
      index += 2
    } else if lead >= 0xE0, lead < 0xF0, index + 2 < count {
      value = UInt32(lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
      index += 3
    } else {
      return nil
    }
    guard let width = DisplayWidth.simpleWidth(value) else { return nil }
    columns += width
  }
  return columns
}
