import Foundation
import Testing
import _FlowTestSupport

/// `--ios-quirks` (and a script's `ios_quirks: true`) switch AppDNA flows from document 001's
/// behaviour to iOS SDK 1.0.70's where the two differ (docs/dialects/appdna.md, "iOS quirks").
@Suite struct IOSQuirksTests {
  static let flow = """
    {"id": "f", "steps": [
      {"id": "fitness_goal", "type": "question", "config": {"title": "Goal?",
       "options": [{"id": "lose_weight", "label": "Lose"}, {"id": "build_muscle", "label": "Build"}]}},
      {"id": "where", "type": "form", "config": {"fields": [{"id": "home", "type": "location", "label": "City"}]}},
      {"id": "end", "type": "welcome"}]}
    """

  static let answers = "2\n1\n{\"city\":\"Oslo\",\"formatted_address\":\"Oslo, Norway\"}\n1\n1\n"

  @Test(arguments: [
    (
      [String](),
      #""responses":{"fitness_goal":"build_muscle","where":{"home":{"formatted_address":"Oslo, Norway","city":"Oslo","state":null,"state_code":null,"country":null,"country_code":null,"latitude":null,"longitude":null,"timezone":null,"timezone_offset":null,"postal_code":null}}}"#
    ),
    (
      ["--ios-quirks"],
      #""responses":{"fitness_goal":{"selected":["build_muscle"],"selection_mode":"single"},"where":{"home":{"city":"Oslo","state":null,"country":null,"latitude":null,"longitude":null,"timezone":null}}}"#
    ),
  ])
  func runShowsTheDocumentOrTheSDK(_ flags: [String], _ responses: String) throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file("q.json", contents: Self.flow)
    let events = directory.path + "/events.ndjson"
    let result = try runFlowrun(["run", flow, "--events", events] + flags, stdin: Self.answers)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    let completed = (directory.text("events.ndjson") ?? "").split(separator: "\n").last {
      $0.contains("onboarding_flow_completed")
    }
    #expect(completed?.contains(responses) == true, "\(completed ?? "")")
  }

  @Test func aScriptSaysIOSQuirks() throws {
    let directory = try TemporaryDirectory()
    directory.file("q.json", contents: Self.flow)
    let script = directory.file(
      "q.flow-test.yaml",
      contents: """
        flow: q.json
        ios_quirks: true
        steps:
          - select: {fitness_goal: [build_muscle]}
          - next
          - fill: {home: {city: Oslo, postal_code: "0150"}}
          - next
        expect:
          events:
            - {event_type: onboarding_step_completed, properties: {step_id: fitness_goal, selection_data: {selected: [build_muscle], selection_mode: single}}}
          data: {fitness_goal: build_muscle, home: {city: Oslo, state: null, country: null, latitude: null, longitude: null, timezone: null}}
          exact: true

        """)
    let result = try runFlowrun(["test", script])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }
}
