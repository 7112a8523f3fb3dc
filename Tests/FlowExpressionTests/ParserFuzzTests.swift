import FlowExpression
import FlowGenerator
import Testing

@Suite struct ParserFuzzTests {
  // Fragments biased towards the grammar so the parser goes deep, plus arbitrary characters.
  static let fragments: [String] = [
    "a", "$user", ".", "id", "[", "]", "(", ")", ",", "'", "\"", "\\", "1", "2.5", "e", "+", "-",
    "*",
    "/", "%", "==", "!=", "<", "<=", ">", ">=", "!", "&&", "||", "and", "or", "not", "in",
    "contains",
    "true", "null", "len(", "round(", "min(", "{", "}", "|", ":", " ", "é", "🙂", "\n", "default",
    "upper",
  ]

  @Test func randomStringsNeverCrashTheParserOrEvaluator() {
    var generator = SplitMix64(seed: 20_260_101)
    var parsedCount = 0
    for _ in 0..<20_000 {
      var text = ""
      for _ in 0..<Int.random(in: 0...12, using: &generator) {
        if Int.random(in: 0..<8, using: &generator) == 0 {
          text.unicodeScalars.append(Unicode.Scalar(UInt8.random(in: 0...127, using: &generator)))
        } else {
          text += Self.fragments.randomElement(using: &generator)!
        }
      }
      if let expression = try? Expression.parse(text) {
        parsedCount += 1
        _ = try? expression.evaluate(in: sampleData)
        _ = Condition(expression: expression, source: text, form: .text).evaluate(in: sampleData)
      } else {
        do {
          _ = try Expression.parse(text)
        } catch {
          #expect(error.offset >= 0 && error.offset <= text.utf8.count)
          #expect(error.offset + error.length <= text.utf8.count)
        }
      }
      _ = Template(parsing: text).render(in: sampleData)
      _ = Template(parsing: "{" + text + "}").render(in: sampleData)
    }
    #expect(parsedCount > 100)
  }
}
