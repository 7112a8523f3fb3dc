import FlowFormat
import Foundation

extension SimulationReport {
  /// Paths listed per variant in JSON and HTML.
  public static let listedPaths = 20

  /// The report as one JSON object (docs/simulate.md, "JSON").
  public var json: String {
    typealias J = JSONWriter.Value
    func rate(_ rate: Rate) -> J {
      .object([
        ("count", .int(rate.count)), ("rate", .double(rate.value)),
        ("ci95", .array([.double(rate.interval.lowerBound), .double(rate.interval.upperBound)])),
      ])
    }
    let variants: [J] = variants.map { variant in
      .object([
        ("variant", .string(variant.key)), ("users", .int(variant.users)),
        ("completed", rate(variant.completed)), ("dismissed", rate(variant.dismissed)),
        ("dropped_off", rate(variant.droppedOff)), ("stuck", .int(variant.stuck)), ("failed", .int(variant.failed)),
        ("completion_time_ms", .object(variant.completionTime.map { ("p\($0.quantile)", .int($0.milliseconds)) })),
        (
          "funnel",
          .array(
            variant.funnel.map { step in
              .object([
                ("screen", .string(step.screen)), ("reached", rate(step.reached)), ("ended_here", .int(step.endedHere)),
                ("drop_off", .double(step.dropOff)),
              ])
            })
        ),
        (
          "answers",
          .object(variant.answers.map { ($0.field, .object($0.values.map { ($0.answer, .int($0.count)) })) })
        ),
        (
          "paths",
          .array(
            variant.paths.prefix(Self.listedPaths).map {
              .object([("path", .string($0.path)), ("users", .int($0.count))])
            })
        ),
      ])
    }
    let comparisons: [J] = comparisons.map { comparison in
      .object([
        ("variant", .string(comparison.variant)), ("baseline", .string(comparison.baseline)),
        ("difference", .double(comparison.difference)), ("z", comparison.z.map(J.double) ?? .null),
        ("p", comparison.p.map(J.double) ?? .null),
      ])
    }
    let root: J = .object([
      ("flow", .string(result.flow)), ("users", .int(result.users)), ("seed", .string(String(result.seed))),
      ("model", result.model.map(J.string) ?? .null), ("interval", .string("wilson score, 95 %")),
      ("completion_time_bucket_ms", .int(VariantTally.bucketMilliseconds)),
      ("test", .string("two-proportion z-test on completion, pooled, two-sided, against the first variant")),
      ("variants", .array(variants)), ("comparisons", .array(comparisons)),
    ])
    return JSONWriter.pretty.string(root) + "\n"
  }

  /// The funnels as CSV, one row per variant and screen (docs/simulate.md, "CSV").
  public var csv: String {
    var out = "variant,screen,users,reached,reached_rate,ci95_low,ci95_high,ended_here,drop_off\n"
    for variant in variants {
      for step in variant.funnel {
        let cells = [
          variant.key, step.screen, String(variant.users), String(step.reached.count),
          Figures.fixed(step.reached.value, 6), Figures.fixed(step.reached.interval.lowerBound, 6),
          Figures.fixed(step.reached.interval.upperBound, 6), String(step.endedHere), Figures.fixed(step.dropOff, 6),
        ]
        out += cells.map(Self.csvCell).joined(separator: ",") + "\n"
      }
    }
    return out
  }

  /// RFC 4180: quoted when it holds a comma, quote or line break.
  static func csvCell(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
