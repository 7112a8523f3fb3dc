/// A set of Unicode scalars, exact for ASCII and approximate above it: what one character of a
/// pattern (a literal, a class, `.`, `\d`) can match, as far as `PatternSyntax`'s analyses need.
///
/// Scalars from U+0080 on are kept one by one when a pattern names them, or as "all of them"
/// (`allOthers`) for `.`, `\p{…}`, negated classes and large ranges: a superset, so two sets that
/// may share a character always intersect.
public struct ScalarSet: Hashable, Sendable {
  /// Bits of U+0000…U+003F and U+0040…U+007F.
  private var low: UInt64 = 0
  private var high: UInt64 = 0
  private var others: Set<UInt32> = []
  private var allOthers = false

  public init() {}

  public static let all: ScalarSet = {
    var set = ScalarSet()
    set.low = .max
    set.high = .max
    set.allOthers = true
    return set
  }()

  public var isEmpty: Bool { low == 0 && high == 0 && others.isEmpty && !allOthers }

  /// The member of a set of one scalar, else nil.
  public var singleScalar: UInt32? {
    guard !allOthers else { return nil }
    let bits = low.nonzeroBitCount + high.nonzeroBitCount
    if bits == 0, others.count == 1 { return others.first }
    guard bits == 1, others.isEmpty else { return nil }
    return low != 0 ? UInt32(low.trailingZeroBitCount) : UInt32(64 + high.trailingZeroBitCount)
  }

  public func contains(_ scalar: UInt32) -> Bool {
    switch scalar {
    case 0..<64: low & (1 << UInt64(scalar)) != 0
    case 64..<128: high & (1 << UInt64(scalar - 64)) != 0
    default: allOthers || others.contains(scalar)
    }
  }

  public mutating func insert(_ scalar: UInt32) {
    switch scalar {
    case 0..<64: low |= 1 << UInt64(scalar)
    case 64..<128: high |= 1 << UInt64(scalar - 64)
    default: if !allOthers { others.insert(scalar) }
    }
  }

  /// Inserts `range`; above ASCII, a range of more than 256 scalars counts as all of them.
  public mutating func insert(_ range: ClosedRange<UInt32>) {
    if range.lowerBound < 128 {
      for scalar in range.lowerBound...min(range.upperBound, 127) { insert(scalar) }
    }
    guard range.upperBound >= 128 else { return }
    let above = max(range.lowerBound, 128)...range.upperBound
    if above.count > 256 {
      allOthers = true
      others = []
    } else {
      for scalar in above { insert(scalar) }
    }
  }

  public mutating func formUnion(_ other: ScalarSet) {
    low |= other.low
    high |= other.high
    allOthers = allOthers || other.allOthers
    others = allOthers ? [] : others.union(other.others)
  }

  public func intersects(_ other: ScalarSet) -> Bool {
    if low & other.low != 0 || high & other.high != 0 { return true }
    if allOthers { return other.allOthers || !other.others.isEmpty }
    if other.allOthers { return !others.isEmpty }
    return !others.isDisjoint(with: other.others)
  }

  /// The complement (`[^…]`): exact for ASCII; every scalar above it, whatever the set held.
  public var inverted: ScalarSet {
    var set = ScalarSet()
    set.low = ~low
    set.high = ~high
    set.allOthers = true
    return set
  }

  /// Adds the other case of every ASCII letter (a caseless pattern).
  public mutating func addCaseVariants() {
    let upper: UInt64 = 0x07FF_FFFE  // A…Z at bits 1…26 of `high`
    let lower: UInt64 = upper << 32  // a…z at bits 33…58
    high |= (high & upper) << 32 | (high & lower) >> 32
  }

  /// A member for a text a person could type: lowercase letters first, then uppercase, digits,
  /// punctuation, space, then anything; `variety` picks a later one (wrapping around). Nil for
  /// the empty set.
  public func sample(variety: Int = 0) -> Unicode.Scalar? {
    let readable: [ClosedRange<UInt32>] = [
      0x61...0x7A, 0x41...0x5A, 0x30...0x39, 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E, 0x20...0x20,
    ]
    let members = readable.joined().filter(contains)
    if !members.isEmpty { return Unicode.Scalar(members[variety % members.count]) }
    if let scalar = others.min() { return Unicode.Scalar(scalar) }
    if allOthers { return "é" }
    return (0...127).first(where: contains).flatMap(Unicode.Scalar.init)
  }

  // MARK: Named sets

  public static let digits = ScalarSet(0x30...0x39)
  public static let wordCharacters: ScalarSet = {
    var set = ScalarSet(0x30...0x39)
    set.insert(0x41...0x5A)
    set.insert(0x61...0x7A)
    set.insert(0x5F)
    return set
  }()
  /// `\s`: ASCII white space (PCRE2 without UCP).
  public static let whiteSpace = ScalarSet([0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20])
  /// `\h`: horizontal white space.
  public static let horizontalSpace: ScalarSet = {
    var set = ScalarSet([0x09, 0x20, 0xA0, 0x1680, 0x180E, 0x202F, 0x205F, 0x3000])
    set.insert(0x2000...0x200A)
    return set
  }()
  /// `\v` and `\R`: vertical white space and line breaks.
  public static let verticalSpace = ScalarSet([0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029])
  /// `.`: anything but CR and LF.
  public static let dot: ScalarSet = {
    var set = ScalarSet.all
    set.low &= ~(1 << 0x0A | 1 << 0x0D)
    return set
  }()

  init(_ range: ClosedRange<UInt32>) {
    insert(range)
  }

  init(_ scalars: [UInt32]) {
    for scalar in scalars { insert(scalar) }
  }
}
