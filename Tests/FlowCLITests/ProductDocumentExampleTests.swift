import Foundation
import Testing
import _FlowTestSupport

/// Issue #22 part 6 for documents 001 (AppDNA), 004 (Nuxie campaigns) and 000's backend (the
/// Submissions API): the documents' own examples, in flows and campaign files written from the
/// documents, run through the built binary; the expected values are the documents'.
/// docs/fidelity.md names these tests.
@Suite(.timeLimit(.minutes(2))) struct ProductDocumentExampleTests {
  static let directory = "Tests/FlowCLITests/Fidelity/"
  static let appdna = directory + "appdna-context.json"

  /// Each replay script (flow or campaign) passes: its steps and final `expect` hold the
  /// document's values.
  @Test(arguments: [
    "appdna-employed", "appdna-student", "appdna-validation", "nuxie-trigger", "nuxie-one-flow", "nuxie-grace",
    "nuxie-segment", "nuxie-segment-exit", "submissions-example",
  ])
  func documentExampleScript(_ name: String) throws {
    let result = try runFlowrun(["test", Self.directory + "tests/\(name).flow-test.yaml"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("1 passed, 0 failed"))
  }

  // MARK: Document 001

  /// `OnboardingContext(source: "app_launch", campaign: "winter_2025", referrer: "social_ad",
  /// userProperties: ["locale": "en_US"], experimentOverrides: ["onboarding_variant": "b"])`,
  /// visibility rules and nested template paths, each with the lines it shows and hides.
  @Test(arguments: [
    (
      ["--context", "user.json"],
      ["Hi Alex", "Welcome from New York!", "Your timezone: America/New_York", "iOS widget"],
      ["Bonjour", "Android widget"]
    ),
    (
      ["--locale", "fr_FR", "--platform", "android"], ["Hi there", "Bonjour !", "Android widget"],
      ["iOS widget", "Welcome from"]
    ),
    (["--locale", "fr-CA"], ["Bonjour !", "iOS widget"], ["Android widget"]),
    (["--locale", "en_US"], ["iOS widget"], ["Bonjour"]),
    (["--context", "document.json"], ["Variant B welcome"], ["Hi "]),
    (["--trait", "campaign_cohort=winter_2025"], ["Winter offer"], ["Hi "]),
    (["--context", "cohort.json"], ["Winter offer"], ["Spring draft"]),
  ])
  func contextVisibilityAndTargeting(_ options: [String], _ shown: [String], _ hidden: [String]) throws {
    let temporary = try TemporaryDirectory()
    _ = temporary.file(
      "document.json",
      contents: """
        {"source": "app_launch", "campaign": "winter_2025", "referrer": "social_ad",
         "userProperties": {"locale": "en_US"}, "experimentOverrides": {"onboarding_variant": "b"}}
        """)
    _ = temporary.file(
      "user.json",
      contents: """
        {"source": "app_launch", "userProperties": {"first_name": "Alex",
         "home": {"city": "New York", "timezone": "America/New_York"}}}
        """)
    _ = temporary.file("cohort.json", contents: #"{"userProperties": {"campaign_cohort": "winter_2025"}}"#)
    let arguments = options.map { $0.hasSuffix(".json") ? temporary.path + "/" + $0 : $0 }
    let result = try runFlowrun(["run", Self.appdna, "--width", "60"] + arguments, stdin: "")
    #expect(result.stderr.contains("[appdna.draft-flow]"))
    for line in shown { #expect(result.stdout.contains(line), "\(options): shows '\(line)'\n\(result.stdout)") }
    for line in hidden { #expect(!result.stdout.contains(line), "\(options): hides '\(line)'\n\(result.stdout)") }
  }

  /// The document's own context, against a flow that declares no `onboarding_variant`
  /// experiment, is refused naming the context file (not `--variant`); a `--variant` names itself.
  @Test(arguments: [
    (
      [String](), "--context CONTEXT: experimentOverrides onboarding_variant=b: unknown experiment 'onboarding_variant'"
    ),
    (["--variant", "onboarding_variant=b"], "--variant onboarding_variant=b: unknown experiment 'onboarding_variant'"),
  ])
  func contextOverrideOfAnUndeclaredExperimentNamesItsSource(_ options: [String], _ message: String) throws {
    let temporary = try TemporaryDirectory()
    let context = temporary.file(
      "context.json",
      contents: #"{"source": "app_launch", "experimentOverrides": {"onboarding_variant": "b"}}"#)
    let result = try runFlowrun(
      ["run", Self.directory + "appdna-onboarding.json", "--context", context] + options, stdin: "")
    #expect(result.status == 64)
    #expect(result.stderr.contains(message.replacingOccurrences(of: "CONTEXT", with: context)), "\(result.stderr)")
  }

  /// "Draft flows are not delivered to client devices"; `presentOnboarding` returns false for an
  /// invalid flow id: neither can be presented.
  @Test(arguments: ["spring_flow", "main_flw"])
  func draftsAndUnknownFlowsAreNotPresented(_ flow: String) throws {
    let result = try runFlowrun(["run", Self.appdna, "--flow", flow], stdin: "")
    #expect(result.status == 64)
    #expect(result.stderr.contains("no flow '\(flow)' in the document (flows: main_flow, winter_flow, main_flow_b)"))
  }

  /// Every block type of document 001's table, by its documented name, is known to the loader
  /// (an unknown one would be `appdna.unknown-type`).
  @Test(arguments: [
    "title", "subtitle", "image", "lottie", "rive", "video", "button", "option_list", "form", "page_indicator",
    "wheel_picker", "pulsing_avatar", "social_login", "timeline", "animated_loading", "countdown_timer", "rating",
    "rich_text", "progress_bar", "circular_gauge", "date_wheel_picker", "stack", "row", "custom_view",
    "star_background", "pricing_card",
  ])
  func documentedBlockTypeIsKnown(_ type: String) throws {
    try Self.expectKnown(
      step:
        #"{"id": "s", "type": "custom", "config": {"content_blocks": [{"id": "b", "type": "\#(type)", "text": "Block"}, "#
        + #"{"id": "go", "type": "button", "text": "Continue"}]}}"#)
  }

  /// Every input type of document 001's form table, by its documented name.
  @Test(arguments: [
    "text", "textarea", "number", "email", "phone", "date", "time", "datetime", "select", "slider", "toggle",
    "stepper", "segmented", "password", "rating", "range_slider", "image_picker", "color", "url", "chips",
    "signature", "location",
  ])
  func documentedFieldTypeIsKnown(_ type: String) throws {
    try Self.expectKnown(
      step: #"{"id": "s", "type": "form", "config": {"fields": [{"id": "x", "type": "\#(type)", "label": "X", "#
        + #""options": [{"id": "a", "label": "A"}]}]}}"#)
  }

  /// `check` loads a one-step AppDNA flow without errors and knows every type in it.
  static func expectKnown(step: String) throws {
    let temporary = try TemporaryDirectory()
    let flow = temporary.file("f.json", contents: #"{"id": "f", "steps": ["# + step + "]}")
    let check = try runFlowrun(["check", flow])
    #expect(check.status == 0, "\(check.stdout)")
    #expect(!check.stdout.contains("appdna.unknown-type"), "\(check.stdout)")
  }

  /// `hide_progress` hides the indicator on its step only, which still counts ("step 3 of 5"
  /// advances it): the next step shows 4/5. A flow's `show_progress: false` hides it everywhere.
  @Test(arguments: [(true, ["1/5", "2/5", "4/5", "5/5"], ["3/5"]), (false, [], ["1/5", "2/5", "3/5", "4/5", "5/5"])])
  func hideProgressHidesOneStepThatStillCounts(_ showProgress: Bool, _ shown: [String], _ hidden: [String]) throws {
    let temporary = try TemporaryDirectory()
    let steps = (1...5).map { #"{"id": "s\#($0)", "type": "welcome"\#($0 == 3 ? #", "hide_progress": true"# : "")}"# }
    let flow = temporary.file(
      "f.json",
      contents:
        #"{"id": "f", "settings": {"show_progress": \#(showProgress), "progress_style": "fraction"}, "steps": ["#
        + steps.joined(separator: ", ") + "]}")
    let render = try runFlowrun(["render", flow, "--width", "40"])
    #expect(render.status == 0, "\(render.stderr)")
    for line in shown { #expect(render.stdout.contains("\n\(line)\n"), "\(line)") }
    for line in hidden { #expect(!render.stdout.contains("\n\(line)\n"), "\(line)") }
  }

  /// The six auto-tracked events with `flowId`, `stepId` and `stepIndex`; a question step's
  /// answer is `responses["fitness_goal"]`, a form step's a dictionary of field id to value.
  @Test func eventsAndResponsesAsTheDocumentReadsThem() throws {
    let temporary = try TemporaryDirectory()
    let events = temporary.path + "/events.ndjson"
    let result = try runFlowrun(
      ["run", Self.directory + "appdna-onboarding.json", "--events", events, "--now", "2026-01-01T00:00:00Z"],
      stdin: "1\n2\n1\n1\n:dismiss\n")
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    let names = lines.compactMap { $0["event_type"] as? String }
    #expect(names.first == "onboarding_flow_started")
    #expect(names.last == "onboarding_flow_dismissed")
    #expect(
      Set(names) == [
        "onboarding_flow_started", "onboarding_step_viewed", "onboarding_step_completed", "onboarding_flow_dismissed",
      ])
    let completed = lines.filter { $0["event_type"] as? String == "onboarding_step_completed" }
    let goal = try #require(
      completed.first { ($0["properties"] as? [String: Any])?["step_id"] as? String == "fitness_goal" })
    let properties = try #require(goal["properties"] as? [String: Any])
    #expect(properties["flow_id"] as? String == "main_flow")
    #expect(properties["step_index"] as? Int == 1)
  }

  // MARK: Document 000, the Submissions API

  /// The Submissions API's example row (`name`, `email`, `goals`, `last_screen_id: screen_3`,
  /// `last_screen_index: 3`, `completed_at` 10:30 for a session created 10:25), in the
  /// document's key order, with its query parameters. A second user drops off on `screen_1`.
  @Test(arguments: [
    ([String](), ["session_789", "session_abc"], 2),
    (["--completed"], ["session_789"], 1),
    (["--incomplete"], ["session_abc"], 1),
    (["--user-id", "user_456"], ["session_789"], 1),
    (["--flow-id", "flow_abc"], ["session_789", "session_abc"], 2),
    (["--flow-id", "flow_xyz"], [], 0),
    (["--limit", "1"], ["session_789"], 2),
    (["--limit", "1", "--offset", "1"], ["session_abc"], 2),
  ])
  func submissionsAPIAnswersAsDocumented(_ options: [String], _ sessions: [String], _ total: Int) throws {
    let temporary = try TemporaryDirectory()
    let store = "sqlite:" + temporary.path + "/subs.db"
    let replay = try runFlowrun(
      ["test", Self.directory + "tests/submissions-example.flow-test.yaml", "--store", store])
    #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
    let dropOff = try runFlowrun(
      [
        "run", Self.directory + "submissions-example.json", "--store", store, "--user", "user_999", "--session-id",
        "session_abc", "--now", "2024-01-15T10:00:00Z",
      ], stdin: "Sam\n1\n")
    #expect(dropOff.status == 1, "end of input is a drop-off: \(dropOff.stderr)")

    let listed = try runFlowrun(["submissions", store, "--json"] + options)
    #expect(listed.status == 0, "\(listed.stderr)")
    let answer = try #require(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
    #expect(answer["total"] as? Int == total)
    let rows = try #require(answer["submissions"] as? [[String: Any]])
    #expect(rows.compactMap { $0["session_id"] as? String } == sessions)
    guard options.isEmpty else { return }
    let example =
      #"{"id":"d4596b54-34b7-511f-b43b-fad7228d870c","flow_id":"4a750018-f71a-5bac-a443-f03562161bd5","#
      + #""user_id":"user_456","session_id":"session_789","#
      + #""data":{"name":"Alex","email":"alex@example.com","goals":["fitness","nutrition"]},"#
      + #""last_screen_id":"screen_3","last_screen_index":3,"#
      + #""completed_at":"2024-01-15T10:30:00.000Z","created_at":"2024-01-15T10:25:00.000Z"}"#
    #expect(listed.stdout.hasPrefix(#"{"submissions":["# + example + ","))
    #expect(listed.stdout.hasSuffix(#"],"total":2}"# + "\n"))
    #expect(rows.last?["data"] as? [String: String] == ["name": "Sam"])
    #expect(rows.last?["last_screen_id"] as? String == "screen_1")
    #expect(rows.last?["completed_at"] is NSNull)
  }

  /// "Run this migration to create the submissions table": the store a run creates has the
  /// table's columns and its three indexes (creating an index again fails: it exists).
  @Test(arguments: [
    "SELECT id, app_id, flow_id, user_id, device_id, session_id, data, last_screen_id, last_screen_index, "
      + "completed_at, created_at, updated_at FROM onboarding_submissions",
    "CREATE INDEX idx_onboarding_submissions_app_user ON onboarding_submissions(app_id, user_id)",
    "CREATE INDEX idx_onboarding_submissions_flow ON onboarding_submissions(flow_id)",
    "CREATE INDEX idx_onboarding_submissions_session ON onboarding_submissions(session_id)",
  ])
  func theStoreHasTheMigrationsTableAndIndexes(_ sql: String) throws {
    let temporary = try TemporaryDirectory()
    let path = temporary.path + "/subs.db"
    let run = try runFlowrun(["run", Self.directory + "submissions-example.json", "--store", path], stdin: "Sam\n")
    #expect(run.status == 1, "\(run.stderr)")
    if sql.hasPrefix("SELECT") {
      try sqliteExecute(path, sql)
    } else {
      #expect(throws: (any Error).self) { try sqliteExecute(path, sql) }
    }
  }
}
