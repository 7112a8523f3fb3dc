// The engine's only door to MurmurHash3.

enum EngineHash {
  /// MurmurHash3 x86 32-bit over the UTF-8 of `text`.
  static func murmur32(_ text: String, seed: UInt32 = 0) -> UInt32 {
    MurmurHash3.x86_32(text.utf8, seed: seed)
  }
}
