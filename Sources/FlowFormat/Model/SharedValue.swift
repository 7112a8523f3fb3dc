/// An immutable value behind one reference: the model's rarely set fields live in one of these
/// (nil when every such field has its default), so the usual screen or block does not carry
/// their bytes inline (a `ChatConfig?` alone is 176 bytes; docs/performance.md, eighth round).
/// Compared and hashed as its value; never written (a write builds a new one).
@usableFromInline final class SharedValue<Value: Hashable & Sendable>: Hashable, Sendable {
  @usableFromInline let value: Value

  @inlinable init(_ value: Value) { self.value = value }

  @inlinable static func == (a: SharedValue, b: SharedValue) -> Bool {
    a === b || a.value == b.value
  }

  @inlinable func hash(into hasher: inout Hasher) {
    hasher.combine(value)
  }
}

/// Fields kept out of line together; `isEmpty` when every one has its default (a check of
/// each field: comparing with a default value cost more than the memory saved at load).
@usableFromInline protocol RareFields: Hashable, Sendable {
  var isEmpty: Bool { get }
}

extension SharedValue where Value: RareFields {
  /// The shared `value`, or nil when it is empty: the one form each value has, so equal models
  /// compare equal.
  @inlinable static func holding(_ value: Value) -> SharedValue? {
    value.isEmpty ? nil : SharedValue(value)
  }
}
