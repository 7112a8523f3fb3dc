import FlowGenerator
import Testing

@testable import FlowFormat

/// The cache must give exactly `String(decoding:as:)` of the bytes, at any position (the word
/// loads near the end of the buffer take the byte-wise path) and whatever was cached before.
@Suite struct ShortStringCacheTests {
  static let texts: [String] = [
    "", "a", "id", "type", "content", "12345678", "123456789", "visibleWhen", "0123456789abcde",
    "0123456789abcdef", "é", "日本語", "😀😀😀😀", "a\u{0}b", "Kelvin\u{212A}", "ÿÿÿÿÿÿÿÿ",
  ]

  @Test(arguments: texts)
  func sameAsDecoding(_ text: String) {
    let bytes = Array(text.utf8)
    for padding in [0, 1, 7, 16, 40] {
      let buffer = [UInt8](repeating: 0x22, count: padding) + bytes + [UInt8](repeating: 0x5C, count: padding)
      var cache = ShortStringCache(inputSize: buffer.count)
      for _ in 0..<2 {
        let s = buffer.withUnsafeBufferPointer { cache.string($0, from: padding, count: bytes.count) }
        #expect(s == text)
        #expect(Array(s.utf8) == bytes)
      }
    }
  }

  /// Many distinct strings through a small cache: collisions replace entries, never confuse them.
  @Test(arguments: [1, 2026])
  func collisions(_ seed: UInt64) {
    var rng = SeededGenerator(seed: seed)
    var strings: [[UInt8]] = []
    for _ in 0..<500 {
      let length = Int.random(in: 0...ShortStringCache.maxLength, using: &rng)
      strings.append((0..<length).map { _ in UInt8.random(in: 0x61...0x64, using: &rng) })
    }
    let buffer = strings.joined().map { $0 }
    var cache = ShortStringCache(inputSize: 100)
    for _ in 0..<3 {
      var start = 0
      for bytes in strings {
        let s = buffer.withUnsafeBufferPointer { cache.string($0, from: start, count: bytes.count) }
        #expect(Array(s.utf8) == bytes)
        start += bytes.count
      }
    }
  }
}
