import FlowExpression
import Testing

@Suite struct ConditionTraceTests {
  @Test func theSpecExample() throws {
    let data: [String: Value] = ["goal": "build", "age": 30]
    let rule1 = try Condition.parse("goal == 'lose' && age >= 18")
    let rule2 = try Condition.structured(field: "goal", op: "equals", value: "build")
    let width = max(rule1.source.count, rule2.source.count)
    let trace1 = rule1.evaluate(in: data)
    let trace2 = rule2.evaluate(in: data)
    #expect(
      trace1.line(sourceWidth: width)
        == "goal == 'lose' && age >= 18   goal='build' → false (first clause)")
    // session.md pads this line one space more than the first (30 vs 31 columns); one width
    // for all rules keeps the reads aligned, which is what the example is after.
    #expect(trace2.line(sourceWidth: width) == "goal equals 'build'           goal='build' → true")
    #expect(trace1.clauses.map(\.text) == ["goal == 'lose'", "age >= 18"])
    #expect(trace1.clauses.map(\.result) == [false, nil])
    #expect(trace1.decidingClause == 0)
    #expect(trace2.clauses.map(\.result) == [true])
  }

  @Test(
    arguments: [
      ("goal == 'build' && age >= 18", "goal='build', age=30 → true (all clauses)"),
      ("goal == 'build' && age < 18 && flag", "goal='build', age=30 → false (second clause)"),
      ("goal == 'lose' || age > 18 || flag", "goal='build', age=30 → true (second clause)"),
      ("goal == 'lose' || age < 18", "goal='build', age=30 → false (no clause)"),
      ("missing == 'x'", "missing=(missing) → false"),
      ("$user.id == 'u1'", "$user.id='u1' → true"),
      ("tags == 'a'", "tags=['a', 'b'] → true"),
      ("true", "→ true"),
      ("age / zero > 1", "age=30, zero=0 → false (error: division by zero)"),
      (
        "flag && age / zero > 1",
        "flag=true, age=30, zero=0 → false (error in second clause: division by zero)"
      ),
      ("(a || b) && goal", "a=(missing), b=(missing) → false (first clause)"),
      ("tags < 1", "tags=['a', 'b'] → false (error: cannot compare a list with a number)"),
    ] as [(String, String)])
  func summaries(source: String, expected: String) throws {
    let trace = try Condition.parse(source).evaluate(in: sampleData)
    #expect(trace.summary == expected)
  }

  /// A `matches` that reaches the pattern limits is false, and the trace says why.
  @Test func aPatternTooComplexToCheckMakesTheConditionFalse() throws {
    let condition = try Condition.structured(field: "name", op: "matches", value: "^(a+)+$")
    let data: [String: Value] = ["name": .string(String(repeating: "a", count: 38) + "!")]
    let trace = condition.evaluate(in: data)
    #expect(trace.result == false)
    #expect(trace.error == .patternTooComplex("^(a+)+$"))
    #expect(trace.summary.hasSuffix("→ false (error: pattern '^(a+)+$' too complex to check)"))
    #expect(!condition.holds(in: data))
    #expect(condition.holds(in: ["name": "aaaa"]))
  }

  @Test func errorsMakeTheConditionFalseAndAreRecorded() throws {
    let trace = try Condition.parse("1 / 0 == 1 || true").evaluate(in: sampleData)
    #expect(trace.result == false)
    #expect(trace.error == .divisionByZero)
    #expect(trace.clauses.map(\.result) == [nil, nil])
  }

  @Test func structuredCombinationsTraceTheirClauses() throws {
    let c = Condition.all([
      try Condition.structured(field: "goal", op: "equals", value: "build"),
      try Condition.structured(field: "age", op: "lt", value: 18),
    ])
    let trace = c.evaluate(in: sampleData)
    #expect(trace.clauses.map(\.text) == ["goal equals 'build'", "age lt 18"])
    #expect(
      trace.line()
        == "goal equals 'build' && age lt 18   goal='build', age=30 → false (second clause)")
  }
}
