/// Recently made strings of at most 16 UTF-8 bytes, found again by their bytes.
///
/// Object keys and short values (`"type": "text"`, `"variant": "h2"`) repeat throughout a flow;
/// making each again with `String(decoding:as:)` validated and copied its bytes every time (a
/// sixth of the parse of big files). The cache is direct-mapped: a slot holds the last string
/// whose bytes hashed to it, so a miss costs one `String(decoding:as:)` as before.
struct ShortStringCache {
  static let maxLength = 16

  private struct Entry {
    var low: UInt64
    var high: UInt64
    /// `Int.max` in an empty slot, which no length matches.
    var length: Int
    var string: String
  }

  private var entries: [Entry]
  private let shift: UInt64

  /// A cache sized for `inputSize` bytes of JSON: from 16 slots for small texts to 4,096.
  init(inputSize: Int) {
    var bits = 4
    while bits < 12 && (1 << bits) * 256 < inputSize { bits += 1 }
    entries = Array(repeating: Entry(low: 0, high: 0, length: .max, string: ""), count: 1 << bits)
    shift = UInt64(64 - bits)
  }

  /// The string of the `count` bytes at `start` in `buffer`, which must be valid UTF-8 and at
  /// most ``maxLength`` bytes.
  @inline(__always) mutating func string(
    _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, count: Int
  ) -> String {
    let (low, high) = Self.words(buffer, from: start, count: count)
    let hash = (low ^ (high &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(truncatingIfNeeded: count)) &* 0x9E37_79B9_7F4A_7C15
    let slot = Int(truncatingIfNeeded: hash >> shift)
    if entries[slot].length == count && entries[slot].low == low && entries[slot].high == high {
      return entries[slot].string
    }
    let string = String(
      decoding: UnsafeBufferPointer(rebasing: buffer[start..<start + count]), as: UTF8.self)
    entries[slot] = Entry(low: low, high: high, length: count, string: string)
    return string
  }

  /// The bytes as two little-endian words, zero beyond `count` (at most `maxLength`: longer
  /// strings would share a key and come back as one another).
  @inline(__always) static func words(
    _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, count: Int
  ) -> (UInt64, UInt64) {
    assert(count <= maxLength, "only strings of up to \(maxLength) bytes are cached")
    if start + 16 <= buffer.count {
      let raw = UnsafeRawPointer(buffer.baseAddress! + start)
      let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
      let second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
      if count <= 8 { return (first & mask(count), 0) }
      return (first, second & mask(count - 8))
    }
    var low: UInt64 = 0
    var high: UInt64 = 0
    for i in 0..<count {
      let byte = UInt64(buffer[start + i])
      if i < 8 { low |= byte << (8 * i) } else { high |= byte << (8 * (i - 8)) }
    }
    return (low, high)
  }

  /// The low `bytes` bytes set (0...8).
  @inline(__always) static func mask(_ bytes: Int) -> UInt64 {
    bytes >= 8 ? ~0 : (1 << (8 * UInt64(bytes))) &- 1
  }
}
