import FlowExpression
import Testing

@Suite struct ParserTests {
  @Test(arguments: [
    // Precedence, low to high.
    ("a || b && c", "(|| a (&& b c))"),
    ("a or b and c", "(|| a (&& b c))"),
    ("a && b || c", "(|| (&& a b) c)"),
    ("!a && b", "(&& (! a) b)"),
    ("not a == b", "(! (== a b))"),
    ("!a == b", "(! (== a b))"),
    ("a == !b", "(== a (! b))"),
    ("a + 1 == b * 2", "(== (+ a 1) (* b 2))"),
    ("a < b + c", "(< a (+ b c))"),
    ("a + b * c", "(+ a (* b c))"),
    ("a - b - c", "(- (- a b) c)"),
    ("a * b / c % d", "(% (/ (* a b) c) d)"),
    ("-a * b", "(* (- a) b)"),
    ("- -a", "(- (- a))"),
    ("-a.b[0]", "(- ([] (. a b) 0))"),
    ("(a + b) * c", "(* (+ a b) c)"),
    ("x in [1, 2] && y contains 'z'", "(&& (in x [1 2]) (contains y 'z'))"),
    ("x not in ['a']", "(! (in x ['a']))"),
    ("s not contains 'a'", "(! (contains s 'a'))"),
    ("a <= b", "(<= a b)"), ("a >= b", "(>= a b)"), ("a != b", "(!= a b)"), ("a > b", "(> a b)"),
    // Literals and names.
    ("'it\\'s' + \"q\\\"\\n\"", "(+ 'it\\'s' 'q\"\\n')"),
    ("'\\u00e9'", "'é'"),
    ("true || false || null", "(|| (|| true false) null)"),
    ("[]", "[]"), ("[1, [2, 'x'],]", "[1 [2 'x']]"),
    ("1.5e3 + .5", ""),
    ("1.5e3 + 2E-1", "(+ 1500 0.2)"),
    ("$user.id == 'u1'", "(== (. $user id) 'u1')"),
    ("$variant.onb_length", "(. $variant onb_length)"),
    ("$screen", "$screen"), ("$previous", "$previous"), ("$flow", "$flow"),
    ("$platform", "$platform"),
    ("$locale", "$locale"),
    ("tags[0]", "([] tags 0)"),
    ("round(x, 2) + len(tags)", "(+ (round x 2) (len tags))"),
    (
      "min(1, 2, 3) + max(list) + floor(a) + ceil(b) + abs(c)",
      "(+ (+ (+ (+ (min 1 2 3) (max list)) (floor a)) (ceil b)) (abs c))"
    ),
    ("lower(upper(x))", "(lower (upper x))"),
    ("len", "len"),
    ("café == 'x'", "(== café 'x')"),
  ])
  func parsesWithPrecedence(source: String, expected: String) throws {
    if expected.isEmpty {
      // `.5` is not a number literal (members start with `.`): it is a syntax error.
      #expect(throws: ExpressionError.self) { try Expression.parse(source) }
      return
    }
    #expect(sexp(try parsed(source)) == expected)
  }

  @Test(arguments: [
    ("(a + b", "expected ')' to close '(' at column 1", 6),
    ("round((a + 1, 2)", "expected ')' to close '(' at column 7", 12),
    ("a +", "unexpected end of expression at column 4", 3),
    ("a b", "unexpected 'b' at column 3", 2),
    ("[1, 2", "expected ']' to close '[' at column 1", 5),
    ("'abc", "unterminated string starting at column 1", 0),
    ("a # b", "unexpected character '#' at column 3", 2),
    (
      "foo(1)",
      "unknown function 'foo' at column 1 (known: len, round, floor, ceil, abs, min, max, lower, upper)",
      0
    ),
    ("len(1, 2)", "len() takes 1 argument, got 2 at column 1", 0),
    ("round()", "round() takes 1 or 2 arguments, got 0 at column 1", 0),
    ("min()", "min() takes at least 1 arguments, got 0 at column 1", 0),
    ("a.", "expected a member name after '.' at column 3", 2),
    ("a | upper", "unexpected '|' at column 3", 2),
    ("", "unexpected end of expression at column 1", 0),
    ("a && in", "unexpected 'in' at column 6", 5),
    ("é + ", "unexpected end of expression at column 5", 5),
    ("'\\u12'", "invalid \\u escape at column 2", 1),
  ])
  func parseErrors(source: String, message: String, offset: Int) {
    #expect(throws: ExpressionError.self) { try Expression.parse(source) }
    do {
      _ = try Expression.parse(source)
    } catch {
      #expect(error.message == message)
      #expect(error.offset == offset)
    }
  }

  @Test func rangesAreUTF8OffsetsIntoTheSource() throws {
    let source = "é == 'x' && $user.id"
    let e = try parsed(source)
    guard case .binary(.and, let lhs, let rhs) = e.kind else {
      Issue.record("not an and")
      return
    }
    #expect(lhs.range == SourceRange(offset: 0, length: 9))
    #expect(lhs.range.text(in: source) == "é == 'x'")
    #expect(rhs.range.text(in: source) == "$user.id")
    #expect(e.range.text(in: source) == source)
  }

  @Test func variableNamesAreRootsInFirstUseOrder() throws {
    let e = try parsed("b + a.x * b + $user.id + round(c[d], 1) + len([e])")
    #expect(e.variableNames == ["b", "a", "$user", "c", "d", "e"])
  }
}

@Suite struct ParserLimitTests {
  @Test(arguments: [
    String(repeating: "(", count: 5000) + "1" + String(repeating: ")", count: 5000),
    String(repeating: "-", count: 5000) + "1",
    String(repeating: "!", count: 5000) + "a",
    String(repeating: "[", count: 5000),
    String(repeating: "f(", count: 5000),
  ])
  func deepNestingIsAnErrorNotACrash(source: String) {
    #expect(throws: ExpressionError.self) { try Expression.parse(source) }
  }

  @Test func moderateNestingParses() throws {
    let source = String(repeating: "(", count: 50) + "1" + String(repeating: ")", count: 50)
    #expect(try Expression.parse(source).evaluate(in: [String: Value]()) == 1)
  }
}
