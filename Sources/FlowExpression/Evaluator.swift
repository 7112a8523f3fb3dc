import FlowPattern
import OrderedCollections

/// One variable read during evaluation, for traces: the path and what it held (nil: missing).
public struct VariableRead: Hashable, Sendable {
  /// The dotted path as written, e.g. `goal` or `$user.id`.
  public var path: String
  /// The value found, or nil when the variable was missing.
  public var value: Value?

  /// Creates a read record.
  public init(path: String, value: Value?) {
    self.path = path
    self.value = value
  }
}

/// Evaluates expression trees against an environment.
///
/// Two modes: `strict` (templates) makes any missing variable an error; `lenient` (conditions)
/// lets "missing" flow through as nil so comparisons can apply the §5 rules (a missing field
/// makes `==`, `<`, `in`, `contains` false and `!=` true).
///
/// Inlinable: a caller in another module (the engine, once per rule and visibility test)
/// gets it specialised for its own environment instead of running the generic code, which
/// instantiated the evaluator's metadata and called the environment through witnesses.
@usableFromInline struct Evaluator<Environment: ExpressionEnvironment> {
  @usableFromInline enum Mode { case strict, lenient }

  @usableFromInline let environment: Environment
  @usableFromInline let mode: Mode
  /// Whether `reads` is kept: only traces need it, and recording costs an array and a path
  /// string per read.
  @usableFromInline let recordsReads: Bool
  @usableFromInline private(set) var reads: [VariableRead] = []

  @inlinable init(environment: Environment, mode: Mode, recordsReads: Bool = true) {
    self.environment = environment
    self.mode = mode
    self.recordsReads = recordsReads
  }

  @inlinable mutating func evaluate(_ expression: Expression) throws(EvaluationError) -> Value? {
    switch expression.kind {
    case .literal(let value):
      return value
    case .pattern(let pattern):
      return .string(pattern.source)
    case .list(let items):
      var values: [Value] = []
      for item in items { values.append(try evaluate(item) ?? .null) }
      return .list(values)
    case .name:
      return try resolvePath(expression)
    case .member where expression.isPath:
      return try resolvePath(expression)
    case .member(let base, let name):
      guard let object = try evaluate(base) else { return nil }
      return try missing(object.member(name), path: ".\(name)")
    case .index(let base, let indexExpression):
      guard let container = try evaluate(base), let index = try evaluate(indexExpression) else {
        return nil
      }
      let path = (base.path ?? "value") + "[\(index.description)]"
      return try missing(try container.subscripted(by: index), path: path)
    case .unary(.not, let operand):
      return .bool(!(try evaluate(operand)?.isTruthy ?? false))
    case .unary(.negate, let operand):
      guard let value = try evaluate(operand) else { return nil }
      guard let number = value.numericValue else {
        throw .typeMismatch("cannot negate a \(value.typeName)")
      }
      return .number(-number)
    case .binary(.and, let lhs, let rhs):
      guard try evaluate(lhs)?.isTruthy ?? false else { return .bool(false) }
      return .bool(try evaluate(rhs)?.isTruthy ?? false)
    case .binary(.or, let lhs, let rhs):
      if try evaluate(lhs)?.isTruthy ?? false { return .bool(true) }
      return .bool(try evaluate(rhs)?.isTruthy ?? false)
    case .binary(.matches, let lhs, let rhs):
      guard case .pattern(let pattern) = rhs.kind else {
        return try Operators.apply(.matches, try evaluate(lhs), try evaluate(rhs))
      }
      guard let value = try evaluate(lhs) else { return .bool(false) }
      return .bool(try Operators.matches(value, pattern))
    case .binary(let op, let lhs, let rhs):
      let left = try evaluate(lhs)
      let right = try evaluate(rhs)
      return try Operators.apply(op, left, right)
    case .call(let function, let arguments):
      var values: [Value] = []
      for argument in arguments {
        guard let value = try evaluate(argument) else { return nil }
        values.append(value)
      }
      return try Functions.call(function, values)
    case .test(let test, let operand):
      let value = try evaluate(operand)
      return .bool(Operators.test(test, value))
    }
  }

  /// Resolves `name` or `name.member.member`, recording one read for the whole path when reads
  /// are kept. The dotted path is built only for a record or a strict-mode error.
  @inlinable mutating func resolvePath(_ expression: Expression) throws(EvaluationError) -> Value? {
    let value: Value?
    switch expression.kind {
    case .name(let root):
      value = environment.value(forRoot: root)
    case .member(let base, let name):
      value = resolveMembers(base)?.member(name)
    default:
      return nil
    }
    guard recordsReads || (value == nil && mode == .strict) else { return value }
    let path = expression.path ?? ""
    if recordsReads, !reads.contains(where: { $0.path == path }) {
      reads.append(VariableRead(path: path, value: value))
    }
    return try missing(value, path: path)
  }

  /// The value of a name with member accesses, unrecorded (a part of a recorded path).
  @inlinable func resolveMembers(_ expression: Expression) -> Value? {
    switch expression.kind {
    case .name(let root): environment.value(forRoot: root)
    case .member(let base, let name): resolveMembers(base)?.member(name)
    default: nil
    }
  }

  /// In strict mode a missing value is an error naming the path.
  @inlinable func missing(_ value: Value?, path: String) throws(EvaluationError) -> Value? {
    if value == nil && mode == .strict { throw .missingVariable(path) }
    return value
  }
}

extension Value {
  /// `value.name`: a member of an object, else missing.
  @usableFromInline func member(_ name: String) -> Value? {
    if case .object(let object) = self { return object[name] }
    return nil
  }

  /// `value[index]`: an element of a list, a character of a string, a member of an object;
  /// missing when out of range, an error for other pairs.
  @usableFromInline func subscripted(by index: Value) throws(EvaluationError) -> Value? {
    switch (self, index) {
    case (.list(let items), .number(let n)):
      guard n.rounded() == n, n >= 0, n < Double(items.count) else { return nil }
      return items[Int(n)]
    case (.string(let s), .number(let n)):
      guard n.rounded() == n, n >= 0, n < Double(s.count) else { return nil }
      return .string(String(s[s.index(s.startIndex, offsetBy: Int(n))]))
    case (.object(let object), .string(let key)):
      return object[key]
    default:
      throw .typeMismatch("cannot index a \(typeName) with a \(index.typeName)")
    }
  }
}

extension Expression {
  /// Evaluates the expression; a missing variable is an error (the template rule).
  public func evaluate(in environment: some ExpressionEnvironment) throws(EvaluationError) -> Value {
    var evaluator = Evaluator(environment: environment, mode: .strict, recordsReads: false)
    // Strict mode never yields nil: missing values throw instead.
    return try evaluator.evaluate(self) ?? .null
  }
}
