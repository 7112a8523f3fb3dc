/// A span of an expression's source text, in UTF-8 bytes from the start of that text.
public struct SourceRange: Hashable, Sendable {
  /// UTF-8 offset of the first byte.
  public var offset: Int
  /// Length in UTF-8 bytes.
  public var length: Int

  /// Creates a range from an offset and a length.
  public init(offset: Int, length: Int) {
    self.offset = offset
    self.length = length
  }

  /// The offset just past the last byte.
  public var end: Int { offset + length }

  /// The smallest range covering both `self` and `other`.
  public func union(_ other: SourceRange) -> SourceRange {
    let start = min(offset, other.offset)
    return SourceRange(offset: start, length: max(end, other.end) - start)
  }

  /// The same range moved `delta` bytes to the right.
  public func shifted(by delta: Int) -> SourceRange {
    SourceRange(offset: offset + delta, length: length)
  }

  /// The text this range covers in `source` (empty if out of bounds).
  public func text(in source: String) -> String {
    let bytes = Array(source.utf8)
    guard offset >= 0, end <= bytes.count, length >= 0 else { return "" }
    return String(decoding: bytes[offset..<end], as: UTF8.self)
  }
}
