/// Recursive-descent parser for the expression language (flow-format §6.1).
///
/// Precedence, low to high: `||`/`or`; `&&`/`and`; `!`/`not`; comparisons, `in`, `contains`;
/// `+ -`; `* / %`; unary `-`; postfix `.name` and `[i]`.
struct Parser {
  /// The deepest expression tree accepted. Parsing, evaluation and even destroying a tree
  /// recurse once per level, so without a limit `((((…` or `1+1+1+…` a few thousand levels
  /// deep overflows the stack; real conditions and templates are a handful of levels deep.
  static let maxDepth = Limits.expressionNesting

  private let lexer: Lexer
  private let tokens: [Token]
  private var position = 0
  /// An upper bound of the depth of the tree being built: one per nested call of the grammar
  /// and one per operator that wraps a left operand (see `deeper`).
  private var depth = 0

  init(_ source: String) throws(ExpressionError) {
    lexer = Lexer(source)
    tokens = try lexer.tokenize()
  }

  /// Parses a whole expression; anything left over is an error.
  mutating func parseExpression() throws(ExpressionError) -> Expression {
    let expression = try parseOr()
    guard case .end = current.kind else { throw unexpected(current) }
    return expression
  }

  /// A filter as written after `|` in a template: its name and optional `: argument`.
  struct RawFilter {
    var name: String
    var nameRange: SourceRange
    var argument: Expression?
  }

  /// Parses `expr | filter | filter: arg` (the inside of a template's braces).
  mutating func parseInterpolation() throws(ExpressionError) -> (Expression, [RawFilter]) {
    let expression = try parseOr()
    var filters: [RawFilter] = []
    while isSymbol("|") {
      advance()
      guard case .identifier(let name) = current.kind else {
        throw ExpressionError(
          "expected a filter name after '|' at column \(lexer.column(of: current.range.offset))",
          offset: current.range.offset, length: current.range.length)
      }
      let nameRange = current.range
      advance()
      var argument: Expression?
      if isSymbol(":") {
        advance()
        argument = try parseOr()
      }
      filters.append(RawFilter(name: name, nameRange: nameRange, argument: argument))
    }
    guard case .end = current.kind else { throw unexpected(current) }
    return (expression, filters)
  }

  // MARK: - Grammar

  /// Counts one more level at the current token; fails past ``maxDepth``.
  private mutating func deeper() throws(ExpressionError) {
    depth += 1
    guard depth <= Parser.maxDepth else {
      throw ExpressionError(
        "expression nested too deeply (more than \(Parser.maxDepth) levels) at column \(lexer.column(of: current.range.offset))",
        offset: current.range.offset, length: current.range.length)
    }
  }

  private mutating func parseOr() throws(ExpressionError) -> Expression {
    let saved = depth
    defer { depth = saved }
    try deeper()
    var lhs = try parseAnd()
    while isSymbol("||") || isKeyword("or") {
      try deeper()
      advance()
      let rhs = try parseAnd()
      lhs = Expression(.binary(.or, lhs, rhs), range: lhs.range.union(rhs.range))
    }
    return lhs
  }

  private mutating func parseAnd() throws(ExpressionError) -> Expression {
    let saved = depth
    defer { depth = saved }
    var lhs = try parseNot()
    while isSymbol("&&") || isKeyword("and") {
      try deeper()
      advance()
      let rhs = try parseNot()
      lhs = Expression(.binary(.and, lhs, rhs), range: lhs.range.union(rhs.range))
    }
    return lhs
  }

  private mutating func parseNot() throws(ExpressionError) -> Expression {
    if isSymbol("!") || isKeyword("not") {
      let start = current.range
      let saved = depth
      defer { depth = saved }
      try deeper()
      advance()
      let operand = try parseNot()
      return Expression(.unary(.not, operand), range: start.union(operand.range))
    }
    return try parseComparison()
  }

