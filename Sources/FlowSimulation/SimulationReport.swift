import FlowFormat
import Foundation

/// The numbers a report shows, computed once from a result: per variant the outcome rates with
/// their intervals, the funnel, time-to-complete percentiles, answers and paths; between
/// variants the z-test on completion. Text, JSON and CSV are views of these numbers.
public struct SimulationReport: Sendable {
  public struct Rate: Sendable {
    public var count: Int
    public var of: Int
    public var interval: ClosedRange<Double>
    public var value: Double { of > 0 ? Double(count) / Double(of) : 0 }
    init(_ count: Int, of: Int) {
      self.count = count
      self.of = of
      interval = Statistics.wilson(count, of: of)
    }
  }

  public struct Step: Sendable {
    public var screen: String
    public var reached: Rate
    /// Users whose session ended on this screen without completing.
    public var endedHere: Int
    /// `endedHere` over the users who reached the screen.
    public var dropOff: Double
  }

  public struct Variant: Sendable {
    public var key: String
    public var users: Int
    public var completed, dismissed, droppedOff: Rate
    public var stuck, failed: Int
    public var funnel: [Step]
    /// Quantile (50, 90, 95, 99) → milliseconds (the upper edge of its bucket).
    public var completionTime: [(quantile: Int, milliseconds: Int)]
    /// Field → answers by count (descending, then by text).
    public var answers: [(field: String, values: [(answer: String, count: Int)])]
    public var paths: [(path: String, count: Int)]
  }

  public struct Comparison: Sendable {
    public var variant: String
    public var baseline: String
    public var difference: Double
    public var z: Double?
    public var p: Double?
  }

  /// Paths and answers listed per variant in the text report.
  public static let shownPaths = 5
  public static let shownAnswers = 8
  public static let quantiles = [50, 90, 95, 99]

  public let result: SimulationResult
  public let variants: [Variant]
  public let comparisons: [Comparison]

  public init(_ result: SimulationResult) {
    self.result = result
    let screens = result.reachedScreens
    variants = result.orderedVariants.map { key in
      let tally = result.tally.variants[key] ?? VariantTally()
      let funnel = screens.map { screen in
        let reached = tally.reached[screen] ?? 0
        let ended = tally.endedOn[screen] ?? 0
        return Step(
          screen: screen, reached: Rate(reached, of: tally.users), endedHere: ended,
          dropOff: reached > 0 ? Double(ended) / Double(reached) : 0)
      }
      let times = Self.quantiles.compactMap { q in
        Statistics.quantile(Double(q) / 100, of: tally.completionTime).map {
          (q, ($0 + 1) * VariantTally.bucketMilliseconds)
        }
      }
      let answers = tally.fields.keys.sorted().map { field in
        (field, Self.ranked(tally.fields[field] ?? [:]).map { (answer: $0.key, count: $0.count) })
      }
      return Variant(
        key: key, users: tally.users, completed: Rate(tally.completed, of: tally.users),
        dismissed: Rate(tally.dismissed, of: tally.users), droppedOff: Rate(tally.droppedOff, of: tally.users),
        stuck: tally.stuck, failed: tally.failed, funnel: funnel, completionTime: times, answers: answers,
        paths: Self.ranked(tally.paths).map { (path: $0.key, count: $0.count) })
    }
    if let baseline = variants.first {
      comparisons = variants.dropFirst().map { variant in
        let test = Statistics.twoProportionZ(
          (baseline.completed.count, baseline.users), (variant.completed.count, variant.users))
        return Comparison(
          variant: variant.key, baseline: baseline.key,
          difference: variant.completed.value - baseline.completed.value, z: test?.z, p: test?.p)
      }
    } else {
      comparisons = []
    }
  }

  /// Counts by count descending, then key.
  static func ranked(_ counts: [String: Int]) -> [(key: String, count: Int)] {
    counts.map { (key: $0.key, count: $0.value) }.sorted {
      $0.count != $1.count ? $0.count > $1.count : $0.key < $1.key
    }
  }
}

/// Number text the reports share (C locale, fixed decimals: the same bytes everywhere).
enum Figures {
  static func percent(_ value: Double) -> String { String(format: "%.1f %%", value * 100) }
  static func interval(_ range: ClosedRange<Double>) -> String {
    String(format: "%.1f–%.1f %%", range.lowerBound * 100, range.upperBound * 100)
  }
  static func seconds(_ ms: Int) -> String { String(format: "%.1f s", Double(ms) / 1000) }
  static func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
}
