import Foundation
import Testing
import _FlowTestSupport

/// AppDNA block bindings, the localization keys of lists, dividers and toggle descriptions,
/// the blocks shown as text (timeline, gauge, rating, pricing card, social login, date wheel,
/// range) and the value shapes of date, time, datetime, color and range inputs, on the built
/// binary (docs/dialects/appdna.md, "Blocks", "Bindings", "Localization", "Form fields").
@Suite struct AppDNABlockTests {
  static let bound = """
    {"id": "f", "steps": [
     {"id": "s1", "type": "form", "config": {"fields": [{"id": "name", "type": "text", "label": "Name"}]}},
     {"id": "s2", "type": "custom", "config": {"content_blocks": [
       {"id": "h", "type": "heading", "text": "Hello there", "bindings": {"text": "responses.s1.name"}},
       {"id": "v", "type": "text", "text": "Shown when bound", "bindings": {"text": "onboarding.s1.nick"},
        "visibility_condition": {"type": "binding_not_empty", "binding": "text"}},
       {"id": "i", "type": "input_text", "field_id": "nick", "field_label": "Nickname",
        "bindings": {"field_label": "responses.s1.name"}},
       {"id": "l", "type": "list", "items": ["One", "Two {{user.x | two}}"], "list_style": "numbered"},
       {"id": "d", "type": "divider", "divider_text": "or"},
       {"id": "t", "type": "toggle", "toggle_label": "News", "toggle_description": "Weekly mail"},
       {"id": "b", "type": "button", "text": "Go"}],
       "localizations": {"fr": {"block.l.item.1": "Deux", "block.d.divider": "ou",
         "block.t.description": "Courriel hebdo", "block.t.label": "Nouvelles"}}}}
    ]}
    """

  @Test(arguments: [
    (
      [String](), "Ada\n", ["Ada\n═══", "Ada\n  > ", "1. One", "2. Two two", "── or ──", "[off] News", "Weekly mail"],
      ["Hello there", "Shown when bound", "Nickname"]
    ),
    ([], "\n", ["Hello there\n═══", "Nickname"], ["Shown when bound"]),
    (
      ["--locale", "fr_FR"], "\n", ["2. Deux", "── ou ──", "[off] Nouvelles", "Courriel hebdo"], ["Two two", "Weekly"]
    ),
    // iOS 1.0.70 renders blocks with an empty context: no binding resolves, and
    // binding_not_empty is no type it knows (visible).
    (["--ios-quirks"], "Ada\n", ["Hello there\n═══", "Shown when bound", "Nickname"], ["Ada\n═══"]),
  ])
  func bindingsAndLocalizationKeys(_ flags: [String], _ answers: String, _ shown: [String], _ hidden: [String]) throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file("f.json", contents: Self.bound)
    // The input ends on s2: the session ends there (end_of_input).
    let result = try runFlowrun(["run", flow, "--width", "60"] + flags, stdin: answers + "1\n")
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    let screen = result.stdout.components(separatedBy: "── s2").last ?? ""
    for line in shown { #expect(screen.contains(line), "\(flags) shows '\(line)'\n\(screen)") }
    for line in hidden { #expect(!screen.contains(line), "\(flags) hides '\(line)'\n\(screen)") }
  }

  /// A binding of a property flowrun does not show as text is reported, not silently dropped.
  @Test func bindingOfAPropertyNotShownAsTextIsReported() throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file(
      "f.json",
      contents: """
        {"id": "f", "steps": [{"id": "s", "type": "custom", "config": {"content_blocks": [
          {"id": "img", "type": "image", "image_url": "a.png", "bindings": {"image_url": "user.avatar"}},
          {"id": "go", "type": "button", "text": "Go"}]}}]}
        """)
    let result = try runFlowrun(["check", flow])
    #expect(result.stdout.contains("binding of 'image_url' does not run"), "\(result.stdout)")
    #expect(result.stdout.contains("[appdna.not-run-yet]"))
  }

