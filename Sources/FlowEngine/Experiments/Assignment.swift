import FlowFormat

/// Deterministic variant assignment (flow-format §8).
public enum VariantAssignment {
  /// The bucket 0..<10000 of a user in an experiment.
  public static func bucket(experimentID: String, salt: String?, userID: String) -> Int {
    let hash = EngineHash.withKey([experimentID, salt ?? experimentID, userID], separator: UInt8(ascii: ".")) {
      EngineHash.murmur32($0)
    }
    return Int(hash % 10_000)
  }

  /// The variant the user falls into: walk the variants accumulating
  /// `weight / total * 10000`; the first whose cumulative bound exceeds the bucket wins.
  /// Non-positive totals pick the first variant; rounding leftovers pick the last.
  public static func variant(of experiment: Experiment, userID: String) -> Experiment.Variant? {
    guard let first = experiment.variants.first else { return nil }
    let total = experiment.variants.reduce(0) { $0 + max(0, $1.weight) }
    guard total > 0 else { return first }
    let bucket = Double(bucket(experimentID: experiment.id, salt: experiment.salt, userID: userID))
    var bound = 0.0
    for variant in experiment.variants {
      bound += max(0, variant.weight) / total * 10_000
      if bound > bucket { return variant }
    }
    return experiment.variants.last
  }
}
