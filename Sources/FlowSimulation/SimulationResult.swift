/// A simulation's tally with what a report needs to read it: the run's parameters, the screens
/// in document order and the variants in declaration order. A shard's partial is this value
/// with `shard` set (docs/simulate.md, "Shards"); merging partials adds their tallies.
public struct SimulationResult: Codable, Sendable, Equatable {
  /// The format of a partial file, checked by `merge`.
  public static let format = "flowrun-simulate-partial/1"

  public var format = SimulationResult.format
  /// The flow file as given.
  public var flow: String
  /// A hash of the flow's and the model's bytes: partials of different inputs do not merge.
  public var fingerprint: String
  public var seed: UInt64
  /// The users of the whole run (all shards).
  public var users: Int
  /// `I/N` in a shard's partial; nil in a whole run.
  public var shard: String?
  /// The model file, nil for the defaults.
  public var model: String?
  /// Screen keys in document order.
  public var screens: [String]
  /// `experiment=variant` pairs in the order the document declares them.
  public var variants: [String]
  public var tally: SimulationTally

  public init(
    flow: String, fingerprint: String, seed: UInt64, users: Int, shard: String? = nil, model: String?,
    screens: [String], variants: [String], tally: SimulationTally
  ) {
    self.flow = flow
    self.fingerprint = fingerprint
    self.seed = seed
    self.users = users
    self.shard = shard
    self.model = model
    self.screens = screens
    self.variants = variants
    self.tally = tally
  }

  /// The variant keys the tally holds, ordered by the declaration order of their pairs (the
  /// first is the baseline of comparisons).
  public var orderedVariants: [String] {
    let rank = Dictionary(variants.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
    func ranks(_ key: String) -> [Int] {
      key.split(separator: ", ").map { rank[String($0)] ?? Int.max }
    }
    return tally.variants.keys.sorted { a, b in
      let (x, y) = (ranks(a), ranks(b))
      return x != y ? x.lexicographicallyPrecedes(y) : a < b
    }
  }

  /// Screens some user reached, in document order.
  public var reachedScreens: [String] {
    screens.filter { screen in tally.variants.values.contains { ($0.reached[screen] ?? 0) > 0 } }
  }
}
