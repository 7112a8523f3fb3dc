// The engine's only door to MurmurHash3.

enum EngineHash {
  /// The UTF-8 of `parts` joined by `separator`: a hash key built as bytes, not as a `String`
  /// (interpolating or appending strings cost a few thousand instructions, and the simulator
  /// derives a session id and buckets a user per simulated user).
  static func key(_ parts: [String], separator: UInt8) -> [UInt8] {
    var key: [UInt8] = []
    key.reserveCapacity(parts.reduce(parts.count) { $0 + $1.utf8.count })
    for index in parts.indices {
      if index > 0 { key.append(separator) }
      // Appended as one buffer (appending the UTF-8 view went byte by byte).
      var part = parts[index]
      part.withUTF8 { key.append(contentsOf: $0) }
    }
    return key
  }

  /// MurmurHash3 x86 32-bit over `key`, read as contiguous bytes.
  static func murmur32(_ key: [UInt8], seed: UInt32 = 0) -> UInt32 {
    key.withUnsafeBufferPointer { MurmurHash3.x86_32($0, seed: seed) }
  }
}
