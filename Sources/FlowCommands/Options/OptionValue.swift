import ArgumentParser

/// A command-line value that reads and checks itself (`--width 80`, `--shard 2/4`, `--now
/// 2026-01-01`, `--mock id=cancelled`): the type holds the syntax, the bounds and the words of
/// the usage error, so every command that takes the option reads it alike, once.
protocol OptionValue: Sendable {
  /// `text` read as this value, or the usage error (exit 64) that names the option and says
  /// what is wrong: `--width must be between 20 and 1,000 columns, not 5`.
  static func parse(_ text: String) -> Result<Self, ValidationError>
}

/// An `OptionValue` as ArgumentParser holds it: read as the argument is, refused in the
/// command's `validate()` (`get()`), before anything runs. A type that refused the argument
/// itself would get ArgumentParser's words, "The value '5' is invalid for '--width <n>'",
/// which drop the reason.
struct Checked<Value: OptionValue>: ExpressibleByArgument, Sendable {
  let result: Result<Value, ValidationError>

  init(argument: String) { result = Value.parse(argument) }

  /// A default value.
  init(_ value: Value) { result = .success(value) }

  /// The value, or the usage error.
  func get() throws -> Value { try result.get() }

  var defaultValueDescription: String {
    switch result {
    case .success(let value): "\(value)"
    case .failure: ""
    }
  }
}
