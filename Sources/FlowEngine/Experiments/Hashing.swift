// The engine's only door to MurmurHash3.

enum EngineHash {
  /// Calls `body` with the UTF-8 of `parts` joined by `separator`: a hash key built as bytes in
  /// a temporary buffer, not as a `String` nor an array (interpolating strings cost a few
  /// thousand instructions, an array a heap block, and the simulator derives a session id and
  /// buckets a user per simulated user).
  static func withKey<Result>(
    _ parts: [String], separator: UInt8, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    let count = parts.reduce(max(0, parts.count - 1)) { $0 + $1.utf8.count }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, count)) { buffer in
      var end = 0
      for index in parts.indices {
        if index > 0 {
          buffer[end] = separator
          end += 1
        }
        var part = parts[index]
        part.withUTF8 { bytes in
          _ = UnsafeMutableBufferPointer(rebasing: buffer[end...]).initialize(fromContentsOf: bytes)
          end += bytes.count
        }
      }
      return body(UnsafeBufferPointer(rebasing: buffer[..<end]))
    }
  }

  /// MurmurHash3 x86 32-bit over `key`.
  static func murmur32(_ key: UnsafeBufferPointer<UInt8>, seed: UInt32 = 0) -> UInt32 {
    MurmurHash3.x86_32(key, seed: seed)
  }
}
