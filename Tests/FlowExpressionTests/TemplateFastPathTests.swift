import Testing

@testable import FlowExpression

/// Braces read without the lexer and the parser build exactly what the parser builds, and
/// anything else still goes through the parser.
@Suite struct TemplateFastPathTests {
  static let taken = [
    "name", " name ", "\tfirst_name\n", "$user", "x1", "naïve", "name|upper", "name | capitalize",
    "name | default: 'friend'", "name|default:\"a, b\"", "n | round: 2", "n | round:12 ", "items | join: ', '",
    "name | default: ''", "andy", "nothing | number", "$",
  ]
  static let declined = [
    "", " ", "true", "null", "and", "not x", "upper(x)", "x.y", "x[0]", "x * 2", "x | default",
    "x | upper: 'a'", "x | nope", "x | round: 2.5", "x | round: 2e3", "x | default: 'a\\'b'", "x | default: 'open",
    "x | upper | lower", "x || y", "x | in", "1", "'text'", "x |", "x | default: y", "x | round: -1", "x y",
    "x | default: 'a' extra", "x$y",
  ]

  @Test(arguments: taken + declined)
  func sameAsTheParser(_ inner: String) {
    let bytes = Array(inner.utf8)
    let fast = Template.kind(inner: bytes)
    let parsed = Template.parsedKind(inner: bytes)
    #expect(fast == parsed)
    #expect((Template.simpleInterpolation(bytes) != nil) == Self.taken.contains(inner))
  }
}
