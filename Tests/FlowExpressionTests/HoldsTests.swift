import FlowExpression
import Testing

/// `Condition.holds` evaluates without recording reads or clauses; it must agree with the traced
/// `evaluate(in:).result` on chains, missing fields, member paths and errors.
@Suite struct HoldsTests {
  @Test(arguments: [
    "goal == 'build'", "goal == 'lose' && age >= 18", "goal == 'lose' || age >= 18", "missing == 1",
    "missing != 1", "!missing", "$user.plan == 'pro'", "$user.missing.deeper == 1", "$nope.x != 2",
    "age / zero > 1", "age / zero > 1 || flag", "flag || age / zero > 1", "flag && age / zero > 1",
    "-name > 1", "tags contains 'a' && len(tags) == 2", "tags[0] == 'a'", "tags[5] == 'a'",
    "'b' in tags && (age > 10 || missing)", "nothing", "empty_text || no_tags || zero", "round(age / 7, 1) > 4",
    "upper(name) == 'SAM' && $variant.onb_length == 'short'", "missing.member == 'x' || goal",
    "tags[name] == 1", "age_text == 30 && age_text < 31",
  ])
  func holdsMatchesTheTracedResult(_ text: String) throws {
    let condition = try Condition.parse(text)
    #expect(condition.holds(in: sampleData) == condition.evaluate(in: sampleData).result)
  }

  @Test(arguments: [
    ("{missing}", "missing variable 'missing'"), ("{$user.missing}", "missing variable '$user.missing'"),
    ("{$user.plan.deep}", "missing variable '$user.plan.deep'"), ("{missing | default: 'x'}", nil),
    ("{$user.plan}", nil),
  ])
  func templatesStillNameMissingPaths(_ text: String, _ message: String?) {
    let rendering = Template(parsing: text).render(in: sampleData)
    #expect(rendering.issues.first?.message == message)
  }
}

/// `summarize` skips quoting the clauses; its result and summary are `evaluate`'s.
@Suite struct SummarizeTests {
  @Test(arguments: [
    "goal == 'lose' && age >= 18", "goal == 'lose' || age >= 18 || flag", "missing == 1", "age / zero > 1 || flag",
    "flag && age / zero > 1", "$user.plan == 'pro' && tags contains 'b'", "value > 1000000 && age_text == 30",
  ])
  func summarizeMatchesEvaluate(_ text: String) throws {
    let condition = try Condition.parse(text)
    let trace = condition.evaluate(in: sampleData)
    let summary = condition.summarize(in: sampleData)
    #expect(summary.result == trace.result)
    #expect(summary.summary == trace.summary)
  }
}
