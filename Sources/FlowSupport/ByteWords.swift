/// Tests on eight bytes at once (a `UInt64` loaded from text), for scans that look at single
/// bytes only where a word has one of interest. Each is exact: no word is passed that holds
/// such a byte.
public enum ByteWords {
  @usableFromInline static let ones: UInt64 = 0x0101_0101_0101_0101
  @usableFromInline static let highs: UInt64 = 0x8080_8080_8080_8080

  /// Whether `word` has a byte below `bound` (at most 0x80).
  @inlinable public static func hasByte(_ word: UInt64, below bound: UInt8) -> Bool {
    (word &- UInt64(bound) &* ones) & ~word & highs != 0
  }

  /// Whether `word` has a byte equal to `byte`.
  @inlinable public static func hasByte(_ word: UInt64, equalTo byte: UInt8) -> Bool {
    firstMark(word, equalTo: byte) != 0
  }

  /// A mask whose lowest set bit is the high bit of the first byte (in memory order) equal to
  /// `byte`, zero when there is none; the bits above it may mark bytes that are not equal (a
  /// borrow runs on from the byte found), so only the lowest counts.
  @inlinable public static func firstMark(_ word: UInt64, equalTo byte: UInt8) -> UInt64 {
    let x = word ^ (UInt64(byte) &* ones)
    return (x &- ones) & ~x & highs
  }

  /// Whether every byte of `word` is printable ASCII (0x20–0x7E).
  @inlinable public static func isPrintableASCII(_ word: UInt64) -> Bool {
    word & highs == 0 && !hasByte(word, below: 0x20) && !hasByte(word, equalTo: 0x7F)
  }

  /// The bytes of `word` equal to `byte`, each marked by its high bit (no false marks: the
  /// additions cannot carry from one byte into the next).
  @inlinable public static func bytes(_ word: UInt64, equalTo byte: UInt8) -> UInt64 {
    let x = word ^ (UInt64(byte) &* ones)
    return ~(((x & ~highs) &+ ~highs) | x | ~highs)
  }

  /// The bytes of `word` below `bound` (at most 0x80), each marked by its high bit.
  @inlinable public static func bytes(_ word: UInt64, below bound: UInt8) -> UInt64 {
    ~(((word & ~highs) &+ UInt64(0x80 - bound) &* ones) | word) & highs
  }

  /// The UTF-8 continuation bytes (`10xxxxxx`) of `word`, each marked by its high bit.
  @inlinable public static func continuationBytes(_ word: UInt64) -> UInt64 {
    word & ~(word << 1) & highs
  }

  /// The eight bytes at `offset` of `buffer` (at least eight from there), the first in the low
  /// byte, so that `trailingZeroBitCount / 8` of a mask is the offset of the byte it marks.
  @inlinable public static func word(at offset: Int, in buffer: UnsafeBufferPointer<UInt8>) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(buffer.baseAddress! + offset).loadUnaligned(as: UInt64.self))
  }
}
