import FlowPattern
import Testing

@Suite struct PatternAnalysisTests {
  /// Patterns that backtrack catastrophically, each with the repeated group reported and the
  /// part inside it that makes it ambiguous.
  @Test(arguments: [
    ("(a+)+", "(a+)+", "a+", BacktrackingRisk.Reason.nestedRepetition),
    ("^(a+)+$", "(a+)+", "a+", .nestedRepetition),
    ("^(a+)+b$", "(a+)+", "a+", .nestedRepetition),
    ("(a*)*", "(a*)*", "a*", .nestedRepetition),
    ("(a|a)*", "(a|a)*", "a|a", .overlappingAlternatives),
    (#"(\w+\s?)+$"#, #"(\w+\s?)+"#, #"\w+"#, .nestedRepetition),
    (#"^(\d+)*$"#, #"(\d+)*"#, #"\d+"#, .nestedRepetition),
    (#"(.|\s)*"#, #"(.|\s)*"#, #".|\s"#, .overlappingAlternatives),
    (#"^(\w|\d)+$"#, #"(\w|\d)+"#, #"\w|\d"#, .overlappingAlternatives),
    (#"^\w+([.-]?\w+)*@\w+\.\w+$"#, #"([.-]?\w+)*"#, #"\w+"#, .nestedRepetition),
    (
      #"^(https?:\/\/)?([\da-z\.-]+)\.([a-z\.]{2,6})([\/\w \.-]*)*\/?$"#, #"([\/\w \.-]*)*"#, #"[\/\w \.-]*"#,
      .nestedRepetition
    ),
    ("^(?:a{1,3})+$", "(?:a{1,3})+", "a{1,3}", .nestedRepetition),
    ("^((ab)+)+$", "((ab)+)+", "(ab)+", .nestedRepetition),
    (#"^(\d+(\.\d+)?)+$"#, #"(\d+(\.\d+)?)+"#, #"\d+"#, .nestedRepetition),
    ("^(?:[a-z]+|[0-9]+)*$", "(?:[a-z]+|[0-9]+)*", "[a-z]+", .nestedRepetition),
    ("^(?:(a+)+)+$", "(?:(a+)+)+", "(a+)+", .nestedRepetition),
    (#"^([a-z]+\u0020?){2,}$"#, #"([a-z]+\u0020?){2,}"#, "[a-z]+", .nestedRepetition),
    ("(?i)^(?:[a-z]|A)+$", "(?:[a-z]|A)+", "[a-z]|A", .overlappingAlternatives),
  ])
  func riskyPatterns(pattern: String, group: String, part: String, reason: BacktrackingRisk.Reason) throws {
    let syntax = try #require(PatternSyntax(pattern))
    let risks = syntax.backtrackingRisks
    try #require(risks.count == 1)
    #expect(syntax.text(risks[0].group) == group)
    #expect(syntax.text(risks[0].part) == part)
    #expect(risks[0].reason == reason)
  }

  /// Common patterns that are safe: nothing to report.
  @Test(arguments: [
    #"^[A-Z]{2}\d{4}$"#,
    #"^\d{5}(-\d{4})?$"#,
    #"^(?=.*[A-Z])(?=.*\d).{8,}$"#,
    #"^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$"#,
    #"^[^\s@]+@[^\s@]+\.[^\s@]+$"#,
    #"^[\w.+-]+@([\w-]+\.)+[a-zA-Z]{2,}$"#,
    #"^(([^<>()\[\]\\.,;:\s@"]+(\.[^<>()\[\]\\.,;:\s@"]+)*)|(".+"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}])|(([a-zA-Z\-0-9]+\.)+[a-zA-Z]{2,}))$"#,
    "^[a-z0-9]+(?:-[a-z0-9]+)*$",
    #"^\+?[0-9 ()-]{7,20}$"#,
    #"^(\d{3}-?){2}\d{4}$"#,
    #"^(?:[01]\d|2[0-3]):[0-5]\d$"#,
    "^#?([a-fA-F0-9]{6}|[a-fA-F0-9]{3})$",
    #"(.|\n)*"#,
    "^(a|b|c)+$",
    "[^0-9]+",
    "^(?>a+)+$",
    "^(a++)+$",
    #"^\d+(,\d{3})*(\.\d+)?$"#,
    "^([A-Za-z]+ )*[A-Za-z]+$",
    "^(ab|ac)*$",
    "^(a|ab)*$",
    #"^(?:\p{L}+ )*\p{L}+$"#,
  ])
  func safePatterns(pattern: String) throws {
    let syntax = try #require(PatternSyntax(pattern))
    #expect(syntax.backtrackingRisks == [])
  }

  /// Constructs the parser leaves to PCRE2 alone: no tree, so nothing is reported.
  @Test(arguments: ["(?x) (a+)+", "(a+)+(?R)", "(?(1)a|b)", "(?C1)a", "(*atomic:a+)+", "(?1)(a)"])
  func unsupportedSyntaxIsNotAnalysed(pattern: String) {
    #expect(PatternSyntax(pattern) == nil)
  }

  @Test func nestingBeyondPCRE2sLimitIsNotParsed() {
    #expect(PatternSyntax(String(repeating: "(", count: 250) + String(repeating: ")", count: 250)) != nil)
    #expect(PatternSyntax(String(repeating: "(", count: 251) + String(repeating: ")", count: 251)) == nil)
  }

  /// Answers built for `paths`: the first candidate that matches, or nil.
  @Test(
    arguments: [
      ("^(a+)+b$", 0...Int.max, "ab" as String?),
      (#"^[A-Z]{2}\d{4}$"#, 0...Int.max, "AA0000"),
      ("[^0-9]+", 0...Int.max, "a"),
      ("[^0-9]+", 5...10, "aaaaa"),
      (#"^(?=.*[A-Z])(?=.*\d).{8,}$"#, 0...Int.max, "A0aaaaaaaa"),
      (#"^\d{5}(-\d{4})?$"#, 0...Int.max, "00000"),
      (#"^(?!000)\d{3}$"#, 0...Int.max, "111"),
      (#"^[\w.+-]+@([\w-]+\.)+[a-zA-Z]{2,}$"#, 0...Int.max, "a@a.aa"),
      (#"^(?<y>\d{2})-\k<y>$"#, 0...Int.max, "00-00"),
      ("^(?:yes|no)$", 0...Int.max, "yes"),
      (#"\Q*+\E"#, 0...Int.max, "*+"),
      ("[]", 0...Int.max, nil),
      ("a(?!)", 0...Int.max, nil),
      ("(a)(?1)", 0...Int.max, nil),
    ] as [(String, ClosedRange<Int>, String?)])
  func examples(pattern: String, lengths: ClosedRange<Int>, expected: String?) throws {
    let compiled = try Pattern(pattern)
    let example = compiled.example(lengths: lengths)
    #expect(example == expected)
    if let example { #expect(compiled.match(example) == .matched) }
  }

  /// Whatever the pattern, building an example tries a bounded number of candidates.
  @Test(arguments: [#"^(\w+\s?)+$"#, "^(a|a)*$", "((a{100}){100}){10}", "(?:a{65535}){2}", "((a{1,1000}){1,1000})b"])
  func examplesOfPathologicalPatternsEnd(pattern: String) throws {
    let example = try Pattern(pattern).example(lengths: 0...50)
    if let example { #expect(try Pattern(pattern).match(example) == .matched) }
  }
}
