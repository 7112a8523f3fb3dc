import FlowSupport
import Foundation
import Testing
import _FlowTestSupport

/// AppDNA chat extras on the built binary: quick replies by turn (`show_at_turn`, a
/// `quick_reply_inject` turn action, the static ones), per-turn `--mock chat.STEP.TURN`, and the
/// `--ios-quirks` switches of a chat and of `--context` (docs/dialects/appdna.md, "Interactive
/// chat", "iOS quirks").
@Suite struct ChatExtrasTests {
  static let flow = """
    {"id": "f", "steps": [
     {"id": "coach", "type": "interactive_chat", "config": {"chat_config": {"max_user_turns": 3,
       "quick_replies": [{"id": "help", "text": "Help"}, {"id": "start", "text": "Start", "show_at_turn": 0},
         {"id": "more", "text": "Tell me more", "show_at_turn": 1}],
       "turn_actions": [{"turn": 2, "type": "quick_reply_inject",
         "config": {"quick_replies": [{"id": "done", "text": "I'm done"}]}}],
       "webhook": {"enabled": true, "webhook_url": "https://example.invalid/chat"}}}},
     {"id": "end", "type": "welcome"}
    ]}
    """

  /// The quick replies offered at open and after each turn: document 001 keeps the static ones
  /// and adds each turn's; iOS 1.0.70 offers those of turn 0 at open and none later.
  @Test(arguments: [
    (
      [String](),
      [
        "[start] Start, [help] Help", "[more] Tell me more, [help] Help", "[x] X, [done] I'm done, [help] Help",
      ]
    ),
    (["--ios-quirks"], ["[help] Help, [start] Start", "quick replies (:reply ID): [x] X\n"]),
  ])
  func quickRepliesByTurn(_ flags: [String], _ offered: [String]) throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file("f.json", contents: Self.flow)
    let result = try runFlowrun(
      [
        "run", flow, "--width", "80", "--mock", #"chat.coach.1=200 {"messages":[{"content":"first"}]}"#, "--mock",
        #"chat=200 {"messages":[{"content":"other"}],"quick_replies":[{"id":"x","text":"X"}]}"#,
      ] + flags, stdin: ":chat hello\n:chat again\n")
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    for line in offered { #expect(result.stdout.contains(line), "\(flags) offers \(line)\n\(result.stdout)") }
    // Turn 1 has its own mock; turn 2 the step's other one.
    #expect(result.stdout.contains("ai: first") && result.stdout.contains("ai: other"), "\(result.stdout)")
    #expect(!result.stdout.contains("[more]") || flags.isEmpty)
  }

  @Test func aTurnMockOfAnUnknownStepIsRefused() throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file("f.json", contents: Self.flow)
    let result = try runFlowrun(["run", flow, "--mock", "chat.nope.1=200 {}"])
    #expect(result.status == 64, "\(result.stderr)")
    #expect(result.stderr.contains("--mock chat.nope: no step 'nope' in the flow"), "\(result.stderr)")
  }

  /// Over real HTTP: the request's `turn` and `rating`, the chat events' names and the
  /// transcript's `completion_reason`, by the document and by iOS 1.0.70's code.
  @Test(arguments: [
    (
      [String](), [#""turn":1,"#, #""rating":null"#], [#""turn":2,"#, #""rating":null"#],
      ["chat_step_viewed", "chat_step_completed"], "ai_completed"
    ),
    (
      ["--ios-quirks"], [#""turn":0,"#], [#""turn":1,"#, #""rating":0"#], ["chat_completed"], "max_turns"
    ),
  ])
  func chatQuirks(
    _ flags: [String], _ first: [String], _ second: [String], _ events: [String], _ reason: String
  ) throws {
    let server = try LoopbackTestServer { _, number in
      .init(body: #"{"messages":[{"content":"Reply \#(number)"}],"force_complete":\#(number == 1)}"#)
    }
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    let flow = directory.file(
      "f.json",
      contents: """
        {"id": "f", "steps": [
         {"id": "coach", "type": "interactive_chat", "config": {"chat_config": {"max_user_turns": 3,
           "turn_actions": [{"turn": 2, "type": "rating_prompt"}],
           "webhook": {"enabled": true, "webhook_url": "\(server.url)/chat"}}}},
         {"id": "end", "type": "welcome"}]}
        """)
    let result = try runFlowrun(
      ["run", flow, "--events", directory.path + "/events.ndjson", "--data", directory.path + "/data.json"] + flags,
      stdin: ":chat a\n:chat b\n1\n1\n")
    #expect(result.stdout.contains("Flow completed"), "\(result.stdout)\(result.stderr)")
    let requests = server.requests
    #expect(requests.count == 2)
    for part in first { #expect(requests.first?.body.contains(part) == true, "\(requests.first?.body ?? "")") }
    #expect(flags.isEmpty || requests.first?.body.contains(#""rating""#) == false)
    for part in second { #expect(requests.last?.body.contains(part) == true, "\(requests.last?.body ?? "")") }
    let sent = WebhookRunTests.events(directory)
    for name in events { #expect(sent.contains(name), "\(flags): \(sent)") }
    #expect(sent.contains("chat_step_viewed") == flags.isEmpty, "\(sent)")
    #expect(sent.contains("chat_step_completed") == flags.isEmpty, "\(sent)")
    let data = (directory.text("data.json") ?? "").filter { !$0.isWhitespace }
    #expect(data.contains(#""completion_reason":"\#(reason)""#), "\(data)")
  }

  /// iOS 1.0.70 takes an OnboardingContext and ignores it: its userProperties do not target.
  @Test(arguments: [([String](), "Winter offer"), (["--ios-quirks"], "Hi there")])
  func contextIgnoredByTheSDK(_ flags: [String], _ shown: String) throws {
    let directory = try TemporaryDirectory()
    let context = directory.file("c.json", contents: #"{"userProperties": {"campaign_cohort": "winter_2025"}}"#)
    let result = try runFlowrun(
      ["run", ProductDocumentExampleTests.appdna, "--context", context, "--width", "60"] + flags, stdin: "")
    #expect(result.stdout.contains(shown), "\(flags)\n\(result.stdout)")
  }
}
