import ArgumentParser
import FlowExpression

/// A whole number within a range that is the same wherever the option appears (`Limits`):
/// `--width`, `--jobs`, `--max-depth`, `--max-states`, `--max-selections`.
protocol BoundedCount: OptionValue, CustomStringConvertible {
  static var option: String { get }
  static var range: ClosedRange<Int> { get }
  /// After the range in the message: ` columns`.
  static var unit: String { get }
  var value: Int { get }
  init(value: Int)
}

extension BoundedCount {
  static var unit: String { "" }

  static func parse(_ text: String) -> Result<Self, ValidationError> {
    guard let value = Int(text), range.contains(value) else {
      return .failure(ValidationError("\(option) must be \(Limits.text(range))\(unit), not \(text)"))
    }
    return .success(Self(value: value))
  }

  var description: String { String(value) }
}

/// `--width` of `run`, `render` and `test`: 20 to 1,000 columns.
struct Width: BoundedCount {
  static let option = "--width"
  static let range = Limits.width
  static let unit = " columns"
  let value: Int
}

/// `test --jobs`: scripts run in parallel, 1 to 1,000.
struct Jobs: BoundedCount {
  static let option = "--jobs"
  static let range = 1...1_000
  let value: Int
}

/// `paths --max-depth`: steps followed on one path, 1 to 1,000,000.
struct MaxDepth: BoundedCount {
  static let option = "--max-depth"
  static let range = 1...1_000_000
  let value: Int
}

/// `paths --max-states`: distinct states explored, 1 to 100,000,000.
struct MaxStates: BoundedCount {
  static let option = "--max-states"
  static let range = 1...100_000_000
  let value: Int
}

/// `paths --max-selections`: the largest multi-select combination tried.
struct MaxSelections: BoundedCount {
  static let option = "--max-selections"
  static let range = 1...Limits.count.upperBound
  let value: Int
}

/// `run --hook-timeout`: milliseconds a hook command may take, 1 to 600,000.
struct HookTimeout: BoundedCount {
  static let option = "--hook-timeout"
  static let range = 1...600_000
  static let unit = " milliseconds"
  let value: Int
}
