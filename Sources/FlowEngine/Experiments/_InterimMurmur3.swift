// TEMPORARY: a private MurmurHash3 x86_32 so the engine compiles and tests run before the
// colleague's `MurmurHash3.swift` lands. Delete at the merge (see Hashing.swift).

enum _InterimMurmur3 {
  static func x86_32(_ bytes: [UInt8], seed: UInt32) -> UInt32 {
    let c1: UInt32 = 0xcc9e_2d51
    let c2: UInt32 = 0x1b87_3593
    var h = seed
    let blockCount = bytes.count / 4
    for block in 0..<blockCount {
      let i = block * 4
      var k = UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16
        | UInt32(bytes[i + 3]) << 24
      k &*= c1
      k = (k << 15) | (k >> 17)
      k &*= c2
      h ^= k
      h = (h << 13) | (h >> 19)
      h = h &* 5 &+ 0xe654_6b64
    }
    let tail = blockCount * 4
    var k: UInt32 = 0
    let rest = bytes.count & 3
    if rest >= 3 { k ^= UInt32(bytes[tail + 2]) << 16 }
    if rest >= 2 { k ^= UInt32(bytes[tail + 1]) << 8 }
    if rest >= 1 {
      k ^= UInt32(bytes[tail])
      k &*= c1
      k = (k << 15) | (k >> 17)
      k &*= c2
      h ^= k
    }
    h ^= UInt32(truncatingIfNeeded: bytes.count)
    h ^= h >> 16
    h &*= 0x85eb_ca6b
    h ^= h >> 13
    h &*= 0xc2b2_ae35
    h ^= h >> 16
    return h
  }
}
