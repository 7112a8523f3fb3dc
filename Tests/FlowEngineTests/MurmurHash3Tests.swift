import FlowEngine
import Testing

@Suite struct MurmurHash3Tests {
  // Vectors checked with an independent Python implementation of the reference algorithm;
  // the first five are also the widely published ones.
  @Test(arguments: [
    ("", 0 as UInt32, 0x0000_0000 as UInt32),
    ("", 1, 0x514E_28B7),
    ("", 0xFFFF_FFFF, 0x81F1_6F39),
    ("hello", 0, 0x248B_FA47),
    ("The quick brown fox jumps over the lazy dog", 0, 0x2E4F_F723),
    ("a", 0, 0x3C25_69B2),
    ("ab", 0, 0x9BBF_D75F),
    ("abc", 0, 0xB3DD_93FA),
    ("abcd", 0, 0x43ED_676A),
    ("hello, world", 0, 0x149B_BB7F),
    ("onb_length.2026q1.user_42", 0, 0xBC56_A59F),
    ("é", 0, 0x1011_0787),
  ])
  func vectors(text: String, seed: UInt32, expected: UInt32) {
    #expect(MurmurHash3.x86_32(text.utf8, seed: seed) == expected)
    #expect(MurmurHash3.x86_32(Array(text.utf8), seed: seed) == expected)
  }

  @Test func zeroBytes() {
    #expect(MurmurHash3.x86_32([0, 0, 0, 0] as [UInt8]) == 0x2362_F9DE)
  }
}
