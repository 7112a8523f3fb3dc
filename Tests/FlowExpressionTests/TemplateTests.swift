import FlowExpression
import Testing

@Suite struct TemplateTests {
  @Test(
    arguments: [
      // The spec's examples, exactly.
      ("{hours_per_day * 365}", ["hours_per_day": 2] as [String: Value], "730"),
      ("{minutes_saved * 365 / 60}", ["minutes_saved": 30], "182.5"),
      ("{value * 2 | number}", ["value": 1_234_567], "2,469,134"),
    ] as [(String, [String: Value], String)])
  func specExamples(template: String, data: [String: Value], expected: String) {
    let rendering = Template(parsing: template).render(in: data)
    #expect(rendering.text == expected)
    #expect(rendering.issues.isEmpty)
  }

  // (template, rendered text, issue messages)
  @Test(
    arguments: [
      ("Hi {name}!", "Hi sam!", [String]()),
      ("Hi {name | capitalize}, {goal | upper} {goal | lower}", "Hi Sam, BUILD build", []),
      ("{ name }", "sam", []),
      ("Hi {missing}!", "Hi {missing}!", ["missing variable 'missing'"]),
      ("{missing | upper}", "{missing | upper}", ["missing variable 'missing'"]),
      ("Hi {missing | default: 'friend'}", "Hi friend", []),
      ("Hi {missing | upper | default: 'friend'}", "Hi friend", []),
      ("{empty_text | default: 'x'}{nothing | default: 'y'}{no_tags | default: 'z'}", "xyz", []),
      ("{name | default: 'x'}", "sam", []),
      ("{$user.name | default: $user.id}", "u1", []),
      ("{missing | default: other}", "{missing | default: other}", ["missing variable 'other'"]),
      ("\\{name} and {name}", "{name} and sam", []),
      ("{age / zero} days", "{age / zero} days", ["division by zero"]),
      ("{tags}", "a, b", []),
      ("{tags | join: ' / '}", "a / b", []),
      ("{tags | join}", "a, b", []),
      ("{tags | upper}", "A, B", []),
      ("{1 / 3}", "0.3333333333333333", []),
      ("{182.456 | round: 1} {2.5 | round} {1234.5678 | number}", "182.5 3 1,234.568", []),
      ("{age_text | number}", "30", []),
      ("{name | number}", "{name | number}", ["filter 'number' needs a number, not a string"]),
      // Syntax-error columns count within the braces, like the expression parser's.
      ("a { b c } d", "a { b c } d", ["unexpected 'c' at column 4"]),
      ("{}", "{}", ["unexpected end of expression at column 1"]),
      (
        "{name | shout}", "{name | shout}",
        [
          "unknown filter 'shout' at column 8 (known: number, round, upper, lower, capitalize, default, join)"
        ]
      ),
      (
        "{name | default}", "{name | default}",
        ["filter 'default' needs an argument ('default: x') at column 8"]
      ),
      ("{name | upper: 1}", "{name | upper: 1}", ["filter 'upper' takes no argument at column 8"]),
      ("unclosed {name", "unclosed {name", []),
      ("{{name}}", "{sam}", []),
      ("closing } alone", "closing } alone", []),
      ("{'}' + name}", "}sam", []),
      ("{name | default: '|'}", "sam", []),
      ("{flag || missing}", "true", []),
      ("{goal == 'build' && age >= 18}", "true", []),
      ("{$variant.onb_length} on {$platform}", "short on ios", []),
      ("{nothing}", "", []),
      ("no braces", "no braces", []),
      ("", "", []),
      ("Save {minutes_saved * 365 / 60 | round} hours, é {name}", "Save 183 hours, é sam", []),
    ] as [(String, String, [String])])
  func renders(template: String, expected: String, issues: [String]) {
    let rendering = Template(parsing: template).render(in: sampleData)
    #expect(rendering.text == expected)
    #expect(rendering.issues.map(\.message) == issues)
  }

