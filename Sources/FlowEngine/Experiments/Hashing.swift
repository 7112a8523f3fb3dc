// The engine's only door to MurmurHash3. The colleague's `MurmurHash3.x86_32` lands in
// `MurmurHash3.swift` next to this file; until then this calls `_InterimMurmur3` (delete that
// file at the merge and call `MurmurHash3.x86_32` here).

enum EngineHash {
  /// MurmurHash3 x86 32-bit over the UTF-8 of `text`.
  static func murmur32(_ text: String, seed: UInt32 = 0) -> UInt32 {
    _InterimMurmur3.x86_32(Array(text.utf8), seed: seed)
  }
}
