import FlowEngine
import FlowExpression
import FlowFormat
import Testing
import _FlowTestSupport

@testable import FlowReplay

/// Parses `text` as if it were the file `file` (relative paths resolve against it).
func parseScript(_ text: String, file: String = "t/case.flow-test.yaml") -> ScriptParseResult {
  ScriptParser.parse(bytes: Array(text.utf8), file: file)
}

func formatted(_ result: ScriptParseResult, file: String = "t/case.flow-test.yaml") -> String {
  DiagnosticFormatter(sources: [file: result.source]).text(result.diagnostics)
}

@Suite("Script parser")
struct ScriptParserTests {
  struct ErrorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    /// `id@line:col` of the first diagnostic.
    var first: String
    var testDescription: String { name }
  }

  static let errorCases: [ErrorCase] = [
    ErrorCase(name: "unknown-top-key", text: "flow: a.json\nstesp: []\n", first: "script.unknown-key@2:1"),
    ErrorCase(name: "missing-flow", text: "name: x\nsteps: []\n", first: "script.missing-key@1:1"),
    ErrorCase(
      name: "unknown-step", text: "flow: a.json\nsteps:\n  - tapp: Go\n", first: "script.unknown-key@3:5"),
    ErrorCase(name: "bare-unknown-step", text: "flow: a.json\nsteps:\n  - bakc\n", first: "script.unknown-step@3:5"),
    ErrorCase(
      name: "wrong-type-wait", text: "flow: a.json\nsteps:\n  - wait: soon\n", first: "script.type-mismatch@3:11"),
    ErrorCase(
      name: "wrong-type-fill", text: "flow: a.json\nsteps:\n  - fill: [a, b]\n", first: "script.type-mismatch@3:11"),
    ErrorCase(
      name: "two-actions", text: "flow: a.json\nsteps:\n  - tap: Go\n    back: null\n",
      first: "script.multiple-actions@4:5"),
    ErrorCase(
      name: "bad-result-status", text: "flow: a.json\nsteps:\n  - result: {status: sucess}\n",
      first: "script.invalid-value@3:22"),
    ErrorCase(
      name: "unknown-expect-key", text: "flow: a.json\nexpect:\n  compelted: true\n",
      first: "script.unknown-key@3:3"),
    ErrorCase(
      name: "unknown-event", text: "flow: a.json\nexpect:\n  events: [onboarding_complete]\n",
      first: "script.unknown-event@3:12"),
    ErrorCase(name: "bad-now", text: "flow: a.json\nnow: yesterday\n", first: "script.invalid-value@2:6"),
    ErrorCase(name: "yaml-syntax", text: "flow: a.json\nsteps:\n  - tap: [Go\n", first: "script.syntax@4:1"),
    ErrorCase(
      name: "expect-error-alone", text: "flow: a.json\nsteps:\n  - expect_error: nope\n",
      first: "script.missing-key@3:5"),
    ErrorCase(
      name: "exact-without-data", text: "flow: a.json\nexpect:\n  exact: true\n", first: "script.invalid-value@2:1"),
    ErrorCase(name: "duplicate-key", text: "flow: a.json\nflow: b.json\n", first: "script.duplicate-key@1:1"),
    ErrorCase(
      name: "json-unknown-key", text: "{\"flow\": \"a.json\", \"stpes\": []}", first: "script.unknown-key@1:20"),
  ]

  @Test(arguments: errorCases)
  func errorsHaveExactPositions(_ test: ErrorCase) {
    let file = test.name.hasPrefix("json") ? "t/case.flow-test.json" : "t/case.flow-test.yaml"
    let result = parseScript(test.text, file: file)
    #expect(result.script == nil)
    let first = result.diagnostics.first
    #expect(first.map { "\($0.id)@\($0.location?.description ?? "-")" } == test.first)
    assertSnapshot(formatted(result, file: file), named: "parse-\(test.name).txt")
  }

  @Test func didYouMeanNotes() {
    let result = parseScript("flow: a.json\nsteps:\n  - tapp: Go\nexpect:\n  compelted: true\n")
    let notes = result.diagnostics.flatMap(\.notes).map(\.message)
    #expect(notes == ["did you mean 'tap'?", "did you mean 'completed'?"])
  }

  @Test func everyTopLevelKey() throws {
    let result = parseScript(
      """
      name: all keys
      flow: ../flows/fitness.json
      flow_id: main
      user: u_1
      session_id: s_1
      variants: {exp: b}
      traits: {locale: en_GB, age: 30}
      mocks:
        auth.apple: {status: success, data: {signedIn: true}}
        auth.google: {status: failure, error: nope}
        system.review: cancelled
      now: 2026-02-03T04:05:06.789Z
      start: name
      steps: []
      """)
    let script = try #require(result.script, "\(result.diagnostics)")
    #expect(script.name == "all keys")
    #expect(script.flowPath == "flows/fitness.json")
    #expect(script.flowID == "main")
    #expect(script.user == "u_1")
    #expect(script.sessionID == "s_1")
    #expect(script.variants == ["exp": "b"])
    #expect(script.traits == ["locale": "en_GB", "age": 30])
    #expect(script.mocks["auth.apple"] == .success(["signedIn": true]))
    #expect(script.mocks["auth.google"] == .failure("nope"))
    #expect(script.mocks["system.review"] == .cancelled)
    #expect(
      script.now
        == Timestamp.milliseconds(year: 2026, month: 2, day: 3, hour: 4, minute: 5, second: 6, millisecond: 789))
    #expect(script.start == "name")
    #expect(script.sessionConfig.userID == "u_1")
  }

  @Test func defaultsAndNames() throws {
    let script = try #require(parseScript("flow: f.json\n", file: "dir/happy-path.flow-test.yaml").script)
    #expect(script.name == "happy-path")
    #expect(script.now == ReplayScript.defaultNow)
    #expect(Timestamp.iso8601(milliseconds: script.now) == "2026-01-01T00:00:00.000Z")
    #expect(script.flowPath == "dir/f.json")
  }

  struct StepCase: Sendable, CustomTestStringConvertible {
    var yaml: String
    var kind: ScriptStep.Kind
    var expectError: String? = nil
    var testDescription: String { yaml }
  }

  static let stepCases: [StepCase] = [
    StepCase(yaml: "tap: Get Started", kind: .tap(.label("Get Started"))),
    StepCase(yaml: "tap: 2", kind: .tap(.number(2))),
    StepCase(yaml: "tap: {id: welcome_start}", kind: .tap(.blockID("welcome_start"))),
    StepCase(
      yaml: "fill: {name: Alex, age: 30}",
      kind: .fill([.init(field: "name", value: "Alex"), .init(field: "age", value: 30)])),
    StepCase(yaml: "select: {goals: [lose, build]}", kind: .select([.init(field: "goals", items: ["lose", "build"])])),
    StepCase(yaml: "select: {goal: lose}", kind: .select([.init(field: "goal", items: ["lose"])])),
    StepCase(yaml: "set: {hours_daily: 2}", kind: .set([.init(field: "hours_daily", value: 2)])),
    StepCase(yaml: "result: {status: success, data: {granted: false}}", kind: .result(.success(["granted": false]))),
    StepCase(yaml: "result: {status: failure, error: timeout}", kind: .result(.failure("timeout"))),
    StepCase(yaml: "result: cancelled", kind: .result(.cancelled)),
    StepCase(yaml: "back", kind: .back),
    StepCase(yaml: "skip", kind: .skip),
    StepCase(yaml: "dismiss", kind: .dismiss),
    StepCase(yaml: "next", kind: .next),
    StepCase(yaml: "complete", kind: .complete),
    StepCase(yaml: "wait: 3000", kind: .wait(3000)),
    StepCase(yaml: "goto: plan", kind: .goto("plan")),
    StepCase(yaml: "snapshot: snaps/a.txt", kind: .snapshot("snaps/a.txt")),
    StepCase(yaml: "{tap: Continue, expect_error: required}", kind: .tap(.label("Continue")), expectError: "required"),
    StepCase(yaml: "{dismiss: null, expect_error: not allowed}", kind: .dismiss, expectError: "not allowed"),
  ]

  @Test(arguments: stepCases)
  func everyStepKind(_ test: StepCase) throws {
    let result = parseScript("flow: f.json\nsteps:\n  - \(test.yaml)\n")
    let script = try #require(result.script, "\(result.diagnostics)")
    let step = try #require(script.steps.first)
    // Field locations are not part of the comparison.
    var kind = step.kind
    if case .fill(let fields) = kind { kind = .fill(fields.map { .init(field: $0.field, value: $0.value) }) }
    if case .set(let fields) = kind { kind = .set(fields.map { .init(field: $0.field, value: $0.value) }) }
    if case .select(let picks) = kind { kind = .select(picks.map { .init(field: $0.field, items: $0.items) }) }
    #expect(kind == test.kind)
    #expect(step.expectError == test.expectError)
    #expect(step.location?.line == 3)
  }

  @Test func expectationKeys() throws {
    let result = parseScript(
      """
      flow: f.json
      steps:
        - expect:
            screen: plan
            text: [Alex, "730 hours"]
            errors: {email: valid}
            status: running
            awaiting: auth.apple
      expect:
        completed: true
        dismissed: false
        data: {name: Alex, goals: [lose]}
        exact: true
        events: [onboarding_started, {event_type: screen_viewed, properties: {screen_name: Plan}}]
        not_events: [validation_failed]
        path: [welcome, plan]
      """)
    let script = try #require(result.script, "\(result.diagnostics)")
    guard case .expect(let step) = script.steps.first?.kind else {
      Issue.record("not an expect step")
      return
    }
    #expect(step.screen?.value == "plan")
    #expect(step.text?.value == ["Alex", "730 hours"])
    #expect(step.errors?.value == ["email": "valid"])
    #expect(step.status?.value == "running")
    #expect(step.awaiting?.value == "auth.apple")
    #expect(step.screen?.location?.line == 4)
    let final = try #require(script.expectation)
    #expect(final.completed?.value == true)
    #expect(final.dismissed?.value == false)
    #expect(final.exact)
    #expect(final.data?.value == ["name": "Alex", "goals": ["lose"]])
    #expect(final.events?.value.count == 2)
    #expect(
      final.events?.value.last == .subset(["event_type": "screen_viewed", "properties": ["screen_name": "Plan"]]))
    #expect(final.notEvents?.value == [.type("validation_failed")])
    #expect(final.path?.value == ["welcome", "plan"])
    #expect(final.path?.location?.description == "16:3")
  }

  @Test func jsonScripts() throws {
    let result = parseScript(
      """
      {"flow": "f.json", "steps": [{"tap": "Go"}, "back", {"wait": 10}], "expect": {"screen": "a"}}
      """, file: "t/x.flow-test.json")
    let script = try #require(result.script, "\(result.diagnostics)")
    #expect(script.steps.map(\.kind) == [.tap(.label("Go")), .back, .wait(10)])
    #expect(script.steps.first?.location?.description == "1:31")
  }

  /// `now:` reads ISO-8601 as `--now` and the timelines do (`CivilTime.readInstant`), a time of
  /// day without a zone as UTC; an impossible date, an empty fraction and an offset of 24 hours
  /// or more are refused (a parser of its own read `2026-02-31` as March 3rd).
  @Test(
    arguments: [
      ("2026-01-01", 1_767_225_600_000), ("2026-01-01T00:00:01Z", 1_767_225_601_000),
      ("2026-01-01T01:00:00+01:00", 1_767_225_600_000), ("2026-01-01T00:00:00.5Z", 1_767_225_600_500),
      ("2026-01-01t00:00:00,5z", 1_767_225_600_500), ("2026-01-01T00:00:01", 1_767_225_601_000),
      ("2026-02-31", nil), ("2026-01-01T00:00:00.Z", nil), ("2026-01-01T00:00:00+99:00", nil),
    ] as [(String, Int64?)])
  func isoTimes(_ text: String, _ ms: Int64?) {
    let result = parseScript("flow: a.json\nnow: '\(text)'\n")
    if let ms {
      #expect(result.script?.now == ms)
      #expect(result.diagnostics.isEmpty)
    } else {
      #expect(result.diagnostics.map(\.id) == ["script.invalid-value"])
    }
  }

  @Test(arguments: [
    ("../../fitness.json", "sample-flows/tests/fitness/a.yaml", "sample-flows/fitness.json"),
    ("f.json", "a.yaml", "f.json"),
    ("/x/f.json", "a/b.yaml", "/x/f.json"),
    ("./f.json", "/tmp/a/b.yaml", "/tmp/a/f.json"),
    ("f.json", "/b.yaml", "/f.json"),
    ("f.json", "dir/sub/b.yaml", "dir/sub/f.json"),
    ("flows//f.json", "dir/b.yaml", "dir/flows/f.json"),
    ("flows/", "dir/b.yaml", "dir/flows"),
    (".hidden/f.json", "dir/b.yaml", "dir/.hidden/f.json"),
    ("a/./b/../f.json", "d/s.yaml", "d/a/f.json"),
    ("../../../f.json", "a/s.yaml", "../../f.json"),
    ("../f.json", "/s.yaml", "/f.json"),
  ])
  func pathResolution(relative: String, base: String, resolved: String) {
    #expect(ScriptParser.resolve(relative, against: base) == resolved)
  }
}

