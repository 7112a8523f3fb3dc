/// SplitMix64 (Steele, Lea and Flood): a tiny, fast, seeded generator.
///
/// Everything the generator draws goes through the helpers below rather than the standard
/// library's `random(in:using:)`, whose algorithm is not promised to stay the same across
/// Swift releases: the same seed must give byte-identical flows everywhere.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  public var state: UInt64

  public init(seed: UInt64) {
    state = seed
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (`bound` > 0), by multiply-shift (Lemire, without rejection:
  /// the bias is below 2^-40 for the small bounds used here).
  public mutating func below(_ bound: Int) -> Int {
    precondition(bound > 0)
    let product = next().multipliedFullWidth(by: UInt64(bound))
    return Int(product.high)
  }

  /// A number in `range`.
  public mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + below(range.upperBound - range.lowerBound + 1)
  }

  /// True with probability `p` (0...1), decided on a grid of 2^-53.
  public mutating func chance(_ p: Double) -> Bool {
    Double(next() >> 11) * 0x1p-53 < p
  }

  public mutating func pick<T>(_ items: [T]) -> T {
    items[below(items.count)]
  }
}
