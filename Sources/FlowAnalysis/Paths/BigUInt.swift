/// A small arbitrary-precision unsigned integer (little-endian 32-bit limbs): path counts of
/// flows with many independent branches overflow 64 bits quickly.
public struct BigUInt: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByIntegerLiteral {
  /// Little-endian limbs without trailing zeros (zero is `[]`).
  public private(set) var limbs: [UInt32]

  public init(_ value: UInt64) {
    limbs = [UInt32(truncatingIfNeeded: value), UInt32(truncatingIfNeeded: value >> 32)]
    normalize()
  }

  public init(integerLiteral value: UInt64) { self.init(value) }

  public static let zero = BigUInt(0)
  public static let one = BigUInt(1)

  public var isZero: Bool { limbs.isEmpty }

  private mutating func normalize() {
    while limbs.last == 0 { limbs.removeLast() }
  }

  public static func + (a: BigUInt, b: BigUInt) -> BigUInt {
    var result = a
    result += b
    return result
  }

  public static func += (a: inout BigUInt, b: BigUInt) {
    if b.limbs.count > a.limbs.count { a.limbs += repeatElement(0, count: b.limbs.count - a.limbs.count) }
    var carry: UInt64 = 0
    for i in a.limbs.indices {
      let sum = UInt64(a.limbs[i]) + (i < b.limbs.count ? UInt64(b.limbs[i]) : 0) + carry
      a.limbs[i] = UInt32(truncatingIfNeeded: sum)
      carry = sum >> 32
      if carry == 0 && i >= b.limbs.count { break }
    }
    if carry != 0 { a.limbs.append(UInt32(carry)) }
  }

  /// The value times a small factor.
  public static func * (a: BigUInt, factor: UInt32) -> BigUInt {
    var result = BigUInt(0)
    var carry: UInt64 = 0
    result.limbs = a.limbs.map { limb in
      let product = UInt64(limb) * UInt64(factor) + carry
      carry = product >> 32
      return UInt32(truncatingIfNeeded: product)
    }
    if carry != 0 { result.limbs.append(UInt32(carry)) }
    result.normalize()
    return result
  }

  /// 2^exponent.
  public static func power(of2 exponent: Int) -> BigUInt {
    var result = BigUInt(0)
    result.limbs = Array(repeating: 0, count: exponent / 32) + [UInt32(1) << UInt32(exponent % 32)]
    return result
  }

  /// The value when it fits in 64 bits.
  public var uint64: UInt64? {
    guard limbs.count <= 2 else { return nil }
    return limbs.enumerated().reduce(0) { $0 | UInt64($1.element) << (32 * UInt64($1.offset)) }
  }

  public static func < (a: BigUInt, b: BigUInt) -> Bool {
    if a.limbs.count != b.limbs.count { return a.limbs.count < b.limbs.count }
    for i in a.limbs.indices.reversed() where a.limbs[i] != b.limbs[i] {
      return a.limbs[i] < b.limbs[i]
    }
    return false
  }

  /// Decimal digits.
  public var description: String {
    if limbs.isEmpty { return "0" }
    var chunks: [UInt32] = []  // base 1e9, little-endian
    var current = limbs
    while !current.isEmpty {
      var remainder: UInt64 = 0
      for i in current.indices.reversed() {
        let value = (remainder << 32) | UInt64(current[i])
        current[i] = UInt32(value / 1_000_000_000)
        remainder = value % 1_000_000_000
      }
      chunks.append(UInt32(remainder))
      while current.last == 0 { current.removeLast() }
    }
    var text = String(chunks.last!)
    for chunk in chunks.dropLast().reversed() {
      let digits = String(chunk)
      text += String(repeating: "0", count: 9 - digits.count) + digits
    }
    return text
  }
}
