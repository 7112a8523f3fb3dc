import FlowPattern
import FlowSupport
import Foundation
import Testing

/// Patterns and subjects with what JavaScript's `new RegExp(pattern, "u").test(subject)` gives
/// (checked with Node 20): the anywhere mode is `test` itself.
let javaScriptAnywhere: [(String, String, Bool)] = [
  (#"\u0041"#, "A", true),
  (#"\u{1F600}"#, "😀", true),
  ("^.$", "😀", true),
  (#"\x41"#, "A", true),
  (#"^\d+$"#, "١٢٣", false),
  (#"^\w+$"#, "é", false),
  ("abc$", "abc\n", false),
  ("^abc", "xabc", false),
  (#"(a)?b\1"#, "b", true),
  ("[]", "a", false),
  ("[^]", "a", true),
  (#"^[A-Z]{2}\d{4}$"#, "AB1234", true),
  (#"^[A-Z]{2}\d{4}$"#, "ab1234", false),
  (#"^\d{5}(-\d{4})?$"#, "12345-6789", true),
  (#"^\d{5}(-\d{4})?$"#, "12345-678", false),
  (#"^(?=.*[A-Z])(?=.*\d).{8,}$"#, "Password1", true),
  (#"^(?=.*[A-Z])(?=.*\d).{8,}$"#, "password1", false),
  (#"(?<year>\d{4})-\k<year>"#, "2024-2024", true),
  (#"(?<=\$)\d+"#, "$42", true),
  ("colou?r", "The color", true),
  ("a{2,3}", "caab", true),
  ("^a{2,3}$", "aaaa", false),
  (#"\bcat\b"#, "a cat sat", true),
  (#"\bcat\b"#, "concatenate", false),
  (#"^[^@\s]+@[^@\s]+\.[a-z]{2,}$"#, "alex@example.com", true),
  ("^a.c$", "a\nc", false),
  ("^a.c$", "a\rc", false),
  (#"^\p{L}+$"#, "Zoë", true),
  (#"^[\u00e9-\u00ea]$"#, "é", true),
  (#"\cJ"#, "\n", true),
  (#"[\b]"#, "\u{8}", true),
  (#"\0"#, "\u{0}", true),
  ("^$", "", true),
  ("x*", "", true),
  ("(?:ab)+$", "xabab", true),
]

/// The same for the whole-text mode: `new RegExp("^(?:" + pattern + ")$", "u").test(subject)`.
let javaScriptWhole: [(String, String, Bool)] = [
  ("a|ab", "ab", true),
  ("abc", "abc\n", false),
  ("[0-9]+", "123", true),
  ("[0-9]+", "12a", false),
  ("", "", true),
  ("a*", "", true),
  ("(?:ab)+", "ababa", false),
  ("[^0-9]+", "Alex", true),
  ("[^0-9]+", "R2D2", false),
]

@Suite struct PatternTests {
  @Test(arguments: javaScriptAnywhere)
  func anywhereMatchesAsJavaScriptTests(pattern: String, subject: String, expected: Bool) throws {
    #expect(try Pattern(pattern, anchoring: .anywhere).match(subject) == (expected ? .matched : .notMatched))
  }

  @Test(arguments: javaScriptWhole)
  func wholeTextMatchesAsAnAnchoredJavaScriptPattern(pattern: String, subject: String, expected: Bool) throws {
    #expect(try Pattern(pattern).match(subject) == (expected ? .matched : .notMatched))
  }

  /// Catastrophic backtracking ends at the limits, with the JIT and in the interpreter
  /// (`(*NO_JIT)` turns the JIT off for one pattern).
  @Test(arguments: [
    (#"^(a+)+$"#, String(repeating: "a", count: 38) + "!"),
    (#"(*NO_JIT)^(a+)+$"#, String(repeating: "a", count: 38) + "!"),
    (#"^(\w+\s?)+$"#, String(repeating: "word ", count: 12) + "!"),
    (#"(*NO_JIT)(a|a)*$"#, String(repeating: "a", count: 40) + "!"),
    (#"^(([a-z])+.)+[A-Z]([a-z])+$"#, String(repeating: "a", count: 40) + "!"),
  ])
  func catastrophicBacktrackingIsTooComplex(pattern: String, subject: String) throws {
    #expect(try Pattern(pattern).match(subject) == .tooComplex)
  }

  /// A deep match past the JIT's stack is finished by the interpreter; past the depth limit
  /// it is too complex.
  @Test func deepMatchesFallBackToTheInterpreterThenReachTheDepthLimit() throws {
    let pattern = try Pattern("(?:a|b)*")
    #expect(pattern.match(String(repeating: "ab", count: 5_000)) == .matched)
    #expect(pattern.match(String(repeating: "ab", count: 100_000)) == .tooComplex)
  }

  @Test(arguments: [
    ("[A-Z0-9{6}", "missing terminating ] for character class", 10),
    ("(", "missing closing parenthesis", 1),
    ("a)", "unmatched closing parenthesis", 1),
    ("é(", "missing closing parenthesis", 2),
    (#"\C"#, "using \\C is disabled by the application", 2),
  ])
  func compileErrorsSayWhatAndWhere(pattern: String, message: String, offset: Int) {
    #expect(throws: PatternError(message: message, offset: offset)) { try Pattern(pattern) }
  }

  @Test func patternsCompareByTheirSourceAndAnchoring() throws {
    #expect(try Pattern("a+") == Pattern("a+"))
    #expect(try Pattern("a+") != Pattern("a+", anchoring: .anywhere))
    #expect(try Set([Pattern("a"), Pattern("a"), Pattern("b")]).count == 2)
  }

  /// One compiled pattern matched from many threads at once gives every thread the right answers.
  @Test func oneCompiledPatternServesManyThreads() throws {
    let pattern = try Pattern(#"^[a-z]+\d{2}$"#)
    let subjects = (0..<400).map { $0 % 3 == 0 ? "name\($0 % 100 + 10)" : "Name\($0)" }
    let expected = subjects.map { pattern.match($0) }
    let results = Locked([PatternMatch?](repeating: nil, count: subjects.count))
    DispatchQueue.concurrentPerform(iterations: 8) { worker in
      for index in stride(from: worker, to: subjects.count, by: 8) {
        let match = pattern.match(subjects[index])
        results.withLock { $0[index] = match }
      }
    }
    #expect(results.withLock { $0 } == expected.map(Optional.some))
    #expect(expected.contains(.matched) && expected.contains(.notMatched))
  }
}
