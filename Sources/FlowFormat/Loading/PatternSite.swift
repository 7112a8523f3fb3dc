import FlowPattern

/// A regular expression of a document (an input `pattern`, the `value` of a `matches` condition)
/// and where its JSON string literal starts.
public struct PatternSite: Hashable, Sendable {
  public var pattern: Pattern
  /// The opening quote of the string literal.
  public var location: SourceLocation

  public init(pattern: Pattern, location: SourceLocation) {
    self.pattern = pattern
    self.location = location
  }

  /// The file position of the pattern's Unicode scalar at `offset`, inside the literal: escapes
  /// (`\\`, `\"`, `\u00e9`, surrogate pairs) take the columns they take in the file. `source` is
  /// the file's bytes; a position the literal does not reach is clamped to its end.
  public func location(ofScalar offset: Int, in source: [UInt8]) -> SourceLocation {
    // A held file that changed before it was read back (`LoadResult.sourceBytes`) is empty.
    guard location.offset < source.count else { return location }
    var byte = location.offset + 1
    var column = location.column + 1
    var scalars = 0
    while scalars < offset, byte < source.count, source[byte] != UInt8(ascii: "\"") {
      let width: Int
      if source[byte] == UInt8(ascii: "\\") {
        // `\uD83D\uDE00`, a surrogate pair, is one scalar written in 12 columns.
        if let high = Self.unicodeEscape(source, at: byte) {
          let low = Self.unicodeEscape(source, at: byte + 6)
          width = (0xD800..<0xDC00).contains(high) && low.map { (0xDC00..<0xE000).contains($0) } == true ? 12 : 6
        } else {
          width = 2
        }
        column += width
      } else {
        // One scalar: its lead byte says how many bytes it has.
        let lead = source[byte]
        width = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        column += 1
      }
      byte += width
      scalars += 1
    }
    return SourceLocation(line: location.line, column: column, offset: min(byte, source.count))
  }

  /// The code unit of the `\uXXXX` escape at `at`, or nil when there is none.
  private static func unicodeEscape(_ source: [UInt8], at: Int) -> UInt32? {
    guard at + 6 <= source.count, source[at] == UInt8(ascii: "\\"), source[at + 1] == UInt8(ascii: "u") else {
      return nil
    }
    var value: UInt32 = 0
    for byte in source[(at + 2)..<(at + 6)] {
      guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
      value = value << 4 | UInt32(digit)
    }
    return value
  }
}
