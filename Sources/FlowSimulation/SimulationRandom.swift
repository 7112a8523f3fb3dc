import Foundation

/// The random numbers of one simulated user: SplitMix64 seeded from the run's seed and the
/// user's index, so a user's choices depend on nothing else (not on threads, shards or the
/// other users) and a run is the same wherever and however it is split.
public struct SimulationRandom: Sendable {
  private var state: UInt64

  public init(seed: UInt64, user: Int) {
    state = Self.mix(seed ^ Self.mix(UInt64(truncatingIfNeeded: user) &+ 0x9E37_79B9_7F4A_7C15))
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    return Self.mix(state)
  }

  /// Uniform in [0, 1).
  public mutating func unit() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  /// True with probability `p`.
  public mutating func chance(_ p: Double) -> Bool {
    p > 0 && unit() < p
  }

  /// Uniform in 0..<count (count > 0).
  public mutating func index(_ count: Int) -> Int {
    Int(next() % UInt64(count))
  }

  /// Uniform over the whole numbers of `range`.
  public mutating func integer(in range: ClosedRange<Int64>) -> Int64 {
    let span = UInt64(bitPattern: range.upperBound &- range.lowerBound) &+ 1
    return span == 0 ? Int64(bitPattern: next()) : range.lowerBound &+ Int64(bitPattern: next() % span)
  }

  /// A standard normal deviate (Box–Muller).
  public mutating func normal() -> Double {
    let u = max(unit(), 0x1.0p-53)
    return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * unit())
  }

  /// An index drawn with the given non-negative weights (their sum > 0).
  public mutating func weighted(_ weights: [Double]) -> Int {
    let total = weights.reduce(0, +)
    var point = unit() * total
    for (index, weight) in weights.enumerated() {
      point -= weight
      if point < 0 { return index }
    }
    return weights.count - 1
  }

  /// SplitMix64's finaliser.
  static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
