import Foundation
import Testing
import _FlowTestSupport

/// Every document of the three systems is told by its signature (issue #22 part 5): AppDNA
/// loads, a document flowrun cannot run yet is named for what it is (exit 2, at the key that
/// tells), and `--dialect` forces a reading.
@Suite struct DialectDetectionTests {
  struct Case: Sendable, CustomStringConvertible {
    var name: String
    var json: String
    var arguments: [String] = []
    var status: Int32
    var says: String

    var description: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "Nuxie RemoteFlow",
      json:
        #"{"id": "v", "screens": [{"id": "a"}], "interactions": {"close": [{"trigger": {"type": "press"}, "actions": [{"type": "dismiss"}]}]}}"#,
      status: 0, says: "checked 1 file: no problems"),
    Case(
      name: "Nuxie flow description (era C)",
      json:
        #"{"screens": [{"id": "a"}], "events": {"a": [{"eventName": "go"}]}, "handlers": {"a": [{"eventName": "go", "actions": [{"type": "exit"}]}]}}"#,
      status: 0, says: "checked 1 file: no problems"),
    Case(
      name: "Nuxie campaigns (check lints them)", json: #"{"campaigns": []}"#, status: 0,
      says: "checked 1 file: no problems"),
    Case(
      name: "Nuxie user profile (check lints it)", json: #"{"distinctId": "u", "userProperties": {"plan": "pro"}}"#,
      status: 0, says: "checked 1 file: no problems"),
    Case(
      name: "Nuxie journey release (era E)",
      json:
        #"{"schemaVersion": "nuxie.journey-release.v2", "leg": {"entryStepId": "s", "screens": [{"id": "a"}], "routes": [{"host": {"kind": "screen", "screenId": "a"}, "eventName": "done", "entryStepId": "end"}], "steps": [{"id": "s", "kind": "action", "action": {"type": "navigate", "screenId": "a"}, "outlets": {}}, {"id": "end", "kind": "complete", "outcome": "continue"}]}, "screenBehaviors": [{"screenId": "a", "controls": [{"actionId": "done", "behavior": {"kind": "declarative", "program": [{"type": "emit", "eventName": "done"}]}}]}]}"#,
      status: 0, says: "checked 1 file: no problems"),
    Case(
      name: "Nuxie journey leg without steps", json: #"{"schemaVersion": "nuxie.experience-planes.v1"}"#, status: 2,
      says: "the leg has no screens and no entryStepId"),
    Case(
      name: "Nuxie experience release", json: #"{"schemaVersion": "nuxie.experience-release.v1"}"#, status: 2,
      says: "this is a Nuxie experience release (v1) document"),
    Case(
      name: "signed Nuxie release",
      json: #"{"envelope": {"mediaType": "application/vnd.nuxie.journey+json"}}"#, status: 2,
      says: "this is a signed Nuxie journey release document"),
    Case(
      name: "AppDNA screens module", json: #"{"screens": [{"screen_id": "a"}]}"#, status: 2,
      says: "this is an AppDNA screens-module document"),
    Case(
      name: "AppDNA flow", json: #"{"id": "f", "steps": [{"id": "a", "type": "welcome"}]}"#, status: 0,
      says: "checked 1 file: no problems"),
    Case(
      name: "AppDNA flows document",
      json: #"{"active_flow_id": "f", "flows": {"f": {"steps": [{"id": "a", "type": "welcome"}]}}}"#, status: 0,
      says: "checked 1 file: no problems"),
    Case(
      name: "AppDNA remote-config bundle",
      json: #"{"bundle_version": 1, "onboarding": {"flows": {"f": {"steps": [{"id": "a"}]}}}}"#, status: 0,
      says: "checked 1 file: no problems"),
    Case(
      name: "AppDNA flow forced to Sequence", json: #"{"id": "f", "steps": [{"id": "a"}]}"#,
      arguments: ["--dialect", "sequence"], status: 2, says: "[load.not-a-flow]"),
    Case(
      name: "Sequence flow forced to AppDNA", json: #"{"id": "f", "version": 1, "screens": []}"#,
      arguments: ["--dialect", "appdna"], status: 2, says: "expected an AppDNA flow (an object with 'steps')"),
  ]

  @Test(arguments: cases)
  func checkTellsTheDocument(_ example: Case) throws {
    let directory = try TemporaryDirectory()
    let file = directory.file("doc.json", contents: example.json)
    let result = try runFlowrun(["check"] + example.arguments + [file])
    #expect(result.status == example.status, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains(example.says), "\(result.stdout)")
  }

  @Test(arguments: ["run", "render", "graph", "paths"])
  func everyCommandRefusesAForeignDocument(_ command: String) throws {
    let directory = try TemporaryDirectory()
    let file = directory.file(
      "experience-release.json", contents: #"{"schemaVersion": "nuxie.experience-release.v1", "screens": []}"#)
    let result = try runFlowrun([command, file])
    #expect(result.status == 2)
    #expect(result.stderr.contains("this is a Nuxie experience release (v1) document; supported:"), "\(result.stderr)")
    // The whole list of what flowrun runs fits under the message-length cap, never elided.
    #expect(result.stderr.contains("nuxie.experience-planes.v1) [load.unsupported-dialect]"), "\(result.stderr)")
    #expect(!result.stderr.contains("missing required key"), "\(result.stderr)")
  }

  /// Campaign inputs given to a flow command say which command reads them.
  @Test(arguments: [
    (#"{"campaigns": []}"#, "this is a Nuxie campaigns document", "`flowrun campaign FILE`"),
    (#"{"distinctId": "u"}"#, "this is a Nuxie user profile", "--profile FILE"),
  ])
  func campaignInputsNameTheirCommand(_ json: String, _ what: String, _ hint: String) throws {
    let directory = try TemporaryDirectory()
    let file = directory.file("input.json", contents: json)
    let result = try runFlowrun(["run", file])
    #expect(result.status == 2)
    #expect(result.stderr.contains(what) && result.stderr.contains(hint), "\(result.stderr)")
  }
}
