import Foundation
import Testing
import _FlowTestSupport

/// The `--ios-quirks` switches the AppDNA loader applies (`LoadOptions.iosQuirks`): form checks,
/// nested template paths, the required gate of nested blocks, drafts, `depends_on` `gt`/`lt`
/// with a whole number; by document 001 and by iOS 1.0.70's code, on the built binary, through
/// `run --ios-quirks` and a script's `ios_quirks: true` (docs/dialects/appdna.md, "iOS quirks").
@Suite struct LoaderQuirksTests {
  static let form = """
    {"id": "f", "steps": [
     {"id": "s1", "type": "form", "config": {"fields": [
       {"id": "email", "type": "email", "label": "Email"},
       {"id": "age", "type": "number", "label": "Age", "config": {"min_value": 13}},
       {"id": "nick", "type": "text", "label": "Nick", "config": {"max_length": 3}},
       {"id": "home", "type": "location", "label": "Home"},
       {"id": "older", "type": "text", "label": "Older",
        "depends_on": {"field_id": "age", "operator": "gt", "value": 5}}]}},
     {"id": "s2", "type": "custom", "config": {"content_blocks": [
       {"id": "t", "type": "text", "text": "From {{onboarding.s1.home.city | nowhere}}"},
       {"id": "r", "type": "row", "children": [{"id": "code", "type": "input_text", "field_required": true}]},
       {"id": "b", "type": "button", "text": "Go"}]}}
    ]}
    """

  @Test(arguments: [
    (
      [String](), "nope\n7\nlongnick\n{\"city\":\"Oslo\"}\n\n1\n",
      ["! Email: Enter a valid email address", "! Age: Must be at least 13", "! Nick: Must be at most 3 characters"]
    ),
    (["--ios-quirks"], "nope\n7\nlongnick\n{\"city\":\"Oslo\"}\n\n1\n\n1\n", ["From nowhere", "Flow completed"]),
    ([], "a@b.co\n17\nabc\n{\"city\":\"Oslo\"}\n\n1\n\n1\n", ["From Oslo", "! code: This field is required"]),
  ])
  func formChecksTemplatesAndTheRequiredGate(_ flags: [String], _ answers: String, _ shown: [String]) throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file("f.json", contents: Self.form)
    let result = try runFlowrun(["run", flow, "--width", "70"] + flags, stdin: answers)
    for line in shown { #expect(result.stdout.contains(line), "\(flags) shows '\(line)'\n\(result.stdout)") }
  }

  /// `depends_on {operator: gt, value: 5}`: visible once age is 7 by the document; hidden for
  /// good on iOS, whose `as? Double` cast of the whole number 5 fails.
  @Test(arguments: [(false, true), (true, false)])
  func dependsOnAWholeNumber(_ quirks: Bool, _ passes: Bool) throws {
    let directory = try TemporaryDirectory()
    directory.file("f.json", contents: Self.form)
    let script = directory.file(
      "f.flow-test.yaml",
      contents: """
        flow: f.json
        ios_quirks: \(quirks)
        steps:
          - fill: {email: a@b.co, age: 7}
          - fill: {older: yes}

        """)
    let result = try runFlowrun(["test", script])
    #expect((result.status == 0) == passes, "\(result.stdout)\(result.stderr)")
    #expect(passes || result.stdout.contains("field 'older' is hidden"), "\(result.stdout)")
  }

  /// A draft named by `active_flow_id` is never delivered by the document; iOS never reads
  /// `status` and presents it.
  @Test(arguments: [(false, "b"), (true, "a")])
  func draftsDelivered(_ quirks: Bool, _ step: String) throws {
    let directory = try TemporaryDirectory()
    directory.file(
      "d.json",
      contents: """
        {"active_flow_id": "main", "flows": {
          "main": {"status": "draft", "steps": [{"id": "a", "type": "welcome"}]},
          "other": {"steps": [{"id": "b", "type": "welcome"}]}}}
        """)
    let script = directory.file(
      "d.flow-test.yaml",
      contents: """
        flow: d.json
        ios_quirks: \(quirks)
        steps:
          - next
        expect:
          completed: true
          path: [\(step)]

        """)
    let result = try runFlowrun(["test", script])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }

  /// `onboarding_flow_started.flow_version` of a flow without `version`: null by flowrun's
  /// choice (the document is silent), the string "nil" on iOS 1.0.70; a given version either way.
  @Test(arguments: [
    ("", [String](), #""flow_version":null"#), ("", ["--ios-quirks"], #""flow_version":"nil""#),
    (#""version": 3, "#, ["--ios-quirks"], #""flow_version":3"#),
  ])
  func flowVersion(_ version: String, _ flags: [String], _ expected: String) throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file("f.json", contents: #"{"id": "f", \#(version)"steps": [{"id": "a", "type": "welcome"}]}"#)
    let result = try runFlowrun(["run", flow, "--events", directory.path + "/events.ndjson"] + flags, stdin: "1\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(directory.text("events.ndjson")?.contains(expected) == true, "\(directory.text("events.ndjson") ?? "")")
  }
}
