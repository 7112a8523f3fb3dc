/// Every bound flowrun puts on what a flow, a script, an answer or an option may ask of it, in
/// one place. `docs/loading.md` ("Limits") lists each with the message a user sees; a value out
/// of range is reported where it is read (a load or script diagnostic, a usage error), never
/// trapped on later.
public enum Limits {
  // MARK: Nesting and expansion

  /// Arrays and objects nested in a JSON flow or script, lists and mappings in a YAML script
  /// (aliases included).
  public static let nesting = 512
  /// Parentheses, operators, calls and subscripts nested in one expression.
  public static let expressionNesting = 256
  /// Nodes (scalars, lists, mappings) that YAML aliases may add to a script in all: each use
  /// of `*name` adds the size of the node `&name` marks.
  public static let aliasNodes = 100_000
  /// UTF-8 bytes one template may render to; the text is cut there, with a note.
  public static let templateBytes = 4 << 20
  /// Field names gathered through sub-flows by the analyses that treat a flow screen as
  /// collecting every field of the flows it runs (`check.uncollected-variable`, `paths`), over
  /// all flows. Past it the first is skipped with a note and the second assumes every field
  /// may be set from the start (more states, none missed).
  public static let subflowFields = 1_000_000
  /// Diagnostics a text report shows (`--format json` and `sarif` list them all).
  public static let shownDiagnostics = 1_000

  // MARK: Numbers

  /// Milliseconds of a duration: `autoAdvanceMs`, `:wait`, a script's `wait:` (about 31 years).
  public static let durationMs: ClosedRange<Int64> = 0...1_000_000_000_000
  /// The virtual clock, in epoch milliseconds: 0000-01-01T00:00:00.000Z through
  /// 9999-12-31T23:59:59.999Z (`--now`, a script's `now:`). The clock stops at the end.
  public static let clockMs: ClosedRange<Int64> = -62_167_219_200_000...253_402_300_799_999
  /// Columns to render for: `--width` of every command, `COLUMNS` and the terminal's width
  /// (the last two are clamped into the range, options outside it are usage errors).
  public static let width: ClosedRange<Int> = 20...1_000
  /// Largest magnitude of slider `min`, `max`, `step`, `defaultValue`, number-input `min`,
  /// `max` and variant weights (near 2^53 whole numbers stop being exact).
  public static let magnitude = 1e15
  /// `minLength`, `maxLength`, `minSelections` and `maxSelections`.
  public static let count: ClosedRange<Int> = 0...100_000

  /// What a time outside `clockMs` is told.
  public static let clockText = "the virtual clock runs from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z"

  /// A range for messages: `between 0 and 1,000,000,000,000`.
  public static func text(_ range: ClosedRange<Double>) -> String {
    "between \(NumberFormatting.grouped(range.lowerBound)) and \(NumberFormatting.grouped(range.upperBound))"
  }

  public static func text<T: BinaryInteger>(_ range: ClosedRange<T>) -> String {
    text(Double(range.lowerBound)...Double(range.upperBound))
  }

  /// `value` moved into `range` (the virtual clock and durations saturate instead of wrapping).
  public static func clamp<T: Comparable>(_ value: T, to range: ClosedRange<T>) -> T {
    min(max(value, range.lowerBound), range.upperBound)
  }

  /// Milliseconds as a whole number in `durationMs` (rounded up; NaN and negatives are 0).
  public static func milliseconds(_ value: Double) -> Int64 {
    guard value > 0 else { return 0 }
    return value >= Double(durationMs.upperBound) ? durationMs.upperBound : Int64(value.rounded(.up))
  }

  /// `a + b`, stopped at the ends of `Int64` instead of overflowing.
  public static func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? (b > 0 ? .max : .min) : sum
  }
}
