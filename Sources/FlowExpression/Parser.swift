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
    try self.init(Lexer(source))
  }

  init(_ lexer: Lexer) throws(ExpressionError) {
    self.lexer = lexer
    tokens = try lexer.tokenize()
  }

  /// The 1-based character column of a byte offset (for messages).
  func column(of offset: Int) -> Int { lexer.column(of: offset) }

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
    while isSymbol(.pipe) {
      advance()
      guard case .identifier(let name) = current.kind else {
        throw ExpressionError(
          "expected a filter name after '|' at column \(lexer.column(of: current.range.offset))",
          offset: current.range.offset, length: current.range.length)
      }
      let nameRange = current.range
      advance()
      var argument: Expression?
      if isSymbol(.colon) {
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
    while isSymbol(.or) || isKeyword(.or) {
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
    while isSymbol(.and) || isKeyword(.and) {
      try deeper()
      advance()
      let rhs = try parseNot()
      lhs = Expression(.binary(.and, lhs, rhs), range: lhs.range.union(rhs.range))
    }
    return lhs
  }

  private mutating func parseNot() throws(ExpressionError) -> Expression {
    if isSymbol(.bang) || isKeyword(.not) {
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

  /// The comparison operator a symbol spells, if any.
  private static func comparison(_ symbol: Token.Symbol) -> BinaryOperator? {
    switch symbol {
    case .equal: .equal
    case .notEqual: .notEqual
    case .less: .less
    case .lessOrEqual: .lessOrEqual
    case .greater: .greater
    case .greaterOrEqual: .greaterOrEqual
    default: nil
    }
  }

  private mutating func parseComparison() throws(ExpressionError) -> Expression {
    let saved = depth
    defer { depth = saved }
    var lhs = try parseAdditive()
    while true {
      var op: BinaryOperator
      var negated = false
      if case .symbol(let symbol) = current.kind, let found = Parser.comparison(symbol) {
        op = found
      } else if isKeyword(.in) {
        op = .in
      } else if isKeyword(.contains) {
        op = .contains
      } else if isKeyword(.not), isKeyword(.in, at: position + 1) || isKeyword(.contains, at: position + 1) {
        // `x not in list` / `s not contains t`, read as `!(x in list)`.
        advance()
        op = isKeyword(.in) ? .in : .contains
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
      if isSymbol(.plus) { op = .add } else if isSymbol(.minus) { op = .subtract } else { return lhs }
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
      if isSymbol(.star) {
        op = .multiply
      } else if isSymbol(.slash) {
        op = .divide
      } else if isSymbol(.percent) {
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
    if isSymbol(.minus) || isSymbol(.bang) || isKeyword(.not) {
      let op: UnaryOperator = isSymbol(.minus) ? .negate : .not
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
      if isSymbol(.dot) {
        try deeper()
        advance()
        guard case .identifier(let name) = current.kind else {
          throw ExpressionError(
            "expected a member name after '.' at column \(lexer.column(of: current.range.offset))",
            offset: current.range.offset, length: current.range.length)
        }
        base = Expression(.member(base, name), range: base.range.union(current.range))
        advance()
      } else if isSymbol(.openBracket) {
        let open = current
        try deeper()
        advance()
        let index = try parseOr()
        let close = try expectClosing(.closeBracket, opener: open)
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
      switch token.keyword {
      case .true?: return Expression(.literal(.bool(true)), range: token.range)
      case .false?: return Expression(.literal(.bool(false)), range: token.range)
      case .null?: return Expression(.literal(.null), range: token.range)
      case .and?, .or?, .not?, .in?, .contains?: throw unexpected(token)
      case nil: break
      }
      guard isSymbol(.openParenthesis) else { return Expression(.name(name), range: token.range) }
      guard let function = Function(rawValue: name) else {
        let known = Function.allCases.map(\.rawValue).joined(separator: ", ")
        throw ExpressionError(
          "unknown function '\(name)' at column \(lexer.column(of: token.range.offset)) (known: \(known))",
          offset: token.range.offset, length: token.range.length)
      }
      let open = current
      advance()
      let arguments = try parseSequence(until: .closeParenthesis, opener: open)
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
    case .symbol(.openParenthesis):
      advance()
      let inner = try parseOr()
      _ = try expectClosing(.closeParenthesis, opener: token)
      return inner
    case .symbol(.openBracket):
      advance()
      let items = try parseSequence(until: .closeBracket, opener: token)
      return Expression(.list(items), range: token.range.union(tokens[position - 1].range))
    default:
      throw unexpected(token)
    }
  }

  /// Comma-separated expressions up to the closing symbol (a trailing comma is allowed).
  private mutating func parseSequence(
    until closer: Token.Symbol, opener: Token
  ) throws(ExpressionError)
    -> [Expression]
  {
    var items: [Expression] = []
    while !isSymbol(closer) {
      if case .end = current.kind { break }
      items.append(try parseOr())
      if isSymbol(.comma) { advance() } else { break }
    }
    _ = try expectClosing(closer, opener: opener)
    return items
  }

  private mutating func expectClosing(
    _ closer: Token.Symbol, opener: Token
  ) throws(ExpressionError)
    -> SourceRange
  {
    guard isSymbol(closer) else {
      throw ExpressionError(
        "expected '\(closer.rawValue)' to close '\(opener.spelling)' at column \(lexer.column(of: opener.range.offset))",
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

  private func isSymbol(_ symbol: Token.Symbol) -> Bool {
    if case .symbol(symbol) = tokens[position].kind { return true }
    return false
  }

  private func isKeyword(_ keyword: Token.Keyword, at index: Int? = nil) -> Bool {
    let i = index ?? position
    return i < tokens.count && tokens[i].keyword == keyword
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
