import Foundation
import Testing
import _FlowTestSupport

/// `onBeforeStepRender` (document 001, "Async Step Hooks") on the built binary: a
/// `StepConfigOverride` from `--mock render`, a script's `hook:` or `--hook-command` changes the
/// step's title, subtitle and button text and pre-fills its empty fields; a hook that fails
/// shows the step as authored (docs/dialects/appdna.md, "Hooks").
@Suite struct AppDNARenderHookTests {
  static let flow = """
    {"id": "r", "steps": [
      {"id": "intro", "type": "welcome", "config": {"title": "Hello", "cta_text": "Go"}},
      {"id": "profile_step", "type": "form", "config": {"title": "Your profile", "subtitle": "Tell us",
        "cta_text": "Save", "fields": [{"id": "email", "type": "email", "label": "Email"},
        {"id": "name", "type": "text", "label": "Name"}]}}]}
    """

  static let override =
    #"{"title":"Welcome back, Ada!","ctaText":"Looks right","fieldDefaults":{"email":"ada@example.com","name":"Ada","plan":"pro"}}"#

  @Test(arguments: ["render.profile_step=", "render="])
  func aMockedOverrideChangesTheStep(_ mock: String) throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file("r.json", contents: Self.flow)
    let data = directory.path + "/data.json"
    let result = try runFlowrun(
      ["run", flow, "--mock", mock + Self.override, "--data", data], stdin: "1\n\n\n1\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Welcome back, Ada!\n══════════════════\n\nTell us"), "\(result.stdout)")
    #expect(result.stdout.contains("[1] Looks right"))
    // Only the step's own fields are pre-filled; `plan` is no field of it.
    #expect(directory.text("data.json") == "{\n  \"email\": \"ada@example.com\",\n  \"name\": \"Ada\"\n}\n")
  }

  @Test func aScriptAnswersWithAnOverride() throws {
    let directory = try TemporaryDirectory()
    directory.file("r.json", contents: Self.flow)
    let script = directory.file(
      "r.flow-test.yaml",
      contents: """
        flow: r.json
        steps:
          - tap: Go
          - hook: {title: "Welcome back, Ada!", fieldDefaults: {email: ada@example.com}}
          - expect: {screen: profile_step, text: "Welcome back, Ada!"}
          - fill: {name: Ada}
          - tap: Save
          - hook: proceed
        expect:
          completed: true
          data: {email: ada@example.com, name: Ada}

        """)
    let result = try runFlowrun(["test", script])
    #expect(result.status == 0, "\(result.stdout)")
  }

  @Test(arguments: [
    (
      #"sh -c 'if grep -q before_step_render; then echo "{\"subtitle\":\"From the host\"}"; else echo null; fi'"#,
      "From the host", nil
    ),
    ("sh -c 'exit 1'", "Tell us", "! hook command: sh exited with status 1; the step is shown as authored"),
  ])
  func aHookCommandAnswersBeforeEachStep(_ command: String, _ shows: String, _ says: String?) throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file("r.json", contents: Self.flow)
    let result = try runFlowrun(["run", flow, "--hook-command", command], stdin: "1\n:quit\n")
    #expect(result.stdout.contains("Your profile\n════════════\n\n" + shows), "\(result.stdout)")
    #expect(result.stdout.contains(says ?? "! hook command") == (says != nil), "\(result.stdout)")
  }
}
