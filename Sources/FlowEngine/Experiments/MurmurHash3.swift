/// MurmurHash3, the hash experiment assignment uses (flow-format §8, the AppDNA scheme).
public enum MurmurHash3 {
  /// The x86 32-bit variant over `bytes` (little-endian blocks), as in the reference code.
  // swift-format-ignore: AlwaysUseLowerCamelCase
  // The algorithm's own name (MurmurHash3_x86_32).
  public static func x86_32(_ bytes: some Sequence<UInt8>, seed: UInt32 = 0) -> UInt32 {
    let c1: UInt32 = 0xcc9e_2d51
    let c2: UInt32 = 0x1b87_3593
    var h = seed
    var length: UInt32 = 0
    var block: UInt32 = 0
    var blockCount = 0

    func mix(_ k: UInt32) -> UInt32 {
      var k = k &* c1
      k = (k << 15) | (k >> 17)
      return k &* c2
    }

    // Stream the bytes so any sequence works without copying it into an array.
    for byte in bytes {
      block |= UInt32(byte) << (8 * UInt32(blockCount))
      blockCount += 1
      length &+= 1
      if blockCount == 4 {
        h ^= mix(block)
        h = (h << 13) | (h >> 19)
        h = h &* 5 &+ 0xe654_6b64
        block = 0
        blockCount = 0
      }
    }
    if blockCount > 0 { h ^= mix(block) }  // the 1-3 byte tail

    h ^= length
    h ^= h >> 16
    h = h &* 0x85eb_ca6b
    h ^= h >> 13
    h = h &* 0xc2b2_ae35
    h ^= h >> 16
    return h
  }
}
