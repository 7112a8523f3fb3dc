import FlowExpression
import Testing

@Suite struct EvaluationTests {
  @Test(
    arguments: [
      // Arithmetic and concatenation.
      ("1 + 2 * 3", Value.number(7)), ("(1 + 2) * 3", 9), ("7 - 10", -3), ("7 / 2", 3.5),
      ("7 % 3", 1),
      ("-7 % 3", -1), ("-age", -30), ("age_text * 2", 60), ("'a' + 1", "a1"), ("1 + 'a'", "1a"),
      ("name + ' ' + age", "sam 30"), ("tags + ['c']", ["a", "b", "c"]),
      ("0.1 + 0.2", 0.30000000000000004),
      // Comparisons with coercion.
      ("age == 30", true), ("age == '30'", true), ("age_text == 30", true), ("age_text > 4", true),
      ("'10' > '9'", true), ("'b' > 'a'", true), ("age != 30", false), ("age < 30", false),
      ("age <= 30", true), ("age >= 31", false), ("age > 29.5", true), ("goal == 'build'", true),
      ("goal != 'lose'", true), ("flag == true", true), ("nothing == null", true),
      // Membership.
      ("tags == 'a'", true), ("tags == 'z'", false), ("'b' in tags", true), ("'z' in tags", false),
      ("tags contains 'a'", true), ("name contains 'am'", true), ("'am' in name", true),
      ("'x' in name", false), ("['z', 'b'] in tags", true), ("'id' in $user", true),
      ("3 in [1, 2, 3]", true),
      ("'3' in [1, 2, 3]", true), ("tags == ['a', 'b']", true), ("'x' not in tags", true),
      // Logic and truthiness.
      ("true && false", false), ("true || false", true), ("!true", false), ("not false", true),
      ("false or true and false", false), ("no_tags || empty_text || zero", false),
      ("tags && name", true),
      // Member and index access.
      ("$user.id", "u1"), ("$variant.onb_length == 'short'", true), ("tags[1]", "b"),
      ("name[0]", "s"),
      ("$user['plan']", "pro"), ("[[1, 2]][0][1]", 2),
      // Functions.
      ("len(name)", 3), ("len(tags)", 2), ("len($user)", 2), ("round(182.456, 1)", 182.5),
      ("round(2.5)", 3),
      ("floor(2.7)", 2), ("ceil(2.1)", 3), ("abs(-4)", 4), ("min(3, 1, 2)", 1),
      ("max([3, 9, 2])", 9),
      ("lower('AbC')", "abc"), ("upper(name)", "SAM"), ("max(age_text, 4)", 30),
      // The spec's examples.
      ("hours_per_day * 365", 730), ("minutes_saved * 365 / 60", 182.5),
    ] as [(String, Value)])
  func evaluates(source: String, expected: Value) throws {
    #expect(try evaluate(source).get() == expected)
  }

  @Test(
    arguments: [
      ("1 / 0", EvaluationError.divisionByZero), ("5 % 0", .divisionByZero),
      ("age / zero", .divisionByZero),
      ("missing + 1", .missingVariable("missing")), ("$user.name", .missingVariable("$user.name")),
      ("tags[5]", .missingVariable("tags[5]")), ("-name", .typeMismatch("cannot negate a string")),
      ("tags * 2", .typeMismatch("cannot apply '*' to a list and a number")),
      ("tags < 3", .typeMismatch("cannot compare a list with a number")),
      ("len(3)", .typeMismatch("len() needs a string, list or object, not a number")),
      ("abs('x')", .typeMismatch("abs() needs a number, not a string")),
      ("tags['x']", .typeMismatch("cannot index a list with a string")),
    ] as [(String, EvaluationError)])
  func evaluationErrors(source: String, expected: EvaluationError) throws {
    #expect(try evaluate(source) == .failure(expected))
  }

  @Test(
    arguments: [
      ("round(1.5, 1e300)", Value.number(1.5)), ("round(1.5, -1e300)", 0), ("round(15, -1)", 20),
      ("round(1.5, 0 / 1)", 2), ("round(-1.5)", -2),
    ] as [(String, Value)])
  func roundHandlesExtremeDigitCounts(source: String, expected: Value) throws {
    #expect(try evaluate(source).get() == expected)
  }

  @Test func shortCircuitSkipsTheRightHandSide() throws {
    #expect(try evaluate("false && 1 / 0 > 1").get() == false)
    #expect(try evaluate("true || missing").get() == true)
  }

  @Test func environmentsCanBeClosures() throws {
    let environment = ClosureEnvironment { $0 == "x" ? 4 : nil }
    #expect(try parsed("x * x").evaluate(in: environment) == 16)
  }
}
