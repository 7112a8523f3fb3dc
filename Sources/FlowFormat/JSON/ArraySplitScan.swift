import FlowSupport

/// Where a parser is in a text: a byte offset and the line state the parser keeps there (a
/// column is `offset - lineStart - lineContinuations + 1`, see `JSONParser`).
struct ParsePosition: Sendable, Equatable {
  var offset: Int
  var line: Int
  var lineStart: Int
  /// UTF-8 continuation bytes between `lineStart` and `offset`.
  var lineContinuations: Int
}

/// Where to cut an array's elements in two so that a second parser can take the second half.
struct ArraySplit: Sendable, Equatable {
  /// The first byte of the element the second half starts with, and the line state there.
  var start: ParsePosition
  /// That element's index in the array.
  var index: Int
}

/// Finds an element boundary of an array by a scan of strings and nesting only (eight bytes at
/// a time): no value is built, nothing is reported. The scan is exact on valid JSON; on anything
/// else the parsers of the two halves report it (`ScreenSplit` then loads the file again on one
/// thread).
enum ArraySplitScan {
  /// The split of the array whose first element starts at `first` (the parser's position
  /// there): at the first element that starts at or after `target`, or, when the array closes
  /// before `target`, at the element boundary nearest its middle. Nil when the array has a
  /// single element or the text ends first.
  static func split(_ buffer: UnsafeBufferPointer<UInt8>, first: ParsePosition, target: Int) -> ArraySplit? {
    guard let (close, commas) = elementBoundaries(buffer, from: first.offset, until: target), !commas.isEmpty
    else { return nil }
    var chosen = commas.count - 1
    if let close {
      // The comma nearest the middle of the array's bytes.
      let middle = first.offset + (close - first.offset) / 2
      var low = 0
      var high = commas.count
      while low < high {
        let mid = (low + high) / 2
        if commas[mid] < middle { low = mid + 1 } else { high = mid }
      }
      if low == commas.count || (low > 0 && middle - commas[low - 1] < commas[low] - middle) { low -= 1 }
      chosen = low
    }
    var start = commas[chosen] + 1
    while start < buffer.count, isWhitespace(buffer[start]) { start += 1 }
    guard start < buffer.count, close.map({ start < $0 }) ?? true else { return nil }
    return ArraySplit(start: position(buffer, from: first, to: start), index: chosen + 1)
  }

  @inline(__always) private static func isWhitespace(_ b: UInt8) -> Bool {
    b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
  }

  /// The offsets of the array's own commas up to the first one at or after `target`, and the
  /// offset of the `]` closing the array when it comes first; nil when the text ends first or a
  /// `}` closes the array.
  static func elementBoundaries(
    _ buffer: UnsafeBufferPointer<UInt8>, from offset: Int, until target: Int
  ) -> (Int?, [Int])? {
    let end = buffer.count
    var i = offset
    var depth = 0
    var commas: [Int] = []
    while i < end {
      skip(&i, end: end) { structuralBytes(at: $0, in: buffer) }
      guard i < end else { return nil }
      switch buffer[i] {
      case 0x22:  // a string: to its closing quote, stepping over escapes
        i += 1
        while true {
          skip(&i, end: end) { quoteOrBackslash(at: $0, in: buffer) }
          guard i < end else { return nil }
          if buffer[i] == 0x22 { break }
          i += buffer[i] == 0x5C ? 2 : 1
        }
      case 0x5B, 0x7B:
        depth += 1
      case 0x5D, 0x7D:
        if depth == 0 { return buffer[i] == 0x5D ? (i, commas) : nil }
        depth -= 1
      case 0x2C:
        if depth == 0 {
          commas.append(i)
          if i >= target { return (nil, commas) }
        }
      default:
        break
      }
      i += 1
    }
    return nil
  }

  /// Moves `i` eight bytes at a time to the first byte `found` marks (a mask exact up to its
  /// lowest set bit), or to the last eight bytes before `end`, which the caller reads one by one.
  @inline(__always) private static func skip(_ i: inout Int, end: Int, _ found: (Int) -> UInt64) {
    while i &+ 8 <= end {
      let mask = found(i)
      if mask != 0 {
        i &+= mask.trailingZeroBitCount &>> 3
        return
      }
      i &+= 8
    }
  }

  /// The parser's line state at `offset`, counted on from `first`: lines end at LF, CR and
  /// CRLF (as `skipWhitespace` counts them); columns count Unicode scalars.
  static func position(_ buffer: UnsafeBufferPointer<UInt8>, from first: ParsePosition, to offset: Int) -> ParsePosition
  {
    var (lineFeeds, returns) = (0, 0)
    var i = first.offset
    while i &+ 8 <= offset {
      let w = ByteWords.word(at: i, in: buffer)
      lineFeeds &+= ByteWords.bytes(w, equalTo: 0x0A).nonzeroBitCount
      returns &+= ByteWords.bytes(w, equalTo: 0x0D).nonzeroBitCount
      i &+= 8
    }
    while i < offset {
      if buffer[i] == 0x0A { lineFeeds += 1 } else if buffer[i] == 0x0D { returns += 1 }
      i += 1
    }
    var result = first
    result.offset = offset
    if returns > 0 {
      // Rare: counted as the parser counts, byte by byte.
      for i in first.offset..<offset {
        let b = buffer[i]
        if b == 0x0D || (b == 0x0A && !(i > first.offset && buffer[i - 1] == 0x0D)) { result.line += 1 }
        if b == 0x0D || b == 0x0A {
          result.lineStart = i + 1
          result.lineContinuations = 0
        } else if b & 0xC0 == 0x80 {
          result.lineContinuations += 1
        }
      }
      return result
    }
    var from = first.offset
    if lineFeeds > 0 {
      var last = offset - 1
      while buffer[last] != 0x0A { last -= 1 }
      result.line += lineFeeds
      result.lineStart = last + 1
      result.lineContinuations = 0
      from = last + 1
    }
    i = from
    while i &+ 8 <= offset {
      let w = ByteWords.word(at: i, in: buffer)
      result.lineContinuations &+= ByteWords.continuationBytes(w).nonzeroBitCount
      i &+= 8
    }
    while i < offset {
      if buffer[i] & 0xC0 == 0x80 { result.lineContinuations += 1 }
      i += 1
    }
    return result
  }

  /// A nonzero bit in the first byte equal to `a` or `b`, exact up to its lowest set bit.
  @inline(__always) private static func firstOf(_ w: UInt64, _ a: UInt8, _ b: UInt8) -> UInt64 {
    ByteWords.firstMark(w, equalTo: a) | ByteWords.firstMark(w, equalTo: b)
  }

  /// The first `"`, `,`, `[`, `]`, `{` or `}` of the eight bytes at `offset` (`[` and `{`, `]`
  /// and `}` differ only in bit 5).
  @inline(__always) private static func structuralBytes(at offset: Int, in buffer: UnsafeBufferPointer<UInt8>) -> UInt64
  {
    let w = ByteWords.word(at: offset, in: buffer)
    return firstOf(w, 0x22, 0x2C) | firstOf(w | 0x2020_2020_2020_2020, 0x7B, 0x7D)
  }

  @inline(__always) private static func quoteOrBackslash(
    at offset: Int, in buffer: UnsafeBufferPointer<UInt8>
  ) -> UInt64 {
    firstOf(ByteWords.word(at: offset, in: buffer), 0x22, 0x5C)
  }
}
