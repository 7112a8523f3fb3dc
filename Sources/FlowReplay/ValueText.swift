import FlowExpression
import FlowFormat
import OrderedCollections

extension Value {
  /// The value for `JSONWriter` (objects keep their order).
  var writerValue: JSONWriter.Value {
    switch self {
    case .null: .null
    case .bool(let b): .bool(b)
    case .number(let d):
      if d == d.rounded(), abs(d) < 9_007_199_254_740_992, d != 0 || d.sign == .plus { .int(Int(d)) } else { .double(d) }
    case .string(let s): .string(s)
    case .list(let items): .array(items.map(\.writerValue))
    case .object(let object): .object(object.map { (key: $0.key, value: $0.value.writerValue) })
    }
  }

  /// Compact JSON, for messages.
  var json: String { JSONWriter.compact.string(writerValue) }
}

/// Matching of expected values against actual ones.
enum ValueMatch {
  /// `expected` is contained in `actual`: objects by key, recursively; everything else equal
  /// (numbers numerically, lists element by element).
  static func subset(_ expected: Value, of actual: Value) -> Bool {
    switch (expected, actual) {
    case (.object(let e), .object(let a)):
      return e.allSatisfy { key, value in a[key].map { subset(value, of: $0) } ?? false }
    case (.list(let e), .list(let a)):
      return e.count == a.count && zip(e, a).allSatisfy { subset($0, of: $1) }
    default:
      return equal(expected, actual)
    }
  }

  /// Equality with objects compared regardless of key order.
  static func equal(_ expected: Value, _ actual: Value) -> Bool {
    switch (expected, actual) {
    case (.object(let e), .object(let a)):
      return e.count == a.count && e.allSatisfy { key, value in a[key].map { equal(value, $0) } ?? false }
    case (.list(let e), .list(let a)):
      return e.count == a.count && zip(e, a).allSatisfy { equal($0, $1) }
    case (.number(let e), .number(let a)):
      return e == a
    default:
      return expected == actual
    }
  }
}
