import FlowExpression
import OrderedCollections

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