  /// What a form field or an input block stores for an entry, or the message it is refused with.
  @Test(arguments: [
    (#"{"id": "x", "type": "time", "label": "X"}"#, "07:30", "x: 07:30"),
    (#"{"id": "x", "type": "time", "label": "X"}"#, "7:30", "! X: Enter a valid time (HH:MM)"),
    (#"{"id": "x", "type": "datetime", "label": "X"}"#, "2026-02-03 10:00", "x: 2026-02-03T10:00:00"),
    (#"{"id": "x", "type": "datetime", "label": "X"}"#, "2026-02-30T10:00", "! X: Enter a valid date and time"),
    (#"{"id": "x", "type": "color", "label": "X"}"#, "ff6b6b", "x: #FF6B6B"),
    (#"{"id": "x", "type": "color", "label": "X"}"#, "#ff6b6b80", "x: #FF6B6B80"),
    (#"{"id": "x", "type": "color", "label": "X"}"#, "red", "! X: Enter a color as #RRGGBB or #RRGGBBAA"),
    (
      #"{"id": "x", "type": "range_slider", "label": "X", "config": {"max_value": 500}}"#, "100-300",
      "x: {'low': 100, 'high': 300}"
    ),
    (
      #"{"id": "x", "type": "range_slider", "label": "X", "config": {"max_value": 500}}"#, "300-100",
      "! field 'x' takes a range whose low 300 is not above its high"
    ),
    (
      #"{"id": "x", "type": "range_slider", "label": "X", "config": {"max_value": 500}}"#, #"{"low": 1, "high": 600}"#,
      "! field 'x' goes up to 500, not 600"
    ),
  ])
  func formFieldValueShape(_ field: String, _ entry: String, _ expected: String) throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file(
      "f.json", contents: #"{"id": "f", "steps": [{"id": "s", "type": "form", "config": {"fields": [\#(field)]}}]}"#)
    let result = try runFlowrun(["run", flow, "--width", "60"], stdin: entry + "\n1\n")
    #expect(result.stdout.contains(expected), "\(result.stdout)")
  }

  @Test(arguments: [
    (#"{"id": "b", "type": "input_time", "field_id": "x"}"#, "09:30", "x: 2026-03-01T09:30:00Z"),
    (#"{"id": "b", "type": "input_date", "field_id": "x"}"#, "1990-05-14", "x: 1990-05-14T00:00:00Z"),
    (#"{"id": "b", "type": "input_datetime", "field_id": "x"}"#, "1990-05-14T08:15", "x: 1990-05-14T08:15:00Z"),
    (#"{"id": "x", "type": "date_wheel_picker", "picker_mode": "time"}"#, "23:59", "x: 2026-03-01T23:59:00Z"),
    (
      #"{"id": "x", "type": "input_range_slider", "min_value": 10, "max_value_picker": 90}"#, "",
      "x: {'min': 10, 'max': 90}"
    ),
    (#"{"id": "x", "type": "input_range_slider", "max_value_picker": 90}"#, "20..80", "x: {'min': 20, 'max': 80}"),
  ])
  func inputBlockValueShape(_ block: String, _ entry: String, _ expected: String) throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file(
      "f.json",
      contents: #"{"id": "f", "steps": [{"id": "s", "type": "custom", "config": {"content_blocks": [\#(block), "#
        + #"{"id": "go", "type": "button", "text": "Go"}]}}]}"#)
    let result = try runFlowrun(
      ["run", flow, "--width", "60", "--now", "2026-03-01T12:00:00Z"], stdin: entry + "\n1\n")
    #expect(result.stdout.contains(expected), "\(result.stdout)")
  }

  static let blocks = """
    {"id": "f", "steps": [
     {"id": "s", "type": "custom", "config": {"content_blocks": [
       {"id": "bg", "type": "star_background", "particle_type": "stars"},
       {"id": "tl", "type": "timeline", "timeline_items": [{"title": "Sign up", "status": "completed"},
         {"title": "Plan", "subtitle": "today", "status": "current"}, {"title": "Goal"}]},
       {"id": "g", "type": "circular_gauge", "gauge_value": 70, "max_value": 100, "sublabel": "fit"},
       {"id": "r", "type": "rating", "max_stars": 5, "allow_half": true, "rating_label": "Rate us"},
       {"id": "dob", "type": "date_wheel_picker", "field_id": "birthday"},
       {"id": "plan", "type": "pricing_card", "pricing_plans": [
         {"id": "m", "name": "Monthly", "price": "$9", "period": "month"},
         {"id": "y", "name": "Yearly", "price": "$60", "period": "year", "badge": "Best"}]},
       {"id": "sl", "type": "social_login", "providers": [{"type": "apple"}, {"type": "google", "enabled": false},
         {"type": "email", "label": "Use email"}]},
       {"id": "later", "type": "button", "text": "Later", "action": "skip"}]}}
    ]}
    """

  @Test func blocksShownAsTextCollectAndSignIn() throws {
    let directory = try TemporaryDirectory()
    directory.file("f.json", contents: Self.blocks)
    let check = try runFlowrun(["check", directory.path + "/f.json"])
    #expect(check.stdout.contains("no problems"), "\(check.stdout)")
    let render = try runFlowrun(["render", directory.path + "/f.json", "--width", "60"])
    for line in [
      "✓ Sign up", "● Plan — today", "○ Goal", "◔ 70/100 fit", "Rate us", "Monthly · $9 / month",
      "Yearly · $60 / year [Best]", "[1] Continue with Apple", "[2] Use email",
    ] {
      #expect(render.stdout.contains(line), "shows '\(line)'\n\(render.stdout)")
    }
    #expect(!render.stdout.contains("Google") && !render.stdout.contains("star_background"), "\(render.stdout)")
    let script = directory.file(
      "f.flow-test.yaml",
      contents: """
        flow: f.json
        now: '2026-01-01T00:00:00.000Z'
        steps:
          - fill: {r: 4.5, birthday: '1990-05-14', plan: y}
          - tap: Use email
          - result: {status: success}
        expect:
          completed: true
          data: {r: 4.5, birthday: '1990-05-14T00:00:00Z', plan: y, provider: email}
          exact: true
          events:
            - {event_type: onboarding_step_completed, properties: {selection_data: {r: 4.5, birthday: '1990-05-14T00:00:00Z', plan: y, provider: email}}}

        """)
    let result = try runFlowrun(["test", script])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }

  /// `paths` emits scripts whose sampled answers every new kind accepts, and they pass;
  /// `simulate` answers them too.
  @Test func pathsAndSimulateAnswerEveryNewKind() throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file(
      "f.json",
      contents: """
        {"id": "f", "steps": [
         {"id": "s1", "type": "form", "config": {"fields": [
           {"id": "wake", "type": "time", "label": "Wake", "required": true},
           {"id": "when", "type": "datetime", "label": "When", "required": true},
           {"id": "tint", "type": "color", "label": "Tint", "required": true},
           {"id": "budget", "type": "range_slider", "label": "Budget", "required": true,
            "config": {"min_value": 50, "max_value": 500}},
           {"id": "born", "type": "date", "label": "Born", "required": true, "config": {"max_date": "1970-01-01"}}]}},
         {"id": "s2", "type": "custom", "config": {"content_blocks": [
           {"id": "span", "type": "input_range_slider", "min_value": 10, "max_value_picker": 90},
           {"id": "at", "type": "input_datetime", "field_id": "at", "field_required": true},
           {"id": "next", "type": "date_wheel_picker", "allow_past": false, "field_required": true},
           {"id": "sl", "type": "social_login", "providers": [{"type": "apple"}]}]}}
        ]}
        """)
    let emit = try runFlowrun(["paths", flow, "--emit", directory.path + "/emitted"])
    #expect(emit.status == 0, "\(emit.stdout)\(emit.stderr)")
    let replay = try runFlowrun(["test", directory.path + "/emitted"])
    #expect(replay.status == 0 && replay.stdout.contains("0 failed"), "\(replay.stdout)\(replay.stderr)")
    let simulate = try runFlowrun(["simulate", flow, "--users", "50"])
    #expect(simulate.status == 0, "\(simulate.stderr)")
    for answer in [
      "tint: #FF6B6B", "wake: 09:30", "budget: {'low': 50, 'high': 500}", "provider: apple", "born: 1970-01-01",
      "next: 2099-01-01T00:00:00Z",
    ] {
      #expect(simulate.stdout.contains(answer), "answers '\(answer)'\n\(simulate.stdout)")
    }
  }

  /// A form date's `min_date`/`max_date` and a date block's `allow_past`/`allow_future` (against
  /// the virtual clock's day) with its `date_validation_message`, else the SDK's message.
  @Test(arguments: [
    (
      #"{"id": "x", "type": "date", "label": "X", "config": {"max_date": "2013-01-01"}}"#, "2015-01-01",
      "! X: Choose a date on or before 2013-01-01"
    ),
    (
      #"{"id": "x", "type": "date", "label": "X", "config": {"min_date": "2000-01-01"}}"#, "2015-01-01", "x: 2015-01-01"
    ),
    (
      #"{"id": "x", "type": "input_date", "allow_past": false, "date_validation_message": "Ahead, please"}"#,
      "2026-02-01", "! x: Ahead, please"
    ),
    (
      #"{"id": "x", "type": "date_wheel_picker", "allow_future": false}"#, "2026-04-01",
      "! x: Future dates are not allowed"
    ),
    (#"{"id": "x", "type": "date_wheel_picker", "allow_future": false}"#, "2026-02-01", "x: 2026-02-01T00:00:00Z"),
  ])
  func dateBounds(_ input: String, _ entry: String, _ expected: String) throws {
    let directory = try TemporaryDirectory()
    let step =
      input.contains(#""label""#)
      ? #"{"id": "s", "type": "form", "config": {"fields": [\#(input)]}}"#
      : #"{"id": "s", "type": "custom", "config": {"content_blocks": [\#(input), {"id": "go", "type": "button", "text": "Go"}]}}"#
    let flow = directory.file("f.json", contents: #"{"id": "f", "steps": [\#(step)]}"#)
    let result = try runFlowrun(
      ["run", flow, "--width", "70", "--now", "2026-03-01T12:00:00Z"], stdin: entry + "\n1\n")
    #expect(result.stdout.contains(expected), "\(result.stdout)")
  }
}
