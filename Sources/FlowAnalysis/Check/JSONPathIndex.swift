import FlowFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Maps the position of a JSON value back to its JSON path, from the file's bytes alone.
///
/// The source is one the loader parsed without a syntax error (strict JSON, a leading byte
/// order mark allowed). No tree is kept or built: the paths of many positions are found in one
/// forward scan that keeps only the open containers (`paths(at:)`), so `check` can drop the
/// parsed JSON after loading (it was the largest part of the memory lint held).
public struct JSONPathIndex: Sendable {
  private let source: [UInt8]

  public init(source: [UInt8]) {
    self.source = source
  }

  /// The path of the value starting at `location`, or nil when no value starts there.
  public func path(at location: SourceLocation) -> String? { paths(at: [location.offset])[0] }

  /// The path of the value starting at each offset (nil where none does), in one scan.
  public func paths(at offsets: [Int]) -> [String?] {
    let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
    var found = [String?](repeating: nil, count: offsets.count)
    source.withUnsafeBufferPointer { bytes in
      var scan = Scan(bytes)
      var next = 0
      scan.run(stops: order.lazy.map { offsets[$0] }) { start, open in
        let path = Self.render(open, bytes)
        while offsets[order[next]] < start { next += 1 }
        while next < order.count, offsets[order[next]] == start {
          found[order[next]] = path
          next += 1
        }
      }
    }
    return found
  }

