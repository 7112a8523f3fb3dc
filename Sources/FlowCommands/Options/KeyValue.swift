import ArgumentParser
import FlowDriver
import FlowExpression

/// `KEY=VALUE` options, both sides non-empty: `--trait` and `--variant`.
protocol KeyValue: OptionValue {
  static var option: String { get }
  init(key: String, text: String)
}

extension KeyValue {
  static func parse(_ text: String) -> Result<Self, ValidationError> {
    guard let equals = text.firstIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex
    else {
      return .failure(ValidationError("\(option) '\(text)': expected KEY=VALUE"))
    }
    return .success(Self(key: String(text[..<equals]), text: String(text[text.index(after: equals)...])))
  }
}

/// `--trait KEY=VALUE`: a `$user` trait. JSON `true`, `false`, `null` and numbers stay typed;
/// anything else is text.
struct Trait: KeyValue {
  static let option = "--trait"
  let key: String
  let value: Value

  init(key: String, text: String) {
    self.key = key
    switch JSONBridge.value(parsing: text) {
    case .some(let value) where value != .string(text) && !Self.isContainer(value): self.value = value
    default: self.value = .string(text)
    }
  }

  private static func isContainer(_ value: Value) -> Bool {
    switch value {
    case .list, .object, .string: true
    default: false
    }
  }
}

/// `--variant EXPERIMENT=VARIANT`: forces an experiment's variant.
struct VariantChoice: KeyValue {
  static let option = "--variant"
  let experiment: String
  let variant: String

  init(key: String, text: String) {
    experiment = key
    variant = text
  }
}
