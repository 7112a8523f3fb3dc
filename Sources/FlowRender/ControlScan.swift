/// Whether text holds a character a terminal would act on: a C0 control but line feed (and
/// tab, unless `tabIsControl`), DEL, or a C1 control (0xC2 then 0x80–0x9F in UTF-8). `sanitize`
/// and `terminalSafe` ask it of every run and every screen they are given, nearly always of
/// text that holds none, so it reads eight bytes at a time and looks at single bytes only in a
/// word that has a byte below 0x20, a DEL or a byte from 0x80 (a line feed or non-ASCII text).
func holdsControl(_ text: String, tabIsControl: Bool) -> Bool {
  var copy = text
  return copy.withUTF8 { holdsControl($0, tabIsControl: tabIsControl) }
}

func holdsControl(_ bytes: UnsafeBufferPointer<UInt8>, tabIsControl: Bool) -> Bool {
  guard let base = bytes.baseAddress else { return false }
  let count = bytes.count
  let ones: UInt64 = 0x0101_0101_0101_0101
  let highs: UInt64 = 0x8080_8080_8080_8080
  var index = 0
  var previous: UInt8 = 0
  while index + 8 <= count {
    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
    // Bytes below 0x20 (exact for bytes under 0x80; bytes from 0x80 are tested next), bytes
    // from 0x80, and DEL (a zero byte of `word ^ 0x7F…`).
    let low = (word &- 0x20 &* ones) & ~word & highs
    let del = ((word ^ (0x7F &* ones)) &- ones) & ~(word ^ (0x7F &* ones)) & highs
    if low | (word & highs) | del == 0 {
      previous = base[index + 7]
      index += 8
      continue
    }
    for offset in index..<(index + 8) {
      if isControl(base[offset], after: previous, tabIsControl: tabIsControl) { return true }
      previous = base[offset]
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

@inline(__always)
private func isControl(_ byte: UInt8, after previous: UInt8, tabIsControl: Bool) -> Bool {
  if byte < 0x20 { return byte != 0x0A && (tabIsControl || byte != 0x09) }
  return byte == 0x7F || (previous == 0xC2 && byte >= 0x80 && byte < 0xA0)
}

/// Whether every byte is printable ASCII (0x20–0x7E): then the text takes a column a byte.
func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let base = bytes.baseAddress else { return true }
  let count = bytes.count
  let ones: UInt64 = 0x0101_0101_0101_0101
  let highs: UInt64 = 0x8080_8080_8080_8080
  var index = 0
  while index + 8 <= count {
    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
    let low = (word &- 0x20 &* ones) & ~word & highs
    let del = ((word ^ (0x7F &* ones)) &- ones) & ~(word ^ (0x7F &* ones)) & highs
    if low | (word & highs) | del != 0 { return false }
    index += 8
  }
  while index < count {
    guard base[index] >= 0x20, base[index] < 0x7F else { return false }
    index += 1
  }
  return true
}
