import FlowFormat
import Testing

@testable import FlowAnalysis

/// `check.template-before-answer` (issue 19 item 4): a text over a field its own screen asks
/// for, which nothing fills before the answer.
@Suite struct TemplateBeforeAnswerRuleTests {
  static func flow(field: String, text: String, later: Bool = false) -> String {
    let go = Example.button("go")
    if later {
      return Example.flow([
        Example.screen("a", "form", [field, go]), Example.screen("b", "form", [Example.text("t", text), go]),
      ])
    }
    return Example.flow([Example.screen("a", "form", [field, Example.text("t", text), go])])
  }

  static let input = Example.block("i", "input", #""fieldName": "name""#)

  static let cases: [(String, String, Int)] = [
    ("an input read on its screen", flow(field: input, text: "Hi {name}!"), 1),
    (
      "an input with a default",
      flow(field: Example.block("i", "input", #""fieldName": "name", "defaultValue": "you""#), text: "Hi {name}!"),
      0
    ),
    (
      "a slider (its default shows)",
      flow(field: Example.block("s", "slider", #""fieldName": "kg", "min": 1, "max": 9"#), text: "{kg * 2} weeks"),
      0
    ),
    ("a default filter", flow(field: input, text: "Hi {name | default: 'there'}!"), 0),
    ("read on a later screen", flow(field: input, text: "Hi {name}!", later: true), 0),
  ]

  @Test(arguments: cases)
  func reports(_ what: String, _ json: String, _ count: Int) {
    let found = FlowChecker.check(json: json).filter { $0.id == "check.template-before-answer" }
    #expect(found.count == count, "\(what): \(found.map(\.message))")
  }
}
