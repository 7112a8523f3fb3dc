import FlowEngine
import FlowExpression
import FlowFormat
import Foundation
import Testing

/// AppDNA flows compiled by the loader and walked by the engine: the vectors of the AppDNA
/// design (§4) that the compiled model runs, each from a flow written in AppDNA's shapes.
@Suite struct AppDNAFlowTests {
  struct Walk: Sendable, CustomStringConvertible {
    var name: String
    /// The steps array (JSON) of a flow; `extra` goes next to it.
    var steps: String
    var extra: String = ""
    var inputs: [Input]
    var path: [String]
    var status: SessionStatus = .running

    var description: String { name }
  }

  static func load(_ json: String) -> LoadResult {
    FlowLoader.load(bytes: Array(json.utf8), file: "appdna.json")
  }

  static func flow(_ steps: String, extra: String = "") -> String {
    #"{"id": "f", "version": 2, \#(extra)"steps": \#(steps)}"#
  }

  static let threeWithPick = #"""
    [{"id": "s1", "type": "custom", "config": {"content_blocks": [
       {"id": "pick", "type": "input_select", "field_id": "pick",
        "field_options": [{"id": "opt_1", "value": "a"}, {"id": "opt_2", "value": "b"}]},
       {"id": "go", "type": "button"}],
       "next_step_rules": [{"target_step_id": "s3", "conditions": [{"type": "answer_equals", "answer_key": "pick", "value": "a"}]}]}},
     {"id": "s2", "type": "welcome"}, {"id": "s3", "type": "welcome"}]
    """#

  static let countdown = #"""
    [{"id": "s1", "type": "custom", "config": {"content_blocks": [
       {"id": "name", "type": "input_text", "field_required": true},
       {"id": "timer", "type": "countdown_timer", "duration_seconds": 3, "on_expire_action": "auto_advance"}]}},
     {"id": "s2", "type": "welcome"}]
    """#

  /// A form step with these fields (JSON), then a last step.
  static func formThenDone(_ fields: String) -> String {
    #"[{"id": "form", "type": "form", "config": {"fields": [\#(fields)]}}, {"id": "done", "type": "welcome"}]"#
  }

  /// V11's form: the company is asked only of the employed, and is required then.
  static let employmentForm = formThenDone(
    #"""
    {"id": "employment", "type": "select", "options": [{"id": "Employed"}, {"id": "Student"}]},
    {"id": "company_name", "type": "text", "required": true,
     "depends_on": {"field_id": "employment", "operator": "equals", "value": "Employed"}}
    """#)

  static let walks: [Walk] = [
    Walk(
      name: "V17 a rule's target when its condition holds", steps: threeWithPick,
      inputs: [.set(field: "pick", value: "a"), .next], path: ["s1", "s3"]),
    Walk(
      name: "V17 the next step in order when it does not", steps: threeWithPick,
      inputs: [.set(field: "pick", value: "b"), .next], path: ["s1", "s2"]),
    Walk(
      name: "V21 an option named by its id matches its stored value",
      steps: threeWithPick.replacingOccurrences(of: #""value": "a"}]}]"#, with: #""value": "opt_1"}]}]"#),
      inputs: [.set(field: "pick", value: "a"), .next], path: ["s1", "s3"]),
    Walk(
      name: "V20 previous_step_equals",
      steps: #"""
        [{"id": "s1", "type": "welcome"},
         {"id": "s2", "type": "welcome", "next_step_rules": [{"target_step_id": "s4", "conditions": [{"type": "previous_step_equals", "value": "s1"}]}]},
         {"id": "s3", "type": "welcome"}, {"id": "s4", "type": "welcome"}]
        """#,
      inputs: [.next, .next], path: ["s1", "s2", "s4"]),
    Walk(
      name: "V47 layout rules with conditions win over unconditioned root rules",
      steps: #"""
        [{"id": "s1", "type": "welcome", "next_step_rules": [{"target_step_id": "s3"}],
          "layout": {"next_step_rules": [{"target_step_id": "s2", "conditions": [{"type": "always"}]}]}},
         {"id": "s2", "type": "welcome"}, {"id": "s3", "type": "welcome"}]
        """#,
      inputs: [.next], path: ["s1", "s2"]),
    Walk(
      name: "root rules win when both lists have conditions",
      steps: #"""
        [{"id": "s1", "type": "welcome", "next_step_rules": [{"target_step_id": "s3", "conditions": ["always"]}],
          "layout": {"next_step_rules": [{"target_step_id": "s2", "conditions": [{"type": "always"}]}]}},
         {"id": "s2", "type": "welcome"}, {"id": "s3", "type": "welcome"}]
        """#,
      inputs: [.next], path: ["s1", "s3"]),
    Walk(
      name: "an unknown condition type passes",
      steps: #"""
        [{"id": "s1", "type": "welcome", "next_step_rules": [{"target_step_id": "s3", "conditions": [{"type": "moon_phase"}]}]},
         {"id": "s2", "type": "welcome"}, {"id": "s3", "type": "welcome"}]
        """#,
      inputs: [.next], path: ["s1", "s3"]),
    Walk(
      name: "logic or",
      steps: threeWithPick.replacingOccurrences(
        of: #""conditions": [{"type": "answer_equals", "answer_key": "pick", "value": "a"}]"#,
        with:
          #""logic": "OR", "conditions": [{"type": "answer_equals", "answer_key": "pick", "value": "a"}, {"type": "not_empty", "answer_key": "pick"}]"#
      ),
      inputs: [.set(field: "pick", value: "b"), .next], path: ["s1", "s3"]),
    Walk(
      name: "V24 permission_ / screen_ / flow_ markers complete the flow",
      steps: #"""
        [{"id": "s1", "type": "welcome", "next_step_rules": [{"target_step_id": "permission_camera"}]},
         {"id": "s2", "type": "welcome"}]
        """#,
      inputs: [.next], path: ["s1"], status: .completed),
    Walk(
      name: "V19 an end node completes; an analytics node goes on to its next_target",
      steps: #"""
        [{"id": "s1", "type": "welcome", "next_step_rules": [{"target_step_id": "evt"}]},
         {"id": "s2", "type": "welcome", "next_step_rules": [{"target_step_id": "end1"}]},
         {"id": "s3", "type": "welcome"}]
        """#,
      extra: #""graph_nodes": {"evt": {"type": "analytics_event", "next_target": "s3"}, "end1": {"type": "end"}}, "#,
      inputs: [.next, .next], path: ["s1", "s3"], status: .completed),
    Walk(
      name: "an empty or unknown target skips the rule",
      steps: #"""
        [{"id": "s1", "type": "welcome", "next_step_rules": [{"target_step_id": ""}, {"target_step_id": "nowhere"}, {"target_step_id": "s3"}]},
         {"id": "s2", "type": "welcome"}, {"id": "s3", "type": "welcome"}]
        """#,
      inputs: [.next], path: ["s1", "s3"]),
    Walk(
      name: "V11 a hidden required field does not block",
      steps: employmentForm,
      inputs: [.set(field: "employment", value: "Student"), .next], path: ["form", "done"]),
    Walk(
      name: "V11 a shown required field blocks",
      steps: employmentForm,
      inputs: [.set(field: "employment", value: "Employed"), .next], path: ["form"]),
    Walk(
      name: "V10 the pattern is searched: an anchored pattern rejects a longer value",
      steps: formThenDone(
        #"""
         {"id": "code", "type": "text", "validation": {"pattern": "^[A-Z]{2}\\d{4}$"}}
        """#),
      inputs: [.set(field: "code", value: "AB12345"), .next], path: ["form"]),
    Walk(
      name: "V10 an unanchored pattern finds its match inside the value",
      steps: formThenDone(
        #"""
         {"id": "code", "type": "text", "validation": {"pattern": "[0-9]{3}"}}
        """#),
      inputs: [.set(field: "code", value: "ab123cd"), .next], path: ["form", "done"]),
    Walk(
      name: "number min/max are validated (document 001)",
      steps: formThenDone(
        #"""
         {"id": "age", "type": "number", "config": {"min_value": 13, "max_value": 120}}
        """#),
      inputs: [.set(field: "age", value: .number(9)), .next], path: ["form"]),
    Walk(
      name: "V44 a countdown's auto-advance runs the required gate: it stays while a required field is empty",
      steps: countdown, inputs: [.wait(ms: 3000)], path: ["s1"]),
    Walk(
      name: "V44 and submits the step once the field holds a value",
      steps: countdown, inputs: [.set(field: "name", value: "Ada"), .wait(ms: 2999), .wait(ms: 1)], path: ["s1", "s2"]),
    Walk(
      name: "an animated loader advances after its items plus 500 ms",
      steps: #"""
        [{"id": "s1", "type": "custom", "config": {"content_blocks": [{"id": "row", "type": "stack", "children": [
           {"id": "load", "type": "animated_loading", "auto_advance": true, "loading_items": [{"label": "a", "duration_ms": 700}, {"label": "b"}]}]}]}},
         {"id": "s2", "type": "welcome"}]
        """#,
      inputs: [.wait(ms: 2199), .wait(ms: 1)], path: ["s1", "s2"]),
    Walk(
      name: "skip_enabled adds a skip control",
      steps: #"[{"id": "s1", "type": "welcome", "config": {"skip_enabled": "true"}}, {"id": "s2", "type": "welcome"}]"#,
      inputs: [.skip], path: ["s1", "s2"]),
  ]

  @Test(arguments: walks)
  func walk(_ walk: Walk) throws {
    let loaded = Self.load(Self.flow(walk.steps, extra: walk.extra))
    let document = try #require(loaded.document, "\(loaded.diagnostics)")
    #expect(!loaded.diagnostics.hasErrors, "\(loaded.diagnostics)")
    var (session, _) = try Session.start(document: document, config: SessionConfig(now: 0))
    var path = [session.currentScreen.id]
    for input in walk.inputs {
      _ = session.send(input)
      if !session.status.isEnded, path.last != session.currentScreen.id { path.append(session.currentScreen.id) }
    }
    #expect(path == walk.path)
    #expect(session.status == walk.status)
  }

  /// V12: every `depends_on` operator of document 001 holds when it should.
  @Test(arguments: [
    ("equals", #""x""#, "x", true), ("equals", #""x""#, "y", false), ("not_equals", #""x""#, "y", true),
    ("contains", #""ar""#, "bart", true), ("not_empty", "null", "a", true), ("is_set", "null", "a", true),
    ("empty", "null", "", true), ("gt", "5", "7", true), ("lt", "5", "7", false), ("unknown_op", "1", "", true),
  ])
  func dependsOnOperator(_ op: String, _ operand: String, _ answer: String, _ visible: Bool) throws {
    let steps = #"""
      [{"id": "form", "type": "form", "config": {"fields": [
         {"id": "a", "type": "text"},
         {"id": "b", "type": "text", "required": true, "depends_on": {"field_id": "a", "operator": "\#(op)", "value": \#(operand)}}]}},
       {"id": "done", "type": "welcome"}]
      """#
    let document = try #require(Self.load(Self.flow(steps)).document)
    var (session, _) = try Session.start(document: document, config: SessionConfig(now: 0))
    if !answer.isEmpty {
      let value: Value = Double(answer).map(Value.number) ?? .string(answer)
      _ = session.send(.set(field: "a", value: value))
    }
    _ = session.send(.next)
    // A visible required field that is empty blocks; a hidden one does not.
    #expect((session.currentScreen.id == "form") == visible)
  }

  /// V41: the six onboarding events of document 001, with flow_id / step_id / step_index.
  @Test func documentedEventNames() throws {
    let steps =
      #"[{"id": "s1", "type": "welcome"}, {"id": "s2", "type": "welcome", "config": {"skip_enabled": true}}, {"id": "s3", "type": "welcome"}]"#
    let document = try #require(Self.load(Self.flow(steps)).document)
    var (session, outputs) = try Session.start(document: document, config: SessionConfig(now: 0))
    outputs += session.send(.next) + session.send(.skip) + session.send(.next)
    let events = outputs.compactMap { if case .event(let event) = $0 { event } else { nil } }
    #expect(
      events.map(\.eventType) == [
        "onboarding_flow_started", "onboarding_step_viewed", "onboarding_step_completed", "onboarding_step_viewed",
        "onboarding_step_skipped", "onboarding_step_viewed", "onboarding_step_completed", "onboarding_flow_completed",
      ])
    #expect(events[4].property("step_id") == "s2" && events[4].property("step_index") == .number(1))
    #expect(events[0].property("flow_version") == .number(2))
    #expect(events.last?.property("total_steps") == .number(3))
    var (dismissed, _) = try Session.start(document: document, config: SessionConfig(now: 0))
    let end = dismissed.send(.dismiss).compactMap { if case .event(let event) = $0 { event } else { nil } }
    #expect(end.map(\.eventType) == ["onboarding_flow_dismissed"])
    #expect(end.first?.property("last_step_id") == "s1")
  }

  /// V31-V33: AppDNA's cross-platform bucketing vectors (`"<exp>.<salt>.<user>"`, MurmurHash3
  /// x86_32 seed 0, mod 10,000), and the variant its 0…1 weights give.
  @Test(arguments: [
    ("exp_onboard", "salt_x", "user_99999", 1070, [0.5, 0.5], "control"),
    ("exp_paywall_v3", "a8f3c9d2", "user_12345", 5791, [0.5, 0.5], "treatment"),
    ("exp_test", "salt_abc", "user_1", 3400, [0.7, 0.3], "control"),
  ])
  func bucketing(
    _ experiment: String, _ salt: String, _ user: String, _ bucket: Int, _ weights: [Double], _ variant: String
  )
    throws
  {
    #expect(VariantAssignment.bucket(experimentID: experiment, salt: salt, userID: user) == bucket)
    let json = #"""
      {"experiments": {"\#(experiment)": {"status": "running", "type": "onboarding_flow", "salt": "\#(salt)", "variants": [
        {"id": "control", "weight": \#(weights[0]), "is_control": true, "config_ref": "main"},
        {"id": "treatment", "weight": \#(weights[1]), "payload": {"id": "alt", "steps": [{"id": "t"}]}}]}},
       "onboarding": {"active_flow_id": "main", "flows": {"main": {"steps": [{"id": "m"}]}}}}
      """#
    let loaded = Self.load(json)
    let document = try #require(loaded.document, "\(loaded.diagnostics)")
    let (session, outputs) = try Session.start(document: document, config: SessionConfig(userID: user, now: 0))
    #expect(session.currentFlow.id == (variant == "control" ? "main" : "alt"))
    let exposure = outputs.compactMap { if case .event(let event) = $0 { event } else { nil } }
      .first { $0.eventType == "experiment_exposure" }
    #expect(exposure?.property("variant") == .string(variant))
    #expect(exposure?.property("source") == "sdk")
  }

  /// V25: a last step whose rules all fail completes with `flow_completed_via_fallback`, right
  /// after its completion; a step that is not the last, or a last step without rules, sends none.
  @Test(arguments: [
    (
      #"[{"id": "s1"}, {"id": "s2", "next_step_rules": [{"target_step_id": "s1", "conditions": [{"type": "empty", "answer_key": "x"}, "never"]}]}]"#,
      true
    ),
    (#"[{"id": "s1", "next_step_rules": [{"target_step_id": "s1", "conditions": ["never"]}]}, {"id": "s2"}]"#, false),
    (#"[{"id": "s1"}, {"id": "s2"}]"#, false),
  ])
  func fallbackCompletion(_ steps: String, _ fallback: Bool) throws {
    let document = try #require(Self.load(Self.flow(steps)).document)
    var (session, outputs) = try Session.start(document: document, config: SessionConfig(now: 0))
    outputs += session.send(.next) + session.send(.next)
    let events = outputs.compactMap { if case .event(let event) = $0 { event } else { nil } }
    let tail = events.suffix(3).map(\.eventType)
    if fallback {
      #expect(tail == ["onboarding_step_completed", "flow_completed_via_fallback", "onboarding_flow_completed"])
      #expect(events[events.count - 2].property("step_id") == "s2")
      #expect(events[events.count - 2].property("step_index") == .number(1))
    } else {
      #expect(!events.map(\.eventType).contains("flow_completed_via_fallback"))
    }
    #expect(session.status == .completed)
  }

  /// V18: an analytics node sends its `event_name` (default `onboarding_analytics`) with
  /// `{flow_id, node_id, step_id}` right after the step's completion, then goes on.
  @Test(arguments: [(#""event_name": "custom_milestone", "#, "custom_milestone"), ("", "onboarding_analytics")])
  func analyticsNode(_ name: String, _ expected: String) throws {
    let json = Self.flow(
      #"[{"id": "s1", "next_step_rules": [{"target_step_id": "analytics1"}]}, {"id": "s2"}, {"id": "s3"}]"#,
      extra: #""graph_nodes": {"analytics1": {"type": "analytics_event", \#(name)"next_target": "s3"}}, "#)
    let document = try #require(Self.load(json).document)
    var (session, _) = try Session.start(document: document, config: SessionConfig(now: 0))
    let events = session.send(.next).compactMap { if case .event(let event) = $0 { event } else { nil } }
    #expect(events.map(\.eventType) == ["onboarding_step_completed", expected, "onboarding_step_viewed"])
    #expect(events[1].value.json.contains(#""properties":{"flow_id":"f","node_id":"analytics1","step_id":"s1"}"#))
    #expect(events[1].property("node_id") == "analytics1" && events[1].property("step_id") == "s1")
    #expect(session.currentScreen.id == "s3")
  }

  /// V45, V46, V42: tolerance and rejection, with the SDK's defaults.
  @Test func toleranceAndRejection() throws {
    let sanitized = Self.load(
      Self.flow(#"[{"id": "s1", "type": "welcome"}]"#, extra: #""settings": {"allow_back": "TRUE"}, "#))
    #expect(sanitized.diagnostics.map(\.id) == ["appdna.sanitized-bool"])
    #expect(sanitized.document?.flows[0].settings.allowBack == true)
    let missingTarget = Self.load(
      Self.flow(#"[{"id": "s1", "type": "welcome", "next_step_rules": [{"conditions": []}]}]"#))
    #expect(missingTarget.diagnostics.map(\.id) == ["appdna.missing-target"])
    #expect(missingTarget.diagnostics.first?.location?.line == 1)
    let legacy = try #require(
      Self.load(
        Self.flow(
          #"[{"id": "w", "type": "welcome"}, {"id": "q", "type": "question", "config": {"options": [{"id": "o"}]}}]"#)
      )
      .document)
    let buttons = legacy.flows[0].screens.map { screen in
      screen.content.blocks.compactMap { block -> String? in
        if case .button(let button) = block.content { button.text.raw } else { nil }
      }
    }
    #expect(buttons == [["Get Started"], ["Continue"]])
  }

  /// Localization: the language of the locale, then `default_locale`, then the authored text.
  @Test(arguments: [
    ("fr_FR", "Bonjour", "Continuer"), ("de-DE", "Hallo", "Go"), ("es", "Hallo", "Go"), ("en_US", "Hallo", "Go"),
  ])
  func localization(_ locale: String, _ title: String, _ button: String) throws {
    let steps = #"""
      [{"id": "s1", "type": "custom", "config": {
         "default_locale": "de",
         "localizations": {"fr": {"block.t.text": "Bonjour", "block.b.text": "Continuer"}, "de": {"block.t.text": "Hallo"}},
         "content_blocks": [{"id": "t", "type": "title", "text": "Hello"}, {"id": "b", "type": "button", "text": "Go"}]}}]
      """#
    let document = try #require(Self.load(Self.flow(steps)).document)
    let (session, _) = try Session.start(document: document, config: SessionConfig(now: 0, locale: locale))
    let texts = session.currentScreen.content.blocks.compactMap { block -> String? in
      switch block.content {
      case .text(let text): text.text.map { session.render($0) }
      case .button(let button): session.render(button.text)
      default: nil
      }
    }
    #expect(texts == [title, button])
  }

  /// Document 001's visibility rules `locale_matches` (a language matches its regions) and
  /// `platform_is`.
  @Test(arguments: [
    ("fr_FR", #"{"type": "locale_matches", "value": "fr"}"#, true),
    ("fr-CA", #"{"type": "locale_matches", "values": ["de", "FR"]}"#, true),
    ("fr_FR", #"{"type": "locale_matches", "value": "fr_CA"}"#, false),
    ("fr_FR", #"{"type": "locale_matches", "value": "fr-fr"}"#, true),
    ("en_US", #"{"type": "locale_matches", "value": "fr"}"#, false),
    ("en_US", #"{"type": "platform_is", "value": "iOS"}"#, true),
    ("en_US", #"{"type": "platform_is", "values": ["android"]}"#, false),
  ])
  func visibilityRule(_ locale: String, _ rule: String, _ visible: Bool) throws {
    let steps = #"""
      [{"id": "s1", "type": "custom", "config": {"content_blocks": [
         {"id": "t", "type": "text", "text": "Shown", "visibility_condition": \#(rule)}]}}]
      """#
    let loaded = Self.load(Self.flow(steps))
    let document = try #require(loaded.document)
    #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
    let (session, _) = try Session.start(document: document, config: SessionConfig(now: 0, locale: locale))
    #expect(session.isVisible(session.currentScreen.content.blocks[0]) == visible)
  }

  /// Targeting (document 001): `--flow`, then the flows whose audience holds (highest priority
  /// first), then `active_flow_id` unless its own audience excludes the user; drafts never.
  @Test(arguments: [
    (["plan": Value.string("pro")], nil as String?, "vip"),
    (["plan": "pro", "age": .number(70)], nil, "senior"),
    (["age": .number(30)], nil, "main"),
    (["plan": "pro"], "main", "main"),
    (["country": "FR"], nil, "no flow presented"),
  ])
  func targeting(_ traits: [String: Value], _ flowID: String?, _ expected: String) throws {
    let json = #"""
      {"active_flow_id": "main", "flows": {
        "main": {"audience_rules": [{"trait": "country", "operator": "not_in", "values": ["FR"]}], "steps": [{"id": "m"}]},
        "vip": {"audience_rules": {"priority": 1, "conditions": [{"trait": "plan", "value": "pro"}]}, "steps": [{"id": "v"}]},
        "senior": {"audience_rules": {"priority": 5, "match_mode": "any", "conditions": [{"trait": "age", "operator": "between", "min": 65}]}, "steps": [{"id": "s"}]},
        "draft": {"status": "Draft", "audience_rules": [{"trait": "plan", "operator": "exists"}], "steps": [{"id": "d"}]}}}
      """#
    let document = try #require(Self.load(json).document)
    let config = SessionConfig(traits: traits, now: 0, flowID: flowID)
    do {
      let (session, _) = try Session.start(document: document, config: config)
      #expect(session.currentFlow.id == expected)
    } catch {
      #expect(error.message.hasPrefix(expected), "\(error.message)")
    }
  }
}
