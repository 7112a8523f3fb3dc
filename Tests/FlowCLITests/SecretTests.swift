import Foundation
import Testing
import _FlowTestSupport

/// Secrets stay secret (issue 23 row 3, issue 19 item 7, docs/security.md): a password answer
/// appears nowhere in clear — screens, re-asked prompts, summaries, traces, `:data`, `:events`,
/// `--data`, `--events`, `--record`, transcripts, snapshots, test failures and reports — unless
/// `--show-secrets` asks for it in `--data` and events.
@Suite(.timeLimit(.minutes(3))) struct SecretTests {
  static let signin = [
    "run", "sample-flows/signin.json", "--now", "2026-01-01T00:00:00Z", "--mock", "account.restoreSession=failure",
  ]

  /// Email sign-in: a password too short (rejected by validation once the action answers), the
  /// screen asked again, a good password, every inspection command, then completion.
  static let walk = """
    3
    sub@example.com
    hunter2
    1
    :ok {"isNewUser": false, "hasSubscription": true}

    hunter2-long
    :data
    :events
    :trace
    1
    :ok {"isNewUser": false, "hasSubscription": true}

    """

  func read(_ url: URL, _ name: String) throws -> String {
    try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
  }

  @Test func aPasswordIsMaskedInEveryOutputOfARun() throws {
    let temporary = try TemporaryDirectory()
    let directory = temporary.url
    let files = ["data.json", "events.ndjson", "recorded.flow-test.yaml"].map {
      directory.appendingPathComponent($0).path
    }
    let result = try runFlowrun(
      Self.signin + ["--width", "60", "--trace", "--data", files[0], "--events", files[1], "--record", files[2]],
      stdin: Self.walk)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    assertSnapshot(result.stdout, named: "run-signin-secret.txt")
    for text in [result.stdout, result.stderr, try read(directory, "data.json"), try read(directory, "events.ndjson")] {
      #expect(!text.contains("hunter2"), "\(text)")
    }
    #expect(result.stdout.contains("  password: ••••\n"))
    #expect(try read(directory, "data.json").contains("\"password\": \"••••\""))
    #expect(try read(directory, "events.ndjson").contains("\"password\":\"••••\""))

    // The recording holds placeholders, keeps the rejected answer's outcome, and replays.
    let recorded = try read(directory, "recorded.flow-test.yaml")
    #expect(!recorded.contains("hunter2"), "\(recorded)")
    #expect(recorded.contains("fill: {password: •••• (Must be at least 8 characters)}"), "\(recorded)")
    #expect(recorded.contains("fill: {password: ••••}"), "\(recorded)")
    let replay = try runFlowrun(["test", files[2]])
    #expect(replay.status == 0, "\(replay.stdout)")
  }

  /// A secret typed one line late lands at the button prompt: the rejection does not quote it
  /// on a screen that asks for a secret; elsewhere an unknown button is still named.
  @Test func aSecretTypedAtTheButtonPromptIsNotQuotedBack() throws {
    let result = try runFlowrun(Self.signin, stdin: "3\nsub@example.com\nhunter2\nhunter2-long\n")
    #expect(!result.stdout.contains("hunter2"), "\(result.stdout)")
    #expect(result.stdout.contains("! no button '••••' on screen 'email_entry'"), "\(result.stdout)")
    let elsewhere = try runFlowrun(Self.signin, stdin: "Nope\n")
    #expect(elsewhere.stdout.contains("! no button 'Nope'"), "\(elsewhere.stdout)")
  }

  @Test func showSecretsRevealsThemInDataAndEventsOnly() throws {
    let temporary = try TemporaryDirectory()
    let directory = temporary.url
    let files = ["data.json", "events.ndjson", "recorded.flow-test.yaml"].map {
      directory.appendingPathComponent($0).path
    }
    let result = try runFlowrun(
      Self.signin + ["--show-secrets", "--trace", "--data", files[0], "--events", files[1], "--record", files[2]],
      stdin: Self.walk)
    #expect(result.status == 0)
    #expect(try read(directory, "data.json").contains("\"password\": \"hunter2-long\""))
    #expect(try read(directory, "events.ndjson").contains("\"password\":\"hunter2-long\""))
    for text in [result.stdout, try read(directory, "recorded.flow-test.yaml")] {
      #expect(!text.contains("hunter2"), "\(text)")
    }
  }

  /// The `secret` extension key makes any input secret (an OTP here, with a pattern), and a
  /// recording of it replays: the stand-in matches the pattern.
  @Test func aSecretKeyMasksAnyInputAndItsRecordingReplays() throws {
    let temporary = try TemporaryDirectory()
    let directory = temporary.url
    let flow = directory.appendingPathComponent("otp.json")
    try """
    {"version": 1, "id": "otp", "screens": [
      {"id": "code", "name": "Code", "type": "form", "content": {"blocks": [
        {"id": "in", "type": "input", "content": {"fieldName": "otp", "label": "Code", "secret": true,
          "required": true, "pattern": "^[0-9]{6}$", "patternMessage": "Six digits"}},
        {"id": "go", "type": "button", "content": {"text": "Verify"}}]},
       "rules": [{"when": "otp == '424242'", "goto": "$complete"}, {"goto": "done"}]},
      {"id": "done", "name": "Done", "type": "celebration", "content": {"blocks": [
        {"id": "t", "type": "text", "content": {"text": "Your code {otp} is in"}},
        {"id": "ok", "type": "button", "content": {"text": "Finish"}}]}}
    ]}
    """.write(to: flow, atomically: true, encoding: .utf8)
    let record = directory.appendingPathComponent("otp.flow-test.yaml").path
    let result = try runFlowrun(
      ["run", flow.path, "--now", "2026-01-01T00:00:00Z", "--trace", "--record", record],
      stdin: "12a\n1\n135791\n1\n:data\n1\n")
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    for text in [result.stdout, try String(contentsOfFile: record, encoding: .utf8)] {
      #expect(!text.contains("135791") && !text.contains("12a"), "\(text)")
    }
    #expect(result.stdout.contains("Your code •••• is in"), "a template reads a secret as the mask")
    #expect(result.stdout.contains("otp='••••' → false"), "the trace masks the value a rule read")
    let replay = try runFlowrun(["test", record])
    #expect(replay.status == 0, "\(replay.stdout)")
  }

  /// `flowrun test`: steps, transcripts, snapshots, failure messages and both reports mask a
  /// secret written in the script; `--show-secrets` shows it in the data of the failure only.
  @Test func testOutputAndReportsMaskSecrets() throws {
    let temporary = try TemporaryDirectory()
    let directory = temporary.url
    try FileManager.default.copyItem(
      at: packageRoot().appendingPathComponent("sample-flows/signin.json"),
      to: directory.appendingPathComponent("signin.json"))
    let script = directory.appendingPathComponent("pw.flow-test.yaml")
    try """
    flow: signin.json
    mocks: {account.restoreSession: failure}
    steps:
      - tap: Continue with email
      - fill: {email: sub@example.com, password: hunter2-long}
      - snapshot: pw.txt
    expect:
      data: {password: swordfish-0}
    """.write(to: script, atomically: true, encoding: .utf8)
    let update = try runFlowrun(["test", script.path, "--update"])
    #expect(update.status == 1, "the data expectation still fails: \(update.stdout)")
    let snapshot = try read(directory, "pw.txt")
    #expect(!snapshot.contains("hunter2"), "\(snapshot)")
    #expect(snapshot.contains("> fill: email=\"sub@example.com\", password=\"••••\""), "\(snapshot)")

    let junit = directory.appendingPathComponent("r.xml").path
    let json = directory.appendingPathComponent("r.json").path
    let result = try runFlowrun(["test", script.path, "--junit", junit, "--json", json])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains("password: expected \"••••\", actual \"••••\" (secrets differ; --show-secrets shows them)")
    )
    for text in [result.stdout, try read(directory, "r.xml"), try read(directory, "r.json")] {
      #expect(!text.contains("hunter2") && !text.contains("swordfish"), "\(text)")
    }
    let shown = try runFlowrun(["test", script.path, "--show-secrets"])
    #expect(shown.stdout.contains("password: expected \"swordfish-0\", actual \"hunter2-long\""), "\(shown.stdout)")
    #expect(!shown.stdout.contains("> fill"), "screens and steps stay masked")
  }
}
