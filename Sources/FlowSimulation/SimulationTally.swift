/// What a simulation counted, per variant: counts and histograms only (never raw sessions), so
/// tallies of disjoint sets of users add up exactly (`merge`) to the tally of their union:
/// shards of a run merge to the single run, whatever the order.
public struct SimulationTally: Codable, Sendable, Equatable {
  /// Variant key (`experiment=variant, …`, or `all users` without experiments) → its tally.
  public var variants: [String: VariantTally] = [:]

  public init() {}

  public var users: Int { variants.values.reduce(0) { $0 + $1.users } }

  public mutating func merge(_ other: SimulationTally) {
    for (key, tally) in other.variants { variants[key, default: VariantTally()].merge(tally) }
  }
}

/// The users of one variant.
public struct VariantTally: Codable, Sendable, Equatable {
  public var users = 0
  public var completed = 0
  public var dismissed = 0
  /// Left the flow (the app closed): the model's drop-off.
  public var droppedOff = 0
  /// Could not go on (no valid answer or control within the attempts allowed).
  public var stuck = 0
  /// The engine stopped the session (the step budget ran out).
  public var failed = 0
  /// Screen key → users shown that screen at least once.
  public var reached: [String: Int] = [:]
  /// Screen key → users whose session ended there without completing.
  public var endedOn: [String: Int] = [:]
  /// Time to complete on the virtual clock: bucket (`bucketMilliseconds` wide) → completed users.
  public var completionTime: [Int: Int] = [:]
  /// Field → answer (display text; each option of a multi-select) → users who ended with it.
  public var fields: [String: [String: Int]] = [:]
  /// Path (screen keys joined by ` > `) → users who took it.
  public var paths: [String: Int] = [:]

  /// Width of a `completionTime` bucket.
  public static let bucketMilliseconds = 100

  public init() {}

  public mutating func merge(_ other: VariantTally) {
    users += other.users
    completed += other.completed
    dismissed += other.dismissed
    droppedOff += other.droppedOff
    stuck += other.stuck
    failed += other.failed
    reached.merge(other.reached, uniquingKeysWith: +)
    endedOn.merge(other.endedOn, uniquingKeysWith: +)
    completionTime.merge(other.completionTime, uniquingKeysWith: +)
    fields.merge(other.fields) { $0.merging($1, uniquingKeysWith: +) }
    paths.merge(other.paths, uniquingKeysWith: +)
  }
}
