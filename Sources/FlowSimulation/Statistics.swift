import Foundation

/// The statistics of the reports (docs/simulate.md, "Statistics").
public enum Statistics {
  /// z for a two-sided 95 % interval.
  public static let z95 = 1.959_963_984_540_054

  /// The Wilson score interval of `successes` out of `trials` at 95 % (0...0 for no trials).
  public static func wilson(_ successes: Int, of trials: Int) -> ClosedRange<Double> {
    guard trials > 0 else { return 0...0 }
    let n = Double(trials)
    let p = Double(successes) / n
    let z2 = z95 * z95
    let centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    let half = z95 / (1 + z2 / n) * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
    return max(0, centre - half)...min(1, centre + half)
  }

  /// The pooled two-proportion z-test of `b` against `a` (successes, trials): z and the
  /// two-sided p-value; nil when a group is empty or the pooled rate is 0 or 1 (no variance).
  public static func twoProportionZ(_ a: (Int, Int), _ b: (Int, Int)) -> (z: Double, p: Double)? {
    guard a.1 > 0, b.1 > 0 else { return nil }
    let (n1, n2) = (Double(a.1), Double(b.1))
    let pooled = Double(a.0 + b.0) / (n1 + n2)
    let se = (pooled * (1 - pooled) * (1 / n1 + 1 / n2)).squareRoot()
    guard se > 0 else { return nil }
    let z = (Double(b.0) / n2 - Double(a.0) / n1) / se
    return (z, erfc(abs(z) / 2.0.squareRoot()))
  }

  /// The nearest-rank `q` quantile (0 < q ≤ 1) of a histogram (bucket → count): the bucket
  /// holding it, nil when the histogram is empty.
  public static func quantile(_ q: Double, of histogram: [Int: Int]) -> Int? {
    let total = histogram.values.reduce(0, +)
    guard total > 0 else { return nil }
    let rank = max(1, Int((q * Double(total)).rounded(.up)))
    var seen = 0
    for bucket in histogram.keys.sorted() {
      seen += histogram[bucket] ?? 0
      if seen >= rank { return bucket }
    }
    return histogram.keys.max()
  }
}
