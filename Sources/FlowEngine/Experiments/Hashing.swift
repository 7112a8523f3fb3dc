// The engine's only door to MurmurHash3.

enum EngineHash {
  /// MurmurHash3 x86 32-bit over the UTF-8 of `text`, read as contiguous bytes (a tight loop;
  /// the `UTF8View` is walked an index at a time). Once per session start and per bucketing.
  static func murmur32(_ text: String, seed: UInt32 = 0) -> UInt32 {
    var text = text
    return text.withUTF8 { MurmurHash3.x86_32($0, seed: seed) }
  }
}