  private static let comparisons: [String: BinaryOperator] = [
    "==": .equal, "!=": .notEqual, "<": .less, "<=": .lessOrEqual, ">": .greater,
    ">=": .greaterOrEqual,
  ]

  private mutating func parseComparison() throws(ExpressionError) -> Expression {
    let saved = depth
    defer { depth = saved }
    var lhs = try parseAdditive()
    while true {
      var op: BinaryOperator
      var negated = false
      if case .symbol(let s) = current.kind, let found = Parser.comparisons[s] {
        op = found
      } else if isKeyword("in") {
        op = .in
      } else if isKeyword("contains") {
        op = .contains
      } else if isKeyword("not"), isKeyword("in", at: position + 1) || isKeyword("contains", at: position + 1) {
        // `x not in list` / `s not contains t`, read as `!(x in list)`.
        advance()
        op = isKeyword("in") ? .in : .contains
        negated = true
      } else {
        return lhs
      }
      try deeper()
      if negated { try deeper() }
      advance()
      let rhs = try parseAdditive()
      let range = lhs.range.union(rhs.range)
      lhs = Expression(.binary(op, lhs, rhs), range: range)
      if negated { lhs = Expression(.unary(.not, lhs), range: range) }
    }
  }

  private mutating func parseAdditive() throws(ExpressionError) -> Expression {
    let saved = depth
    defer { depth = saved }
    var lhs = try parseMultiplicative()
    while true {
      let op: BinaryOperator
      if isSymbol("+") { op = .add } else if isSymbol("-") { op = .subtract } else { return lhs }
      try deeper()
      advance()
      let rhs = try parseMultiplicative()
      lhs = Expression(.binary(op, lhs, rhs), range: lhs.range.union(rhs.range))
    }
  }

  private mutating func parseMultiplicative() throws(ExpressionError) -> Expression {
    let saved = depth
    defer { depth = saved }
    var lhs = try parseUnary()
    while true {
      let op: BinaryOperator
      if isSymbol("*") {
        op = .multiply
      } else if isSymbol("/") {
        op = .divide
      } else if isSymbol("%") {
        op = .remainder
      } else {
        return lhs
      }
      try deeper()
      advance()
      let rhs = try parseUnary()
      lhs = Expression(.binary(op, lhs, rhs), range: lhs.range.union(rhs.range))
    }
  }

  private mutating func parseUnary() throws(ExpressionError) -> Expression {
    // `!` is also accepted here so that `a == !b` parses; at statement level parseNot wins.
    if isSymbol("-") || isSymbol("!") || isKeyword("not") {
      let op: UnaryOperator = isSymbol("-") ? .negate : .not
      let start = current.range
      let saved = depth
      defer { depth = saved }
      try deeper()
      advance()
      let operand = try parseUnary()
      return Expression(.unary(op, operand), range: start.union(operand.range))
    }
    return try parsePostfix()
  }

  private mutating func parsePostfix() throws(ExpressionError) -> Expression {
    let saved = depth
    defer { depth = saved }
    var base = try parsePrimary()
    while true {
      if isSymbol(".") {
        try deeper()
        advance()
        guard case .identifier(let name) = current.kind else {
          throw ExpressionError(
            "expected a member name after '.' at column \(lexer.column(of: current.range.offset))",
            offset: current.range.offset, length: current.range.length)
        }
        base = Expression(.member(base, name), range: base.range.union(current.range))
        advance()
      } else if isSymbol("[") {
        let open = current
        try deeper()
        advance()
        let index = try parseOr()
        let close = try expectClosing("]", opener: open)
        base = Expression(.index(base, index), range: base.range.union(close))
      } else {
        return base
      }
    }
  }

