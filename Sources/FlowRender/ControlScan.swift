import FlowSupport

/// Whether text holds a character a terminal would act on: a C0 control but line feed (and
/// tab, unless `tabIsControl`), DEL, or a C1 control (0xC2 then 0x80–0x9F in UTF-8). `sanitize`
/// and `terminalSafe` ask it of every run and every screen they are given, nearly always of
/// text that holds none, so it reads eight bytes at a time and looks at single bytes only in a
/// word that has a byte below 0x20 (a line feed, mostly), a DEL or a 0xC2 (which leads a C1
/// control or a Latin-1 letter), or that follows a 0xC2.
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
    if previous != 0xC2, !ByteWords.hasByte(word, below: 0x20), !ByteWords.hasByte(word, equalTo: 0x7F),
      !ByteWords.hasByte(word, equalTo: 0xC2)
    {
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
