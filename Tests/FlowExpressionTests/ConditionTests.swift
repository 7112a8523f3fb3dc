import FlowExpression
import Testing

@Suite struct ConditionTests {
  // (field, op, value, expected) against sampleData; "missing" is never set.
  @Test(
    arguments: [
      ("goal", "equals", Value.string("build"), true), ("goal", "equals", "lose", false),
      ("age", "equals", "30", true), ("tags", "equals", "a", true), ("tags", "equals", "z", false),
      ("missing", "equals", "x", false),
      ("goal", "not_equals", "lose", true), ("goal", "not_equals", "build", false),
      ("missing", "not_equals", "x", true),
      ("tags", "contains", "b", true), ("name", "contains", "am", true),
      ("tags", "contains", "z", false),
      ("missing", "contains", "x", false),
      ("tags", "not_contains", "z", true), ("tags", "not_contains", "a", false),
      ("missing", "not_contains", "x", true),
      ("goal", "in", ["lose", "build"], true), ("goal", "in", ["lose"], false),
      ("tags", "in", ["b", "q"], true),
      ("missing", "in", ["x"], false),
      ("goal", "not_in", ["lose"], true), ("goal", "not_in", ["build"], false),
      ("missing", "not_in", ["x"], true),
      ("age", "gt", 18, true), ("age", "gt", 30, false), ("age_text", "gt", 18, true),
      ("missing", "gt", 1, false),
      ("age", "gte", 30, true), ("age", "gte", 31, false), ("missing", "gte", 1, false),
      ("age", "lt", 31, true), ("age", "lt", "30", false), ("missing", "lt", 1, false),
      ("age", "lte", 30, true), ("age", "lte", 29, false), ("missing", "lte", 1, false),
      ("name", "matches", "s.m", true), ("name", "matches", "s", false),
      ("age", "matches", "[0-9]+", true),
      ("missing", "matches", ".*", false),
      ("$user.plan", "equals", "pro", true), ("$user.nope", "equals", "pro", false),
      ("$variant.onb_length", "equals", "short", true),
    ] as [(String, String, Value, Bool)])
  func structuredOperators(field: String, op: String, value: Value, expected: Bool) throws {
    let condition = try Condition.structured(field: field, op: op, value: value)
    #expect(condition.holds(in: sampleData) == expected)
  }

  @Test(
    arguments: [
      ("empty_text", "empty", true), ("no_tags", "empty", true), ("nothing", "empty", true),
      ("missing", "empty", true), ("name", "empty", false), ("zero", "empty", false),
      ("name", "not_empty", true), ("missing", "not_empty", false), ("no_tags", "not_empty", false),
      ("name", "is_set", true), ("empty_text", "is_set", true), ("nothing", "is_set", false),
      ("missing", "is_set", false),
      ("missing", "not_set", true), ("nothing", "not_set", true), ("name", "not_set", false),
    ] as [(String, String, Bool)])
  func structuredTests(field: String, op: String, expected: Bool) throws {
    let condition = try Condition.structured(field: field, op: op, value: nil)
    #expect(condition.holds(in: sampleData) == expected)
    #expect(condition.source == "\(field) \(op)")
  }

  // The text form follows the same missing-field rules.
  @Test(
    arguments: [
      ("missing == 'x'", false), ("missing != 'x'", true), ("missing > 1", false),
      ("missing < 1", false),
      ("missing contains 'x'", false), ("'x' in missing", false), ("!missing", true),
      ("missing", false),
      ("missing + 1 > 0", false), ("missing == null", true), ("$user.nope == 'x'", false),
      ("len(missing) == 0", false), ("missing.deep.path != 1", true),
    ] as [(String, Bool)])
  func missingFieldsInTextConditions(source: String, expected: Bool) throws {
    let trace = try Condition.parse(source).evaluate(in: sampleData)
    #expect(trace.result == expected)
    #expect(trace.error == nil)
  }

  @Test func structuredAndTextFormsCompileToTheSameTree() throws {
    let structured = try Condition.structured(field: "goal", op: "equals", value: "build")
    let text = try Condition.parse("goal == 'build'")
    #expect(sexp(structured.expression) == sexp(text.expression))
    let notIn = try Condition.structured(field: "goal", op: "not_in", value: ["a"])
    #expect(sexp(notIn.expression) == sexp(try parsed("goal not in ['a']")))
    #expect(structured.source == "goal equals 'build'")
    #expect(structured.form == .structured)
    #expect(text.form == .text)
  }

  @Test func structuredRangesPointIntoTheRendering() throws {
    let c = try Condition.structured(field: "$user.plan", op: "in", value: ["pro", "team"])
    #expect(c.source == "$user.plan in ['pro', 'team']")
    guard case .binary(.in, let field, let value) = c.expression.kind else {
      Issue.record("not an in")
      return
    }
    #expect(field.range.text(in: c.source) == "$user.plan")
    #expect(value.range.text(in: c.source) == "['pro', 'team']")
    #expect(c.variableNames == ["$user"])
  }

  @Test(
    arguments: [
      (
        "goal", "eq", Value.string("x"),
        "unknown op 'eq'; valid ops: equals, not_equals, contains, not_contains, in, not_in, gt, gte, lt, lte, empty, not_empty, is_set, not_set, matches"
      ),
      ("goal", "equals", nil, "op 'equals' needs a 'value'"),
      ("goal", "matches", "(", "invalid pattern '(' for op 'matches'"),
      ("goal", "matches", 3, "op 'matches' needs a string pattern, not a number"),
      ("a..b", "equals", 1, "invalid field name 'a..b'"),
      ("", "is_set", nil, "invalid field name ''"),
    ] as [(String, String, Value?, String)])
  func structuredErrors(field: String, op: String, value: Value?, message: String) {
    do {
      _ = try Condition.structured(field: field, op: op, value: value)
      Issue.record("expected an error")
    } catch {
      #expect(error.message == message)
    }
  }

  @Test func combinators() throws {
    let goal = try Condition.structured(field: "goal", op: "equals", value: "build")
    let adult = try Condition.structured(field: "age", op: "gte", value: 18)
    let lose = try Condition.parse("goal == 'lose' || flag")
    let all = Condition.all([goal, adult, lose])
    #expect(all.source == "goal equals 'build' && age gte 18 && (goal == 'lose' || flag)")
    #expect(all.holds(in: sampleData))
    let any = Condition.any([Condition.not(goal), adult])
    #expect(any.source == "not (goal equals 'build') || age gte 18")
    #expect(any.holds(in: sampleData))
    #expect(!Condition.not(goal).holds(in: sampleData))
    #expect(Condition.all([]).holds(in: sampleData))
    #expect(!Condition.any([]).holds(in: sampleData))
    #expect(Condition.all([goal]) == goal)
    // Every node's range still quotes the right text after composition.
    #expect(sexp(all.expression) == sexp(try parsed(all.source.replacingOccurrences())))
  }
}

extension String {
  /// Turns a structured rendering back into expression syntax (test helper).
  fileprivate func replacingOccurrences() -> String {
    replacing(" equals ", with: " == ").replacing(" gte ", with: " >= ")
  }
}