  private mutating func parsePrimary() throws(ExpressionError) -> Expression {
    let token = current
    switch token.kind {
    case .number(let d):
      advance()
      return Expression(.literal(.number(d)), range: token.range)
    case .string(let s):
      advance()
      return Expression(.literal(.string(s)), range: token.range)
    case .identifier(let name):
      advance()
      switch name {
      case "true": return Expression(.literal(.bool(true)), range: token.range)
      case "false": return Expression(.literal(.bool(false)), range: token.range)
      case "null": return Expression(.literal(.null), range: token.range)
      case "and", "or", "not", "in", "contains": throw unexpected(token)
      default: break
      }
      guard isSymbol("(") else { return Expression(.name(name), range: token.range) }
      guard let function = Function(rawValue: name) else {
        let known = Function.allCases.map(\.rawValue).joined(separator: ", ")
        throw ExpressionError(
          "unknown function '\(name)' at column \(lexer.column(of: token.range.offset)) (known: \(known))",
          offset: token.range.offset, length: token.range.length)
      }
      let open = current
      advance()
      let arguments = try parseSequence(until: ")", opener: open)
      let close = tokens[position - 1].range
      guard function.arity.contains(arguments.count) else {
        let expected =
          function.arity.upperBound == Int.max
          ? "at least \(function.arity.lowerBound)"
          : function.arity.count == 1
            ? "\(function.arity.lowerBound)"
            : "\(function.arity.lowerBound) or \(function.arity.upperBound)"
        let plural = expected == "1" ? "argument" : "arguments"
        throw ExpressionError(
          "\(name)() takes \(expected) \(plural), got \(arguments.count) at column \(lexer.column(of: token.range.offset))",
          offset: token.range.offset, length: close.end - token.range.offset)
      }
      return Expression(.call(function, arguments), range: token.range.union(close))
    case .symbol("("):
      advance()
      let inner = try parseOr()
      _ = try expectClosing(")", opener: token)
      return inner
    case .symbol("["):
      advance()
      let items = try parseSequence(until: "]", opener: token)
      return Expression(.list(items), range: token.range.union(tokens[position - 1].range))
    default:
      throw unexpected(token)
    }
  }

  /// Comma-separated expressions up to the closing symbol (a trailing comma is allowed).
  private mutating func parseSequence(
    until closer: String, opener: Token
  ) throws(ExpressionError)
    -> [Expression]
  {
    var items: [Expression] = []
    while !isSymbol(closer) {
      if case .end = current.kind { break }
      items.append(try parseOr())
      if isSymbol(",") { advance() } else { break }
    }
    _ = try expectClosing(closer, opener: opener)
    return items
  }

  private mutating func expectClosing(
    _ closer: String, opener: Token
  ) throws(ExpressionError)
    -> SourceRange
  {
    guard isSymbol(closer) else {
      throw ExpressionError(
        "expected '\(closer)' to close '\(opener.spelling)' at column \(lexer.column(of: opener.range.offset))",
        offset: current.range.offset, length: current.range.length)
    }
    let range = current.range
    advance()
    return range
  }

  // MARK: - Token helpers

  private var current: Token { tokens[position] }

  private mutating func advance() {
    if position < tokens.count - 1 { position += 1 }
  }

  private func isSymbol(_ s: String) -> Bool {
    if case .symbol(s) = current.kind { return true }
    return false
  }

  private func isKeyword(_ s: String, at index: Int? = nil) -> Bool {
    let i = index ?? position
    guard i < tokens.count else { return false }
    if case .identifier(s) = tokens[i].kind { return true }
    return false
  }

  private func unexpected(_ token: Token) -> ExpressionError {
    if case .end = token.kind {
      return ExpressionError(
        "unexpected end of expression at column \(lexer.column(of: token.range.offset))",
        offset: token.range.offset)
    }
    return ExpressionError(
      "unexpected \(token.quoted) at column \(lexer.column(of: token.range.offset))",
      offset: token.range.offset, length: token.range.length)
  }
}

extension Expression {
  /// Parses expression text (§6.1); errors carry a message and a UTF-8 offset.
  public static func parse(_ source: String) throws(ExpressionError) -> Expression {
    var parser = try Parser(source)
    return try parser.parseExpression()
  }
}
