import FlowSupport
import Foundation
import Testing
import _FlowTestSupport

/// AppDNA server step webhooks (research §2.6) through the built binary: `run` POSTs to a real
/// HTTP server on loopback in this test process (no mocked transport); `--offline`, `--mock
/// webhook` and a script's `hook: {http: …}` answer instead of calling.
@Suite struct WebhookRunTests {
  static func flow(url: String, timeoutMs: Int = 5000, retries: Int = 1) -> String {
    """
    {"id": "hooked", "steps": [
      {"id": "email_step", "type": "form",
       "config": {"title": "Your email", "fields": [{"id": "email", "type": "email", "label": "Email", "required": true}]},
       "hook": {"enabled": true, "webhook_url": "\(url)", "timeout_ms": \(timeoutMs), "retry_count": \(retries),
                "headers": {"X-User": "{{user.id | anon}}"}, "error_text": "Try later"}},
      {"id": "done", "type": "welcome", "config": {"title": "Score {{onboarding.email_step.score | none}}"}}]}
    """
  }

  static func events(_ directory: TemporaryDirectory) -> [String] {
    (directory.text("events.ndjson") ?? "").split(separator: "\n").compactMap {
      $0.firstMatch(of: #/"event_type":"(\w+)"/#).map { String($0.output.1) }
    }
  }

  /// A failed first attempt is retried; the second's JSON answer decides; the server sees the
  /// SDK's body and the templated header on every attempt.
  @Test func runCallsTheWebhookOverHTTP() throws {
    let server = try LoopbackTestServer { _, number in
      number == 0 ? .init(status: 503, body: "busy") : .init(body: #"{"action":"proceed","data":{"score":42}}"#)
    }
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    let flow = directory.file("hooked.json", contents: Self.flow(url: server.url + "/validate"))
    let result = try runFlowrun(
      [
        "run", flow, "--user", "u7", "--events", directory.path + "/events.ndjson", "--data",
        directory.path + "/data.json", "--record", directory.path + "/recorded.yaml",
      ], stdin: "a@b.co\n1\n")
    #expect(result.stdout.contains("Score 42"), "\(result.stdout)\(result.stderr)")
    let requests = server.requests
    #expect(requests.count == 2)
    for request in requests {
      #expect(request.method == "POST" && request.path == "/validate")
      #expect(request.header("Content-Type") == "application/json" && request.header("X-User") == "u7")
      #expect(
        request.body == #"{"flow_id":"hooked","step_id":"email_step","step_index":0,"step_type":"form","#
          + #""step_data":{"email":"a@b.co"},"responses":{"email":"a@b.co"},"user_id":"u7","app_id":""}"#)
    }
    #expect(
      Self.events(directory) == [
        "onboarding_flow_started", "onboarding_step_viewed", "onboarding_hook_started", "onboarding_hook_retry",
        "onboarding_hook_completed", "onboarding_step_completed", "onboarding_step_viewed",
      ])
    #expect(directory.text("data.json")?.contains(#""score": 42"#) == true)
    // The recording holds each attempt's answer: replayed offline, it walks the same way.
    let recorded = try #require(directory.text("recorded.yaml"))
    #expect(recorded.contains("hook: {http: 503, body: busy}"), "\(recorded)")
    let replay = try runFlowrun(["test", directory.path + "/recorded.yaml"])
    #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
  }

  @Test func aServerSlowerThanTheTimeoutBlocksTheStep() throws {
    let server = try LoopbackTestServer { _, _ in .init(body: #"{"action":"proceed"}"#, delayMs: 800) }
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    let flow = directory.file("hooked.json", contents: Self.flow(url: server.url, timeoutMs: 200, retries: 0))
    let result = try runFlowrun(
      ["run", flow, "--events", directory.path + "/events.ndjson"], stdin: "a@b.co\n1\n")
    #expect(result.stdout.contains("! Try later"), "\(result.stdout)\(result.stderr)")
    #expect(Self.events(directory).suffix(2) == ["onboarding_hook_error", "onboarding_hook_completed"])
    #expect(directory.text("events.ndjson")?.contains(#""error_type":"timeout""#) == true)
  }

  /// Answered without calling anything: a line at `--offline`'s prompt, a mock, a script step.
  @Test(arguments: [
    (["run", "--offline"], "a@b.co\n1\n200 {\"action\":\"block\",\"message\":\"Taken\"}\n", "! Taken"),
    (["run", "--mock", "webhook.email_step=timeout"], "a@b.co\n1\n", "! Try later"),
    (["run", "--mock", "webhook=200 {\"action\":\"proceed\",\"data\":{\"score\":7}}"], "a@b.co\n1\n", "Score 7"),
  ])
  func answeredOffline(_ arguments: [String], _ stdin: String, _ shown: String) throws {
    let directory = try TemporaryDirectory()
    // Nothing listens there: a call would fail as a network error, not answer as expected.
    let flow = directory.file("hooked.json", contents: Self.flow(url: "http://127.0.0.1:9/validate"))
    let result = try runFlowrun([arguments[0], flow] + arguments.dropFirst(), stdin: stdin)
    #expect(result.stdout.contains(shown), "\(result.stdout)\(result.stderr)")
  }

  /// Runs `flowrun test` on a script that fills the email, submits, then takes `steps`.
  static func replay(_ steps: [String]) throws -> ProcessOutput {
    let directory = try TemporaryDirectory()
    directory.file("hooked.json", contents: flow(url: "https://hooks.example.com/validate", retries: 0))
    let lines = ["flow: hooked.json", "steps:", "  - fill: {email: a@b.co}", "  - next"] + steps.map { "  - " + $0 }
    return try runFlowrun([
      "test", directory.file("hooked.flow-test.yaml", contents: lines.joined(separator: "\n") + "\n"),
    ])
  }

  @Test(arguments: [
    ("{http: 200, body: {action: proceed, data: {score: 42}}}", "{screen: done, data: {score: 42}}"),
    ("{http: 200, body: {action: skip_to}}", "{screen: done}"),
    ("{timeout: true}", "{screen: email_step, text: Try later}"),
  ])
  func scriptAnswers(_ answer: String, _ expect: String) throws {
    let result = try Self.replay(["hook: \(answer)", "expect: \(expect)"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }

  @Test func aScriptThatDoesNotAnswerTheWebhookFailsItAsUnanswered() throws {
    let result = try Self.replay(["expect: {screen: email_step, text: Try later}"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }
}