  @Test func issuesCarryTheBracedSourceAndOffset() {
    let rendering = Template(parsing: "é {missing}").render(in: sampleData)
    #expect(
      rendering.issues == [
        TemplateIssue(source: "{missing}", offset: 3, message: "missing variable 'missing'")
      ])
    #expect(rendering.issues[0].description == "{missing}: missing variable 'missing'")
  }

  @Test func variableNamesIncludeFilterArguments() {
    let template = Template(parsing: "{a + b} {c | default: d} {x y} \\{e}")
    #expect(template.variableNames == ["a", "b", "c", "d"])
    #expect(template.syntaxIssues.map(\.source) == ["{x y}"])
    #expect(!template.isConstant)
    #expect(Template(parsing: "plain \\{x}").isConstant)
  }

  @Test func segments() {
    let template = Template(parsing: "a {b} {c d}")
    #expect(template.segments.count == 4)
    guard case .interpolation(let interpolation) = template.segments[1] else {
      Issue.record("expected an interpolation")
      return
    }
    #expect(interpolation.source == "{b}")
    #expect(interpolation.offset == 2)
    guard case .invalid(let source, let offset, _) = template.segments[3] else {
      Issue.record("expected an invalid segment")
      return
    }
    #expect(source == "{c d}")
    #expect(offset == 6)
  }
}

/// Templates keep their literal runs and braces as ranges of the text: the segments built from
/// them are the text's pieces in order, with `\{` read as `{` only where the parse reads it so.
@Suite struct TemplatePiecesTests {
  enum Piece: Equatable, CustomStringConvertible {
    case text(String)
    case braces(String, Int)
    case invalid(String, Int)
    var description: String {
      switch self {
      case .text(let text): "text(\(text))"
      case .braces(let text, let offset): "braces(\(text)@\(offset))"
      case .invalid(let text, let offset): "invalid(\(text)@\(offset))"
      }
    }
  }

  static let cases: [(String, [Piece])] = [
    ("", []),
    ("plain", [.text("plain")]),
    ("open { only", [.text("open { only")]),
    ("{x}", [.braces("{x}", 0)]),
    ("a {x} b", [.text("a "), .braces("{x}", 2), .text(" b")]),
    ("{x}{y}", [.braces("{x}", 0), .braces("{y}", 3)]),
    ("\\{x}", [.text("{x}")]),
    ("a \\{x} {y} \\{z", [.text("a {x} "), .braces("{y}", 7), .text(" {z")]),
    ("\\\\{x}", [.text("\\{x}")]),
    ("\\{{x}", [.text("{"), .braces("{x}", 2)]),
    ("a\\b {x y} c\\", [.text("a\\b "), .invalid("{x y}", 4), .text(" c\\")]),
    ("{ y == 'a}' } é {x}", [.braces("{ y == 'a}' }", 0), .text(" é "), .braces("{x}", 17)]),
    ("{a {b}", [.text("{a "), .braces("{b}", 3)]),
    ("ü {x}ü", [.text("ü "), .braces("{x}", 3), .text("ü")]),
  ]

  @Test(arguments: cases)
  func segmentsAreThePiecesInOrder(_ text: String, _ expected: [Piece]) {
    let template = Template(parsing: text)
    let pieces: [Piece] = template.segments.map {
      switch $0 {
      case .text(let text): .text(text)
      case .interpolation(let interpolation): .braces(interpolation.source, interpolation.offset)
      case .invalid(let source, let offset, _): .invalid(source, offset)
      }
    }
    #expect(pieces == expected)
    // Rendered with every name missing, each piece shows as written (braces included).
    let shown = expected.map {
      switch $0 {
      case .text(let text), .braces(let text, _), .invalid(let text, _): text
      }
    }
    #expect(template.render(in: [String: Value]()).text == shown.joined())
    var interpolations: [String] = []
    template.forEachInterpolation { interpolations.append($0.source) }
    #expect(interpolations == expected.compactMap { if case .braces(let text, _) = $0 { text } else { nil } })
    // Plain: nothing to interpolate or report, and no `\{` to turn into `{`.
    let plain = expected.allSatisfy { if case .text = $0 { true } else { false } } && !text.contains("\\{")
    #expect(template.isPlainText == plain)
  }
}
