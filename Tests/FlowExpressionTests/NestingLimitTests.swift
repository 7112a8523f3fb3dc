import FlowExpression
import Testing

/// Regression tests for stack overflows found by robustness testing: `flowrun check` crashed
/// (SIGSEGV) on a condition or template nested 100,000 levels deep, because parsing (and then
/// evaluating and destroying) the tree recursed once per level. Nesting is now limited.
/// 10,000 levels is far past the limit and overflowed a debug build's stack too; the
/// 100,000-level files are in `FlowCLITests/BadInputTests` (lexing them is slow in debug).
@Suite struct NestingLimitTests {
  static let deep = 10_000

  static let deepSources: [String] = [
    String(repeating: "(", count: deep) + "1" + String(repeating: ")", count: deep),
    String(repeating: "(", count: deep),
    String(repeating: "-", count: deep) + "1",
    String(repeating: "!", count: deep) + "a",
    String(repeating: "not ", count: deep) + "a",
    String(repeating: "[", count: deep),
    String(repeating: "len(", count: deep),
    "a" + String(repeating: "[0]", count: deep),
    "a" + String(repeating: ".b", count: deep),
    String(repeating: "1 + ", count: deep) + "1",
    String(repeating: "a && ", count: deep) + "a",
    String(repeating: "a || ", count: deep) + "a",
    String(repeating: "1 < ", count: deep) + "1",
    String(repeating: "2 * ", count: deep) + "1",
    String(repeating: "x not in ", count: deep) + "y",
  ]

  @Test(arguments: deepSources.indices)
  func deeplyNestedExpressionIsAnErrorNotACrash(_ index: Int) {
    let source = Self.deepSources[index]
    #expect(throws: ExpressionError.self) { try Expression.parse(source) }
    #expect(throws: ExpressionError.self) { try Condition.parse(source) }
    let template = Template(parsing: "before {" + source + "} after")
    #expect(template.isConstant)
    #expect(!template.syntaxIssues.isEmpty)
  }

  @Test func theErrorSaysWhatIsWrong() {
    do {
      _ = try Expression.parse(String(repeating: "(", count: 1000) + "1")
      Issue.record("parsed")
    } catch {
      #expect(error.message.contains("nested too deeply"), "\(error.message)")
      #expect(error.offset >= 0 && error.offset + error.length <= 1001)
    }
  }

  @Test func realisticNestingStillParsesAndEvaluates() throws {
    let parens = String(repeating: "(", count: 60) + "1 + 2" + String(repeating: ")", count: 60)
    #expect(try Expression.parse(parens).evaluate(in: sampleData) == 3)
    let chain = (1...100).map { "age > \($0 - 100)" }.joined(separator: " && ")
    #expect(try Expression.parse(chain).evaluate(in: sampleData) == true)
    let sum = (1...200).map(String.init).joined(separator: " + ")
    #expect(try Expression.parse(sum).evaluate(in: sampleData) == 20_100)
  }
}
