import OrderedCollections

/// Resolves root names (`age`, `$user`, `$variant`, ...) to values during evaluation.
///
/// Only roots are asked for: member access such as `$user.id` walks the returned object.
public protocol ExpressionEnvironment {
  /// The value of a root name, or nil when it is not set.
  func value(forRoot name: String) -> Value?
}

/// An environment backed by a closure.
public struct ClosureEnvironment: ExpressionEnvironment {
  private let resolve: (String) -> Value?

  /// Wraps a closure that maps root names to values.
  public init(_ resolve: @escaping (String) -> Value?) {
    self.resolve = resolve
  }

  /// Calls the closure.
  public func value(forRoot name: String) -> Value? { resolve(name) }
}

extension OrderedDictionary: ExpressionEnvironment
where Key == String, Value == FlowExpression.Value {
  /// Looks the name up as a key.
  public func value(forRoot name: String) -> FlowExpression.Value? { self[name] }
}

extension Dictionary: ExpressionEnvironment where Key == String, Value == FlowExpression.Value {
  /// Looks the name up as a key.
  public func value(forRoot name: String) -> FlowExpression.Value? { self[name] }
}
