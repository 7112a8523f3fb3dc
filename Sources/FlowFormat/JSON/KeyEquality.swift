extension String {
  /// `self == other`, answered without a call into the standard library when both are small
  /// ASCII strings (object keys and the decoders' literals nearly always are): those are equal
  /// exactly when their 16 bytes are. The decoders' key look-ups and the parser's duplicate-key
  /// check compare millions of keys that differ; `==` made each miss a call to
  /// `_stringCompareWithSmolCheck` (docs/performance.md, eleventh round).
  @inline(__always) func isSameKey(_ other: String) -> Bool {
    #if _pointerBitWidth(_64)
      let a = unsafeBitCast(self, to: (UInt64, UInt64).self)
      let b = unsafeBitCast(other, to: (UInt64, UInt64).self)
      if a.0 == b.0 && a.1 == b.1 { return true }
      // The top nibble of the second word is 0b1110 for an immortal, small, ASCII string: its
      // bytes are inline and zero past its count, so different bits are different text.
      if (a.1 & b.1) >> 60 == 0xE { return false }
    #endif
    return self == other
  }
}

extension String {
  /// One of 64 bits, chosen by the bytes of a small ASCII string (an object key, nearly always),
  /// or every bit for any other string. Two strings that are `==` have a bit in common: the
  /// parser's duplicate-key check compares a key with the members before it only when its bit
  /// is among theirs (it compared each pair of a small object's keys).
  @inline(__always) var keyMark: UInt64 {
    #if _pointerBitWidth(_64)
      let a = unsafeBitCast(self, to: (UInt64, UInt64).self)
      if a.1 >> 60 == 0xE { return 1 &<< ((a.0 ^ a.1) &* 0x9E37_79B9_7F4A_7C15 &>> 58) }
    #endif
    return ~0
  }
}
