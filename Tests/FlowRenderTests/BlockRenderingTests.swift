import FlowEngine
import FlowExpression
import FlowFormat
import FlowRender
import FlowSupport
import Testing

@Suite struct BlockRenderingTests {
  @Test(arguments: [
    ("h1", "Get your time back\n══════════════════\n"),
    ("h2", "Get your time back\n──────────────────\n"),
    ("h3", "▸ Get your time back\n"),
    ("body", "Get your time back\n"),
    ("caption", "Get your time back\n"),
    ("label", "Get your time back\n"),
    ("shout", "Get your time back\n"),
  ])
  func textVariants(variant: String, expected: String) throws {
    let s = try session(blocks: [block("t", "text", #"{"text": "Get your time back", "variant": "\#(variant)"}"#)])
    #expect(body(s) == expected)
  }

  @Test func headingUnderlineMatchesWidestWrappedLine() throws {
    let s = try session(blocks: [
      block("t", "text", #"{"text": "Nice to meet you, friend. How many hours a day?", "variant": "h1"}"#)
    ])
    #expect(body(s, width: 24) == "Nice to meet you,\nfriend. How many hours a\nday?\n════════════════════════\n")
  }

  @Test func richTextIsStyledOnlyWithColor() throws {
    let s = try session(blocks: [
      block(
        "t", "text",
        #"{"richText": [{"text": "Short, "}, {"text": "built around you", "bold": true}, {"text": ". Go", "italic": true}]}"#
      )
    ])
    #expect(body(s) == "Short, built around you. Go\n")
    let colored = body(s, color: true)
    #expect(colored.contains("\u{1B}[1mbuilt around you\u{1B}[0m"))
    #expect(colored.contains("\u{1B}[3m. Go\u{1B}[0m"))
    #expect(stripANSI(colored) == body(s))
  }

  @Test func templatesAreFilled() throws {
    let doc = flowJSON([
      blockScreen("s", [block("t", "text", #"{"text": "Hi {name}, {hours * 365} hours"}"#)])
    ])
    var s = try session(doc)
    _ = s.send(.setVariable(name: "name", value: "Alex"))
    _ = s.send(.setVariable(name: "hours", value: 2))
    #expect(body(s) == "Hi Alex, 730 hours\n")
  }

  @Test(arguments: [
    (
      #"{"id": "m", "type": "image", "content": {"src": "https://x.test/a/hero.png?w=2", "alt": "A runner"}}"#,
      "[image: A runner]\n"
    ),
    (#"{"id": "m", "type": "image", "content": {"src": "https://x.test/a/hero.png?w=2"}}"#, "[image: hero.png]\n"),
    (#"{"id": "m", "type": "video", "content": {"src": "tour.mp4"}}"#, "[video: tour.mp4]\n"),
    (#"{"id": "m", "type": "lottie", "content": {}}"#, "[lottie]\n"),
    (#"{"id": "m", "type": "icon", "content": {"icon": "🏃"}}"#, "🏃\n"),
    (
      #"{"id": "m", "type": "custom", "content": {"identifier": "integration-logos"}}"#, "[custom: integration-logos]\n"
    ),
    (#"{"id": "m", "type": "hologram", "content": {}}"#, "[unsupported block: hologram]\n"),
  ])
  func placeholders(json: String, expected: String) throws {
    let s = try session(blocks: [json])
    #expect(body(s) == expected)
  }

  @Test func buttonsAreNumberedAsSessionActions() throws {
    // skipText lives in the screen content, so the screen is written out.
    let json = flowJSON([
      """
      {"id": "s", "name": "s", "type": "feature", "order": 0, "content": {"useBlocks": true, "skipText": "Not now",
       "blocks": [\(block("intro", "text", #"{"text": "Pick"}"#)), \(block("b1", "button", #"{"text": "Apple"}"#)),
       \(block("hidden", "button", #"{"text": "Hidden"}"#, extra: #""visible": false"#)),
       \(block("b2", "button", #"{"text": "Google"}"#)), \(block("note", "text", #"{"text": "or"}"#)),
       \(block("b3", "button", #"{"text": "Email"}"#))]}}
      """
    ])
    let s = try session(json)
    #expect(body(s) == "Pick\n\n[1] Apple\n[2] Google\n\nor\n\n[3] Email\n[4] Not now\n")
    for entry in s.actions {
      #expect(body(s).contains("[\(entry.number)] \(entry.label)\n"))
    }
  }

  @Test func longButtonLabelsHangUnderTheNumber() throws {
    let s = try session(blocks: [block("b", "button", #"{"text": "Continue with a very long label indeed"}"#)])
    #expect(body(s, width: 20) == "[1] Continue with a\n    very long label\n    indeed\n")
  }

  @Test func inputShowsLabelPlaceholderAndValue() throws {
    var s = try session(blocks: [
      block(
        "n", "input", #"{"fieldName": "name", "label": "First name", "placeholder": "e.g. Alex", "required": true}"#),
      block("p", "input", #"{"fieldName": "pw", "label": "Password", "inputType": "password"}"#),
      block("x", "input", #"{"fieldName": "other"}"#),
    ])
    #expect(body(s) == "First name *\n  > (e.g. Alex)\n\nPassword\n  > ____________\n\nother\n  > ____________\n")
    _ = s.send(.set(field: "name", value: "Alex"))
    _ = s.send(.set(field: "pw", value: "secret"))
    // A secret shows as four dots whatever its length (the length is not shown either).
    #expect(body(s) == "First name *\n  > Alex\n\nPassword\n  > ••••\n\nother\n  > ____________\n")
  }

  @Test func checklists() throws {
    let items =
      #"[{"id": "a", "label": "Strength"}, {"id": "b", "label": "Cardio", "value": "cardio_v"}, {"id": "c", "label": "Yoga"}]"#
    var s = try session(blocks: [
      block(
        "m", "checklist",
        #"{"fieldName": "multi", "label": "Train", "allowMultiple": true, "maxSelections": 2, "items": \#(items)}"#),
      block("o", "quiz-question", #"{"fieldName": "single", "items": \#(items), "required": true}"#),
    ])
    _ = s.send(.set(field: "multi", value: ["a", "cardio_v"]))
    _ = s.send(.set(field: "single", value: "c"))
    #expect(
      body(s) == """
        Train (choose up to 2)
          1. [x] Strength
          2. [x] Cardio
          3. [ ] Yoga

        (required)
          1. ( ) Strength
          2. ( ) Cardio
          3. (•) Yoga

        """)
  }

  @Test func checklistNumbersAlignPastNine() throws {
    let items = (1...10).map { #"{"id": "i\#($0)", "label": "Item \#($0)"}"# }.joined(separator: ",")
    let s = try session(blocks: [block("m", "checklist", #"{"fieldName": "f", "items": [\#(items)]}"#)])
    let lines = body(s).split(separator: "\n")
    #expect(lines.first == "   1. ( ) Item 1")
    #expect(lines.last == "  10. ( ) Item 10")
  }

  @Test func sliderScale() throws {
    var s = try session(blocks: [
      block(
        "h", "slider",
        #"{"fieldName": "hours", "label": "Hours per day", "min": 0, "max": 8, "defaultValue": 2, "valueSuffix": " h"}"#
      )
    ])
    #expect(body(s) == "Hours per day\n  0 ─────●────────────── 8   2 h\n")
    _ = s.send(.set(field: "hours", value: 0))
    #expect(body(s).contains("  0 ●─────────────────── 8   0 h\n"))
    _ = s.send(.set(field: "hours", value: 8))
    #expect(body(s).contains("  0 ───────────────────● 8   8 h\n"))
    expectFits(body(s, width: 20), width: 20)
  }

  @Test func sliderWithPrefixOnANarrowScreenPutsTheValueBelow() throws {
    let s = try session(blocks: [
      block(
        "b", "slider",
        #"{"fieldName": "budget", "min": 500, "max": 10000, "step": 100, "defaultValue": 2500, "valuePrefix": "$", "valueSuffix": " per month"}"#
      )
    ])
    let text = body(s, width: 20)
    #expect(text == "  500 ─●────── 10000\n  = $2500 per month\n")
    expectFits(text, width: 20)
  }

  @Test func toggles() throws {
    var s = try session(blocks: [
      block("a", "toggle", #"{"fieldName": "metric", "label": "Use metric units", "defaultValue": true}"#),
      block("b", "toggle", #"{"fieldName": "invite", "label": "Invite someone"}"#),
    ])
    #expect(body(s) == "[on] Use metric units\n\n[off] Invite someone\n")
    _ = s.send(.set(field: "invite", value: true))
    #expect(body(s).hasSuffix("[on] Invite someone\n"))
  }

  @Test func dividerSpacerAndFeatureCard() throws {
    let s = try session(blocks: [
      block("a", "text", #"{"text": "Above"}"#),
      block("d", "divider", "{}"),
      block("sp", "spacer", "{}"),
      block("c", "feature-card", #"{"headline": "Two minutes", "body": "Seven short questions."}"#),
    ])
    #expect(
      body(s, width: 30) == """
        Above

        ──────────────────────────────


        ┌────────────────────────────┐
        │ Two minutes                │
        │ Seven short questions.     │
        └────────────────────────────┘

        """)
    let wide = body(s, width: 120)
    for line in wide.split(separator: "\n") where line.hasPrefix("┌") || line.hasPrefix("│") {
      #expect(DisplayWidth.of(line) == 60)
    }
  }

  @Test func scrollContainerChildrenRenderInPlace() throws {
    let s = try session(blocks: [
      block("a", "text", #"{"text": "Top"}"#),
      block(
        "sc", "scroll-container",
        #"{"children": [{"id": "c1", "type": "text", "content": {"text": "Child one"}}, {"id": "c2", "type": "button", "content": {"text": "Inside"}}]}"#
      ),
      block("z", "button", #"{"text": "After"}"#),
    ])
    #expect(body(s) == "Top\n\nChild one\n\n[1] Inside\n[2] After\n")
  }

  @Test func hiddenBlocksAreNotDrawn() throws {
    var s = try session(blocks: [
      block("g", "toggle", #"{"fieldName": "more", "label": "More"}"#),
      block("t", "text", #"{"text": "Extra"}"#, extra: #""visibleWhen": "more == true""#),
      block("u", "text", #"{"text": "Never"}"#, extra: #""visible": false"#),
    ])
    #expect(!body(s).contains("Extra"))
    _ = s.send(.set(field: "more", value: true))
    #expect(body(s) == "[on] More\n\nExtra\n")
  }

  @Test func validationErrorsSitUnderTheirFields() throws {
    var s = try session(blocks: [
      block("n", "input", #"{"fieldName": "name", "label": "Name", "required": true}"#),
      block("e", "input", #"{"fieldName": "email", "label": "Email", "inputType": "email"}"#),
      block("go", "button", #"{"text": "Continue"}"#),
    ])
    _ = s.send(.set(field: "email", value: "nope"))
    _ = s.send(.tap(.number(1)))
    #expect(Array(s.validationErrors.map(\.key)) == ["name", "email"])
    let lines = body(s).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let nameError = try #require(lines.firstIndex { $0.hasPrefix("  ! ") })
    #expect(lines[nameError - 1] == "  > ____________")
    #expect(lines[nameError - 2] == "Name *")
    let emailError = try #require(lines.lastIndex { $0.hasPrefix("  ! ") })
    #expect(emailError > nameError)
    #expect(lines[emailError - 1] == "  > nope")
    #expect(lines.last { $0.hasPrefix("[1]") } == "[1] Continue")
    #expect(lines.firstIndex(of: "[1] Continue")! > emailError)
    let colored = body(s, color: true)
    #expect(colored.contains("\u{1B}[31m"))
  }
}
