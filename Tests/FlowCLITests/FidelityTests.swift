import Foundation
import Testing
import _FlowTestSupport

/// Issue #22 parts 1, 3 and 6: flows written from documents 000 (Sequence) and 003 (TCA with a
/// PostHog experiment), run through the built binary; the expected values are the documents'.
/// docs/fidelity.md names these tests.
@Suite(.timeLimit(.minutes(2))) struct FidelityTests {
  static let directory = "Tests/FlowCLITests/Fidelity/"
  static let fixedNow = ["--now", "2026-01-01T00:00:00Z", "--width", "60"]

  static func flow(_ name: String) -> String { directory + name }

  /// The events of an NDJSON file as objects.
  static func events(_ path: String) throws -> [[String: Any]] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  static func properties(_ event: [String: Any]) -> [String: Any] { event["properties"] as? [String: Any] ?? [:] }

  // MARK: Document 000, data collection and naming

  /// "Each block has a unique id that becomes the key in the collected data object": the
  /// document's own example data, from blocks without `fieldName`.
  @Test func blockIDIsTheDataKey() throws {
    let temporary = try TemporaryDirectory()
    let data = temporary.path + "/data.json"
    let result = try runFlowrun(
      ["run", Self.flow("block-ids.json"), "--data", data] + Self.fixedNow, stdin: "John Doe\n1,2\n3\n1\n")
    #expect(result.status == 0, "\(result.stderr)")
    let collected = try #require(
      JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: data))) as? [String: Any])
    #expect(collected["user_name"] as? String == "John Doe")
    #expect(collected["interests"] as? [String] == ["fitness", "music"])
    #expect(collected["experience_level"] as? Int == 3)

    let check = try runFlowrun(["check", Self.flow("block-ids.json")])
    #expect(check.status == 0)
    #expect(check.stdout.contains("input block 'user_name' has no fieldName: its value is collected under its id"))
    #expect(check.stdout.contains("[load.field-from-block-id]"))
    #expect(check.stdout.contains("add \"fieldName\" to collect it under another name"))
  }

  /// The `Screen` type's `appId`, `flowId`, `createdAt`, `updatedAt` raise no unknown-key warning.
  @Test func camelCaseScreenKeysAreAccepted() throws {
    let check = try runFlowrun(["check", "--strict", Self.flow("block-ids.json")])
    #expect(check.status == 0, "\(check.stdout)")
    #expect(!check.stdout.contains("load.unknown-key"))
  }

  /// Field names unique across the flow (an error) and snake_case (a warning with the fix);
  /// unknown transitions and misspelt built-in actions flagged with the right name.
  @Test func namingAndIdentifierChecks() throws {
    let check = try runFlowrun(["check", Self.flow("naming-checks.json")])
    #expect(check.status == 1)
    let out = check.stdout
    #expect(
      out.contains(
        "error: field 'Daily Hours' is also collected on screen 'hours'; field names must be unique across the flow [ref.duplicate-field]"
      ))
    #expect(out.contains("warning: field name 'Daily Hours' is not snake_case [load.field-name-case]"))
    #expect(out.contains("note: rename it 'daily_hours' and read it as {daily_hours}"))
    #expect(out.contains("warning: unknown transition 'warp'"))
    #expect(out.contains("action 'auth.emial' is not a built-in action"))
    #expect(out.contains("did you mean 'auth.email'?"))
  }

  @Test func misspeltTransitionGetsDidYouMean() throws {
    let temporary = try TemporaryDirectory()
    let flow = temporary.file(
      "t.json",
      contents: """
        {"version": 1, "screens": [{"id": "a", "name": "A", "type": "feature", "order": 0, "transition": "slide-lef",
          "content": {"title": "A"}}]}
        """)
    let check = try runFlowrun(["check", flow])
    #expect(check.stdout.contains("unknown transition 'slide-lef'"))
    #expect(check.stdout.contains("did you mean 'slide-left'?"))
  }

  /// A field named `Daily Hours` still collects, and `{Daily Hours}` reads it.
  @Test func spacedFieldNameTemplateReadsTheField() throws {
    let result = try runFlowrun(["run", Self.flow("spaced-name.json")] + Self.fixedNow, stdin: "3\n1\n1\n")
    #expect(result.status == 0)
    #expect(result.stdout.contains("3 hours a day"))
    #expect(result.stderr.contains("field name 'Daily Hours' is not snake_case"))
  }

  // MARK: Document 000, returning users, transitions, state, host events, platforms

  /// `markOnboardingCompleted()` then `sendSuccessResult(data:)`: the session ends completed
  /// instead of going on into new-user screens, by `:ok`, by `--mock` and by a script alike.
  @Test(arguments: [
    (["--mock", "auth.email=success:{\"email\":\"a@b.co\",\"$markOnboardingCompleted\":true}"], "1\n"),
    ([], "1\n:ok {\"email\":\"a@b.co\",\"isNewUser\":false,\"$markOnboardingCompleted\":true}\n"),
  ])
  func actionResultMarksOnboardingCompleted(_ arguments: [String], _ stdin: String) throws {
    let temporary = try TemporaryDirectory()
    let events = temporary.path + "/events.ndjson"
    let result = try runFlowrun(
      ["run", Self.flow("returning-user.json"), "--events", events] + arguments + Self.fixedNow, stdin: stdin)
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stdout.contains("Flow completed · returning_user"))
    #expect(result.stdout.contains("Screens shown (1): welcome"))
    let last = try #require(try Self.events(events).last)
    #expect(last["event_type"] as? String == "onboarding_completed")
    let collected = Self.properties(last)["collected_data"] as? [String: Any]
    #expect(collected?["email"] as? String == "a@b.co")
    #expect(collected?["$markOnboardingCompleted"] == nil)
  }

  @Test func transitionsAreShownInTheTrace() throws {
    let result = try runFlowrun(
      [
        "run", Self.flow("returning-user.json"), "--trace", "--mock", "auth.email=success", "--mock",
        "system.review=success",
      ]
        + Self.fixedNow,
      stdin: "1\n1\n1\n1\n")
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stdout.contains("transition welcome → goals: fade-slide-left (transitions entry welcome → goals)"))
    #expect(result.stdout.contains("transition goals → celebrate: scale (transition of celebrate)"))
  }

  /// "Completion state persists across app restarts"; `resetOnboarding()` shows it again.
  @Test func stateFileKeepsCompletionPerUser() throws {
    let temporary = try TemporaryDirectory()
    let state = temporary.path + "/state.json"
    let completeRun = ["run", Self.flow("returning-user.json"), "--state", state, "--mock", "auth.email=success"]
    let walk = "1\n1\n1\n:ok\n1\n"
    let first = try runFlowrun(completeRun + ["--user", "alex"] + Self.fixedNow, stdin: walk)
    #expect(first.status == 0, "\(first.stdout)")
    #expect(temporary.text("state.json")?.contains("\"alex\"") == true)

    let again = try runFlowrun(completeRun + ["--user", "alex"] + Self.fixedNow, stdin: walk)
    #expect(again.status == 0)
    #expect(
      again.stdout
        == "user 'alex' completed onboarding (flow 'returning_user', 2026-01-01T00:00:00.000Z) per \(state); "
        + "nothing to show (--reset shows it again)\n")

    let other = try runFlowrun(completeRun + ["--user", "sam"] + Self.fixedNow, stdin: "")
    #expect(other.stdout.contains("── Welcome (welcome)"))

    let reset = try runFlowrun(completeRun + ["--user", "alex", "--reset"] + Self.fixedNow, stdin: "")
    #expect(reset.stdout.contains("── Welcome (welcome)"))
    #expect(temporary.text("state.json")?.contains("\"alex\"") == false)

    let bad = try runFlowrun(["run", Self.flow("returning-user.json"), "--reset"], stdin: "")
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("--reset needs --state FILE"))
  }

  @Test func hostEventsFromRun() throws {
    let temporary = try TemporaryDirectory()
    let events = temporary.path + "/events.ndjson"
    let result = try runFlowrun(
      ["run", Self.flow("returning-user.json"), "--events", events] + Self.fixedNow,
      stdin: ":track buttonTapped {\"button_label\":\"Get Started\"}\n:track screen_complted\n")
    #expect(result.stdout.contains("! unknown event type 'screen_complted' (did you mean 'screen_completed'?)"))
    let tracked = try Self.events(events).filter { $0["event_type"] as? String == "button_tapped" }
    #expect(tracked.count == 1)
    #expect(tracked.first?["screen_id"] as? String == "welcome")
    #expect(Self.properties(tracked[0])["button_label"] as? String == "Get Started")
  }

  @Test(arguments: ["ios", "android"])
  func platformFeedsPlatformAndEvents(_ platform: String) throws {
    let temporary = try TemporaryDirectory()
    let flow = temporary.file(
      "p.json",
      contents: """
        {"version": 1, "screens": [{"id": "a", "name": "A", "type": "feature", "order": 0,
          "content": {"title": "Running on {$platform}", "buttonText": "Done", "buttonAction": {"type": "complete"}}}]}
        """)
    let events = temporary.path + "/events.ndjson"
    let result = try runFlowrun(
      ["run", flow, "--platform", platform, "--events", events] + Self.fixedNow, stdin: "1\n")
    #expect(result.status == 0)
    #expect(result.stdout.contains("Running on \(platform)"))
    let started = try #require(try Self.events(events).first)
    #expect(Self.properties(started)["platform"] as? String == platform)

    let wrong = try runFlowrun(["run", flow, "--platform", "web"], stdin: "")
    #expect(wrong.status == 64)
  }

  @Test func declinedNativeScreenIsRenderedByFlowrun() throws {
    let result = try runFlowrun(
      ["run", Self.flow("native-login.json"), "--trace"] + Self.fixedNow, stdin: ":decline\n1\n1\n")
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stdout.contains("host declined native screen 'login-screen' → flowrun renders it with its button"))
    #expect(result.stdout.contains("[1] Continue"))
    #expect(result.stdout.contains("Screens shown (2): login-screen → welcome"))
  }

  // MARK: Document 003

  /// The experiment value stays "variant-base" until the flag arrives: a user the bucketing puts
  /// in variant-b keeps the default when the flag is unavailable, and the trace says so.
  @Test func unavailableFlagKeepsTheDefaultVariant() throws {
    let temporary = try TemporaryDirectory()
    let events = temporary.path + "/events.ndjson"
    let bucketed = try runFlowrun(["run", Self.flow("tca-experiment.json"), "--user", "u2"] + Self.fixedNow, stdin: "")
    #expect(bucketed.stdout.contains("Variant: variant-b"))
    let unavailable = try runFlowrun(
      [
        "run", Self.flow("tca-experiment.json"), "--user", "u2", "--flag-unavailable", "onboarding-experiment",
        "--trace", "--events", events,
      ] + Self.fixedNow, stdin: "")
    #expect(
      unavailable.stdout.contains(
        "experiment 'onboarding-experiment': flag unavailable → default variant 'variant-base'"))
    #expect(unavailable.stdout.contains("Variant: variant-base"))
    let assigned = try #require(
      try Self.events(events).first { $0["event_type"] as? String == "experiment_variant_assigned" })
    #expect(Self.properties(assigned)["reason"] as? String == "flag_unavailable")
    #expect(assigned["variant_id"] as? String == "variant-base")

    let unknown = try runFlowrun(
      ["run", Self.flow("tca-experiment.json"), "--flag-unavailable", "onboarding"], stdin: "")
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("no experiment 'onboarding'"))
  }

  /// `EventButton(category: .onboarding, object: "next_button", verb: .click, params: ["screen": "screen_one"])`.
  @Test func buttonAnalyticsAreCarriedByButtonTapped() throws {
    let temporary = try TemporaryDirectory()
    let events = temporary.path + "/events.ndjson"
    let result = try runFlowrun(
      ["run", Self.flow("tca-experiment.json"), "--user", "u1", "--events", events] + Self.fixedNow, stdin: "1\n1\n")
    #expect(result.status == 0, "\(result.stdout)")
    let taps = try Self.events(events).filter { $0["event_type"] as? String == "button_tapped" }
    #expect(taps.count == 2)
    let next = Self.properties(taps[1])
    #expect(next["button_id"] as? String == "next_button")
    #expect(next["category"] as? String == "onboarding")
    #expect(next["object"] as? String == "next_button")
    #expect(next["verb"] as? String == "click")
    #expect(next["params"] as? [String: String] == ["screen": "screen_one"])
    #expect(Self.properties(taps[0])["category"] == nil)
  }

  // MARK: Document examples as replay scripts

  /// The 730-hours sentence, the `| number` table, `system.review`, a returning user, the
  /// host's `track` and a declined native screen, as replay scripts with the documents' values.
  @Test(arguments: [
    "number-table", "reclaim", "system-review", "returning-user", "host-event", "native-decline", "flag-unavailable",
    "result-data",
  ])
  func documentExampleScript(_ name: String) throws {
    let result = try runFlowrun(["test", Self.directory + "tests/\(name).flow-test.yaml"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("1 passed, 0 failed"))
  }
}