  /// Where the value at `keys` (`["content", "min"]`) inside the object at `location` is, or
  /// nil: a diagnostic about one key points at it, not at its enclosing object. `location` is
  /// an object's, as the loader gave it (its line and column are counted on from there); the
  /// first member of each key is followed, as in the parsed object.
  public func location(of keys: [String], inObjectAt location: SourceLocation) -> SourceLocation? {
    source.withUnsafeBufferPointer { bytes in
      var scan = Scan(bytes)
      var start = location.offset
      for key in keys {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{"),
          let value = scan.member(key, ofObjectAt: start)
        else { return nil }
        start = value
      }
      return Self.location(of: start, from: location, bytes)
    }
  }

  /// The path of the value the open containers lead to: each object's current key, each
  /// array's current index. Written as bytes (a diagnostic's path is made once per report line
  /// of a big report).
  private static func render(_ open: [Scan.Container], _ bytes: UnsafeBufferPointer<UInt8>) -> String {
    var path: [UInt8] = []
    path.reserveCapacity(64)
    for container in open {
      if container.isObject {
        if !path.isEmpty { path.append(UInt8(ascii: ".")) }
        if let plain = Scan.plainKey(container.key, bytes) {
          path += plain
        } else {
          path += Scan.key(container.key, bytes).utf8
        }
      } else {
        path.append(UInt8(ascii: "["))
        var digits: [UInt8] = []
        var index = container.index
        repeat {
          digits.append(UInt8(ascii: "0") + UInt8(index % 10))
          index /= 10
        } while index > 0
        path += digits.reversed()
        path.append(UInt8(ascii: "]"))
      }
    }
    return String(decoding: path, as: UTF8.self)
  }

  /// The location of `offset`, counted on from `known` (before it): lines end at LF, CR or
  /// CRLF; columns count Unicode scalars, as the parser counts them.
  private static func location(
    of offset: Int, from known: SourceLocation, _ bytes: UnsafeBufferPointer<UInt8>
  ) -> SourceLocation {
    var line = known.line
    var column = known.column
    var i = known.offset
    while i < min(offset, bytes.count) {
      let byte = bytes[i]
      if byte == 0x0A || byte == 0x0D {
        if byte == 0x0D, i + 1 < offset, bytes[i + 1] == 0x0A { i += 1 }
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
      i += 1
    }
    return SourceLocation(line: line, column: column, offset: offset)
  }

  /// A forward walk over valid JSON.
  private struct Scan {
    /// An open array or object: where its current member's key is, or its current index.
    struct Container {
      var isObject: Bool
      var key: Range<Int> = 0..<0
      var index = 0
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
      self.bytes = bytes
    }

    /// Calls `visit` with each of `stops` (ascending offsets) where a value starts, in order, and
    /// the containers open around that value; stops where no value starts are passed over.
    mutating func run(stops: some Collection<Int>, _ visit: (Int, [Container]) -> Void) {
      if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
      var open: [Container] = []
      var stop = stops.makeIterator()
      // The next offset to stop at (Int.max past the last).
      var target = stop.next() ?? Int.max
      skipSpace()
      while true {
        // At the start of a value.
        while target < i { target = stop.next() ?? Int.max }
        guard i < bytes.count, target != Int.max else { return }
        if target == i {
          visit(i, open)
          while target == i { target = stop.next() ?? Int.max }
        }
        switch bytes[i] {
        case UInt8(ascii: "{"):
          i += 1
          skipSpace()
          if peek != UInt8(ascii: "}") {
            open.append(Container(isObject: true, key: readKey()))
            continue
          }
          i += 1
        case UInt8(ascii: "["):
          i += 1
          skipSpace()
          if peek != UInt8(ascii: "]") {
            open.append(Container(isObject: false))
            continue
          }
          i += 1
        case UInt8(ascii: "\""): skipString()
        default: skipScalar()
        }
        // After a value: the next member or element, or the end of containers.
        while true {
          skipSpace()
          guard !open.isEmpty, i < bytes.count else { return }
          let byte = bytes[i]
          i += 1
          if byte == UInt8(ascii: ",") {
            skipSpace()
            if open[open.count - 1].isObject {
              open[open.count - 1].key = readKey()
            } else {
              open[open.count - 1].index += 1
            }
            break
          }
          open.removeLast()  // `}` or `]`
        }
      }
    }

    /// The offset of the value of the first member named `key` of the object at `start`.
    mutating func member(_ key: String, ofObjectAt start: Int) -> Int? {
      i = start + 1
      skipSpace()
      guard peek == UInt8(ascii: "\"") else { return nil }
      while true {
        let range = readKey()
        if Self.key(range, bytes) == key { return i < bytes.count ? i : nil }
        skipValue()
        skipSpace()
        guard peek == UInt8(ascii: ",") else { return nil }
        i += 1
        skipSpace()
        guard peek == UInt8(ascii: "\"") else { return nil }
      }
    }

    /// Reads a key and its colon at `i`; returns the key's string literal (quotes included) and
    /// leaves `i` at the member's value.
    mutating func readKey() -> Range<Int> {
      let start = i
      skipString()
      let range = start..<i
      skipSpace()
      i += 1  // `:`
      skipSpace()
      return range
    }

    /// The text of a key's string literal, escapes decoded as the parser decodes them.
    static func key(_ literal: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
      if let plain = plainKey(literal, bytes) { return String(decoding: plain, as: UTF8.self) }
      return JSONParser.parse(Array(bytes[literal])).0?.stringValue ?? ""
    }

    /// The bytes between a key literal's quotes when they are its text (no escape; none for a
    /// literal cut short), else nil (`key` decodes it).
    static func plainKey(
      _ literal: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>
    ) -> Slice<UnsafeBufferPointer<UInt8>>? {
      guard literal.count >= 2, literal.upperBound <= bytes.count else { return bytes[0..<0] }
      let inner = bytes[(literal.lowerBound + 1)..<(literal.upperBound - 1)]
      return inner.contains(UInt8(ascii: "\\")) ? nil : inner
    }

    /// The byte at `i`, or 0 past the end (a source cut short ends every loop).
    var peek: UInt8 { i < bytes.count ? bytes[i] : 0 }

    mutating func skipSpace() {
      while i < bytes.count {
        switch bytes[i] {
        case 0x20, 0x09, 0x0A, 0x0D: i += 1
        default: return
        }
      }
    }

    /// Past the string literal starting at `i`: to the next quote not escaped by an odd run
    /// of backslashes (found with `memchr`: most of a file's bytes are in strings).
    mutating func skipString() {
      i += 1
      while i < bytes.count {
        guard let base = bytes.baseAddress, let found = memchr(base + i, 0x22, bytes.count - i) else {
          i = bytes.count
          return
        }
        let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        var backslashes = 0
        while quote - backslashes - 1 >= i, bytes[quote - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
        i = quote + 1
        if backslashes % 2 == 0 { return }
      }
    }

    /// Past a number, `true`, `false` or `null`.
    mutating func skipScalar() {
      while i < bytes.count {
        switch bytes[i] {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return
        default: i += 1
        }
      }
    }

    /// Past the value starting at `i`, whatever it holds.
    mutating func skipValue() {
      var depth = 0
      repeat {
        switch peek {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
          i += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          i += 1
        case UInt8(ascii: "\""): skipString()
        case UInt8(ascii: ","), UInt8(ascii: ":"), 0x20, 0x09, 0x0A, 0x0D, 0: i += 1
        default: skipScalar()
        }
      } while depth > 0 && i < bytes.count
    }
  }
}
