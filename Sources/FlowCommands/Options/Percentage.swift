import ArgumentParser

/// `paths --min-coverage`: a percentage from 0 to 100; NaN and infinities are refused like any
/// other bad value.
struct Percentage: OptionValue {
  let value: Double

  static func parse(_ text: String) -> Result<Percentage, ValidationError> {
    guard let value = Double(text), (0...100).contains(value) else {
      return .failure(ValidationError("--min-coverage must be a percentage between 0 and 100, not \(text)"))
    }
    return .success(Percentage(value: value))
  }
}
