import FlowSupport
import Foundation
import Testing
import _FlowTestSupport

/// AppDNA `interactive_chat` through the built binary: `run` POSTs each user turn to a real
/// HTTP server on loopback in this test process (no mocked transport); `--offline` and
/// `--mock chat` answer instead; a recording replays with `chat:` steps.
@Suite struct ChatRunTests {
  static func flow(url: String) -> String {
    """
    {"id": "coach", "steps": [
      {"id": "chat", "type": "interactive_chat", "config": {"title": "Coach", "chat_config": {
        "max_user_turns": 2, "completion_cta_text": "Done chatting",
        "auto_messages": [{"id": "hi", "turn": 0, "content": "Hello from the coach"}],
        "webhook": {"enabled": true, "webhook_url": "\(url)", "headers": {"Authorization": "Bearer abc"}}}}},
      {"id": "end", "type": "welcome", "config": {"title": "Thread {{input.chat.webhook_data.thread | none}}"}}]}
    """
  }

  /// Two turns over HTTP: the second request carries the first reply's data as `context`; the
  /// hard limit completes the chat; the recording replays offline to the same end.
  @Test func runChatsOverHTTP() throws {
    let server = try LoopbackTestServer { _, number in
      .init(body: #"{"messages":[{"content":"Reply \#(number)"}],"data":{"thread":"t\#(number)"}}"#)
    }
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    let flow = directory.file("coach.json", contents: Self.flow(url: server.url + "/chat"))
    let result = try runFlowrun(
      [
        "run", flow, "--user", "u7", "--events", directory.path + "/events.ndjson", "--data",
        directory.path + "/data.json", "--record", directory.path + "/recorded.yaml",
      ], stdin: ":chat first\n:chat second\nDone chatting\n1\n")
    #expect(result.stdout.contains("ai: Reply 0"), "\(result.stdout)\(result.stderr)")
    let requests = server.requests
    #expect(requests.count == 2)
    #expect(requests.allSatisfy { $0.method == "POST" && $0.header("Authorization") == "Bearer abc" })
    #expect(requests.first?.body.contains(#""context""#) == false)
    #expect(requests.last?.body.contains(#""context":{"thread":"t0"}"#) == true, "\(requests.last?.body ?? "")")
    #expect(
      requests.last?.body.contains(#""turn":2,"user_message":"second","max_turns":2,"remaining_turns":0"#) == true)
    #expect(
      WebhookRunTests.events(directory) == [
        "onboarding_flow_started", "onboarding_step_viewed", "chat_step_viewed", "chat_message_sent",
        "chat_message_received", "chat_message_sent", "chat_message_received", "chat_step_completed",
        "onboarding_step_completed", "onboarding_step_viewed", "onboarding_step_completed", "onboarding_flow_completed",
      ])
    #expect(result.stdout.contains("Thread t1"), "\(result.stdout)")
    let recorded = try #require(directory.text("recorded.yaml"))
    #expect(recorded.contains("chat: {send: first}"), "\(recorded)")
    let replay = try runFlowrun(["test", directory.path + "/recorded.yaml"])
    #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
  }

  /// Answered without calling anything: a line at `--offline`'s prompt, or `--mock chat`.
  @Test(arguments: [
    (["--offline"], ":chat hi\n500 oops\n:chat again\n200 {\"messages\":[{\"content\":\"Fine\"}]}\n1\n1\n", "ai: Fine"),
    (
      ["--mock", "chat.chat=200 {\"messages\":[{\"content\":\"Mocked\"}]}"], ":chat hi\n:chat again\n1\n1\n",
      "ai: Mocked"
    ),
  ])
  func answeredWithoutACall(_ options: [String], _ input: String, _ shown: String) throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file("coach.json", contents: Self.flow(url: "http://127.0.0.1:9/never"))
    let result = try runFlowrun(["run", flow] + options, stdin: input)
    #expect(result.stdout.contains(shown), "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("Flow completed"), "\(result.stdout)\(result.stderr)")
  }
}
