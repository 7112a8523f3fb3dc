import Testing

@testable import FlowExpression

/// Templates compiled with one `Template.Sharing` are the templates compiled alone: equal, and
/// the same names, issues and renderings, whatever was compiled before them. Names and
/// literals of other bytes that compare equal as strings (`é` composed or not) keep their own.
@Suite struct TemplateSharingTests {
  static let sources = [
    "Step 1: your answer was {answer}.", "Step 2: your answer was {answer}.", "Step 10: your answer was {answer}.",
    "{answer}", "{ answer }", "{answer | upper}", "{answer | default: 'x'}", "{answer | default: 'y'}",
    "{n | round: 2} and {n | round: 2}", "{caf\u{E9}}", "{cafe\u{301}}", "{x | default: 'caf\u{E9}'}",
    "{x | default: 'cafe\u{301}'}", "a \\{b} {c}", "\\{answer}", "{answer} \\{b}", "{answer}{answer}", "{not a name}",
    "{x +}", "plain text", "{}", "{a}{a}{a}",
  ]

  @Test(arguments: sources) func aSharedTemplateIsTheTemplateCompiledAlone(_ source: String) {
    // Compiled after every other source, forwards and backwards: it meets what they left.
    var sharing = Template.Sharing()
    for other in Self.sources + Self.sources.reversed() { _ = Template(parsing: other, sharing: &sharing) }
    let shared = Template(parsing: source, sharing: &sharing)
    let alone = Template(parsing: source)
    #expect(shared == alone)
    #expect(shared.variableNames.map { Array($0.utf8) } == alone.variableNames.map { Array($0.utf8) })
    #expect(shared.syntaxIssues == alone.syntaxIssues)
    #expect(shared.segments == alone.segments)
    let data: [String: Value] = ["answer": .string("yes"), "n": .number(2.345)]
    #expect(Array(shared.render(in: data).text.utf8) == Array(alone.render(in: data).text.utf8))
  }
}
