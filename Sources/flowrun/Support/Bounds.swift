import ArgumentParser
import FlowExpression

/// The checks of numeric options every command shares, so that a bound is the same wherever
/// the option appears (`Limits`); a value out of range is a usage error (exit 64) that names
/// the range.
enum Bounds {
  /// `--width` of `run`, `render` and `test`.
  static func width(_ width: Int?) throws {
    guard let width, !Limits.width.contains(width) else { return }
    throw ValidationError("--width must be \(Limits.text(Limits.width)) columns, not \(width)")
  }

  /// A whole-number option within `range`.
  static func count(_ value: Int?, _ option: String, _ range: ClosedRange<Int>) throws {
    guard let value, !range.contains(value) else { return }
    throw ValidationError("\(option) must be \(Limits.text(range)), not \(value)")
  }

  /// `--min-coverage`: a percentage; NaN and infinities are refused like any other bad value.
  static func percentage(_ value: Double?, _ option: String) throws {
    guard let value, !(0...100).contains(value) else { return }
    throw ValidationError("\(option) must be a percentage between 0 and 100, not \(value)")
  }
}