/// The steps documents 000 adds: the host's `track` and a declined native screen.
@Suite struct HostStepParsingTests {
  @Test func trackAndDeclineSteps() throws {
    let result = parseScript(
      """
      flow: a.json
      steps:
        - track: screenCompleted
        - track: {type: button_tapped, properties: {button_label: Get Started, n: 2}}
        - decline
      """)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    let steps = try #require(result.script?.steps).map(\.kind)
    #expect(steps.map { ScriptStep($0).keyword } == ["track", "track", "decline"])
    guard steps.count == 3, case .track(let type, let properties) = steps[1] else {
      Issue.record("not a track step: \(steps)")
      return
    }
    #expect(type == "button_tapped")
    #expect(Value.object(properties).json == #"{"button_label":"Get Started","n":2}"#)
    #expect(steps[2] == .decline)
  }

  @Test(arguments: [
    ("  - track: {properties: {a: 1}}\n", "missing 'type'"),
    ("  - track: {type: button_tapped, properties: [1]}\n", "expected a mapping of properties"),
  ])
  func badTrackSteps(_ step: String, _ message: String) {
    let result = parseScript("flow: a.json\nsteps:\n" + step)
    #expect(result.script == nil)
    #expect(result.diagnostics.contains { $0.message.contains(message) }, "\(result.diagnostics.map(\.message))")
  }
}

/// `platform:` and `unavailable_flags:`, as `run --platform` and `--flag-unavailable`.
@Suite struct PlatformAndFlagKeyTests {
  @Test func keysReachTheSessionConfig() throws {
    let result = parseScript("flow: a.json\nplatform: android\nunavailable_flags: [exp_a]\n")
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    let config = try #require(result.script).sessionConfig
    #expect(config.platform == "android")
    #expect(config.reportsPlatform)
    #expect(config.unavailableFlags == ["exp_a"])
  }

  @Test func anUnknownPlatformIsAnError() {
    let result = parseScript("flow: a.json\nplatform: web\n")
    #expect(result.script == nil)
    #expect(result.diagnostics.first?.message == "platform: 'web' is not ios or android")
  }
}
