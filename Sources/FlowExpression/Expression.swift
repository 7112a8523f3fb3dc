import FlowPattern

/// A parsed expression: a tree whose every node knows the source range it came from.
///
/// Text conditions, structured conditions and template interpolations all produce this type,
/// so one evaluator and one trace format serve them all.
public struct Expression: Hashable, Sendable {
  /// What the node is.
  public indirect enum Kind: Hashable, Sendable {
    /// A constant (numbers, strings, booleans, null, and structured-condition values).
    case literal(Value)
    /// A list literal `[a, b]` whose elements are expressions.
    case list([Expression])
    /// A root name: a collected field or a context name such as `$user`.
    case name(String)
    /// Member access `base.name`.
    case member(Expression, String)
    /// Index access `base[index]`.
    case index(Expression, Expression)
    /// A prefix operator.
    case unary(UnaryOperator, Expression)
    /// An infix operator.
    case binary(BinaryOperator, Expression, Expression)
    /// A call of a built-in function.
    case call(Function, [Expression])
    /// A test that only structured conditions produce (`empty`, `is_set`, ...).
    case test(Test, Expression)
    /// The pattern of `matches`, compiled when the condition was built; its value is its source.
    case pattern(Pattern)
  }

  /// The node.
  public var kind: Kind
  /// Where the node is in its source text.
  public var range: SourceRange

  /// Creates a node.
  public init(_ kind: Kind, range: SourceRange) {
    self.kind = kind
    self.range = range
  }
}

/// A prefix operator.
public enum UnaryOperator: String, Hashable, Sendable {
  /// `!` / `not`.
  case not = "!"
  /// `-`.
  case negate = "-"
}

/// An infix operator.
public enum BinaryOperator: String, Hashable, Sendable, CaseIterable {
  /// `||` / `or` (short-circuit).
  case or = "||"
  /// `&&` / `and` (short-circuit).
  case and = "&&"
  /// `==`: numeric-string coercion; a list against a scalar means membership.
  case equal = "=="
  /// `!=`.
  case notEqual = "!="
  /// `<`.
  case less = "<"
  /// `<=`.
  case lessOrEqual = "<="
  /// `>`.
  case greater = ">"
  /// `>=`.
  case greaterOrEqual = ">="
  /// `x in list`, `sub in text`, `key in object`.
  case `in` = "in"
  /// `list contains x`, `text contains sub`: `in` with the operands swapped.
  case contains = "contains"
  /// Whole-string regular-expression match; only structured conditions produce it, with a
  /// compiled `pattern` on the right.
  case matches = "matches"
  /// `+`: concatenates when either side is a string (or both are lists).
  case add = "+"
  /// `-`.
  case subtract = "-"
  /// `*`.
  case multiply = "*"
  /// `/`: a zero divisor is an evaluation error.
  case divide = "/"
  /// `%`: truncated remainder; a zero divisor is an evaluation error.
  case remainder = "%"
}

/// A test on one value that structured conditions need and the text syntax has no operator for.
public enum Test: String, Hashable, Sendable, CaseIterable {
  /// Missing, null, `''`, `[]` or `{}`.
  case empty
  /// The opposite of `empty`.
  case notEmpty = "not_empty"
  /// Present and not null.
  case isSet = "is_set"
  /// Missing or null.
  case notSet = "not_set"
}

/// A built-in function.
public enum Function: String, Hashable, Sendable, CaseIterable {
  /// `len(x)`: characters of a string, elements of a list, keys of an object.
  case len
  /// `round(x)` / `round(x, n)`: half away from zero to n decimals.
  case round
  /// `floor(x)`.
  case floor
  /// `ceil(x)`.
  case ceil
  /// `abs(x)`.
  case abs
  /// `min(a, b, ...)` or `min(list)`.
  case min
  /// `max(a, b, ...)` or `max(list)`.
  case max
  /// `lower(x)`: the display text lower-cased.
  case lower
  /// `upper(x)`: the display text upper-cased.
  case upper

  /// The accepted argument counts.
  var arity: ClosedRange<Int> {
    switch self {
    case .round: 1...2
    case .min, .max: 1...Int.max
    default: 1...1
    }
  }
}

extension Expression {
  /// The root names the expression reads, in first-use order without duplicates.
  public var variableNames: [String] {
    var names: [String] = []
    collectNames(into: &names)
    return names
  }

  func collectNames(into names: inout [String]) {
    switch kind {
    case .literal, .pattern: break
    case .name(let name): if !names.contains(name) { names.append(name) }
    case .list(let items): for item in items { item.collectNames(into: &names) }
    case .member(let base, _): base.collectNames(into: &names)
    case .index(let base, let index):
      base.collectNames(into: &names)
      index.collectNames(into: &names)
    case .unary(_, let operand), .test(_, let operand): operand.collectNames(into: &names)
    case .binary(_, let lhs, let rhs):
      lhs.collectNames(into: &names)
      rhs.collectNames(into: &names)
    case .call(_, let arguments): for argument in arguments { argument.collectNames(into: &names) }
    }
  }

  /// The same tree with every range moved `delta` bytes right (used when composing sources).
  public func shifted(by delta: Int) -> Expression {
    let moved: Kind =
      switch kind {
      case .literal, .name, .pattern: kind
      case .list(let items): .list(items.map { $0.shifted(by: delta) })
      case .member(let base, let name): .member(base.shifted(by: delta), name)
      case .index(let base, let index): .index(base.shifted(by: delta), index.shifted(by: delta))
      case .unary(let op, let operand): .unary(op, operand.shifted(by: delta))
      case .test(let test, let operand): .test(test, operand.shifted(by: delta))
      case .binary(let op, let lhs, let rhs):
        .binary(op, lhs.shifted(by: delta), rhs.shifted(by: delta))
      case .call(let function, let arguments):
        .call(function, arguments.map { $0.shifted(by: delta) })
      }
    return Expression(moved, range: range.shifted(by: delta))
  }

  /// Whether `path` is non-nil, without building it.
  @usableFromInline var isPath: Bool {
    switch kind {
    case .name: true
    case .member(let base, _): base.isPath
    default: false
    }
  }

  /// The dotted path of a name with member accesses (`$user.id`), or nil for other nodes.
  @usableFromInline var path: String? {
    switch kind {
    case .name(let name): name
    case .member(let base, let member): base.path.map { "\($0).\(member)" }
    default: nil
    }
  }
}
