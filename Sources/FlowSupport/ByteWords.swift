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
    let x = word ^ (UInt64(byte) &* ones)
    return (x &- ones) & ~x & highs != 0
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
}
