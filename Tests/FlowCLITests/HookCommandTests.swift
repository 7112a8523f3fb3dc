import Foundation
import Testing
import _FlowTestSupport

/// AppDNA's `onBeforeStepAdvance` (document 001, issue #12 item 4) through the built binary: a
/// submitted step parks on the hook and each answer (script `hook:`, `--mock hook…`, a line
/// typed at `run`'s hook prompt) does what the document says.
@Suite struct HookCommandTests {
  static let flow = packageRoot().appendingPathComponent("sample-flows/appdna/profile-form.json").path

  /// Steps after the profile step is filled and submitted, and what must hold then.
  struct Case: Sendable, CustomStringConvertible {
    var name: String
    var answer: String
    var expect: String
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(name: "proceed", answer: "proceed", expect: "{screen: account_step}"),
    Case(
      name: "proceedWithData merges", answer: "{type: proceedWithData, data: {referral_validated: true}}",
      expect: "{screen: account_step, data: {referral_validated: true}}"),
    Case(
      name: "block stays with the message", answer: "{type: block, message: Invalid referral code.}",
      expect: "{screen: profile_step, text: Invalid referral code.}"),
    Case(name: "stay stays", answer: "stay", expect: "{screen: profile_step}"),
    Case(name: "skipTo jumps", answer: "{type: skipTo, stepId: summary}", expect: "{screen: summary}"),
    Case(
      name: "skipToWithData jumps and merges", answer: "{type: skipToWithData, stepId: summary, data: {vip: true}}",
      expect: "{screen: summary, data: {vip: true}}"),
    Case(
      name: "skipTo an unknown step proceeds", answer: "{type: skipTo, stepId: nowhere}",
      expect: "{screen: account_step}"),
  ]

  static func script(answer: String, expect: String) -> String {
    """
    flow: \(flow)
    steps:
      - tap: Get Started
      - hook: proceed
      - fill: {full_name: Grace Hopper, email: grace@example.com}
      - select: {employment: [Student]}
      - fill: {school: Yale}
      - tap: Continue
      - hook: \(answer)
      - expect: \(expect)

    """
  }

  @Test(arguments: cases)
  func scriptAnswers(_ testCase: Case) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file(
      "hook.flow-test.yaml", contents: Self.script(answer: testCase.answer, expect: testCase.expect))
    let result = try runFlowrun(["test", path])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }

  /// The hook events and `--trace` say what the hook answered.
  @Test func eventsSayTheAnswer() throws {
    let directory = try TemporaryDirectory()
    let script = Self.script(answer: "{type: block, message: Code expired}", expect: "{screen: profile_step}")
    let path = directory.file(
      "hook.flow-test.yaml",
      contents: script + "  - tap: Continue\n  - hook: {type: proceedWithData, data: {ok: true}}\n")
    let events = directory.path + "/events.ndjson"
    let result = try runFlowrun(["run", Self.flow, "--answers", path, "--events", events, "--trace"], stdin: ":quit\n")
    #expect(result.status == 1, "\(result.stderr)")  // quit before the end
    let lines = (directory.text("events.ndjson") ?? "").split(separator: "\n")
    let results = lines.filter { $0.contains("onboarding_hook_completed") }.compactMap {
      $0.firstMatch(of: #/"result":"(\w+)"/#).map { String($0.output.1) }
    }
    #expect(results == ["proceed", "block", "proceed_with_data"])
    #expect(result.stdout.contains("answered block → stay and show 'Code expired'"))
    #expect(result.stdout.contains("merged data: ok"))
  }

  /// A hook the script does not answer proceeds, as a delegate's default answer does.
  @Test func unansweredHookProceeds() throws {
    let directory = try TemporaryDirectory()
    let script = Self.script(answer: "stay", expect: "{screen: profile_step}")
    let path = directory.file(
      "hook.flow-test.yaml", contents: script + "  - tap: Continue\n  - expect: {screen: account_step}\n")
    let result = try runFlowrun(["test", path])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }

  @Test(arguments: [
    ("hook=proceed", "── profile_step"), ("hook.welcome=skipTo summary", "── summary"),
    ("hook=block Not yet", "! Not yet"),
  ])
  func mockAnswers(_ mock: String, _ shows: String) throws {
    let result = try runFlowrun(["run", Self.flow, "--mock", mock], stdin: "1\n:quit\n")
    #expect(result.status == 1, "\(result.stderr)")  // quit before the end
    #expect(result.stdout.contains(shows), "\(result.stdout)")
  }

  /// `run --delegate` asks each hook at a prompt that says what it takes; a bad answer is told.
  @Test func promptAnswers() throws {
    let result = try runFlowrun(
      ["run", Self.flow, "--delegate"], stdin: "1\nmaybe\nblock Nope\n:why\n1\nskipTo summary\n:quit\n")
    #expect(result.status == 1, "\(result.stderr)")  // quit before the end
    #expect(result.stdout.contains("Waiting for onBeforeStepAdvance of welcome with {}"))
    #expect(
      result.stdout.contains("! a hook answer is proceed, block [TEXT], stay [TEXT], skipTo STEP or a JSON result"))
    #expect(result.stdout.contains("leaving welcome via onBeforeStepAdvance\n  answered block → stay and show 'Nope'"))
    #expect(result.stdout.contains("── summary"))
  }

  @Test(arguments: [
    (["--mock", "hook=bogus"], "a hook answer is proceed"),
    (["--mock", "hook.zz=proceed"], "no step 'zz' in the flow"),
  ])
  func badMocksAreUsageErrors(_ arguments: [String], _ says: String) throws {
    let result = try runFlowrun(["run", Self.flow] + arguments, stdin: "")
    #expect(result.status == 64)
    #expect(result.stderr.contains(says), "\(result.stderr)")
  }

  /// `--hook-command`: the request on stdin, the answer from stdout; anything that goes wrong
  /// proceeds with a warning.
  @Test(arguments: [
    (#"echo '{"type":"block","message":"Code expired"}'"#, "! Code expired"),
    (#"echo '{"type":"skipTo","stepId":"summary"}'"#, "── summary"),
    ("echo nope", "! hook command: echo printed no JSON: nope; the step proceeds"),
    ("sh -c 'exit 3'", "! hook command: sh exited with status 3; the step proceeds"),
    ("sleep 20", "! hook command: sleep timed out after 200 ms; the step proceeds"),
    ("/nonexistent/hook", "could not start"),
  ])
  func hookCommandAnswers(_ command: String, _ shows: String) throws {
    let result = try runFlowrun(
      ["run", Self.flow, "--hook-command", command, "--hook-timeout", "200"], stdin: "1\n:quit\n")
    #expect(result.status == 1, "\(result.stderr)")  // quit before the end
    #expect(result.stdout.contains(shows), "\(result.stdout)")
  }

  /// The command reads the step and its data as one JSON object, each request on a call of
  /// its own: `onBeforeStepRender` before each step is shown, `onBeforeStepAdvance` when one
  /// is submitted.
  @Test func hookCommandReadsTheRequest() throws {
    let directory = try TemporaryDirectory()
    let request = directory.path + "/request.json"
    let result = try runFlowrun(
      ["run", Self.flow, "--hook-command", "sh -c 'cat >> \(request); echo proceed'"],
      stdin: "1\nGrace\ng@x.com\n\n2\nYale\n\n\n\n1\n:quit\n")
    #expect(result.status == 1, "\(result.stderr)")
    let requests = (directory.text("request.json") ?? "").split(separator: "\n").map(String.init)
    #expect(
      requests.first
        == #"{"hook":"before_step_render","flow_id":"profile_v1","step_id":"welcome","step_index":0,"step_type":"welcome","responses":{}}"#
    )
    #expect(
      requests.dropLast().last
        == #"{"hook":"before_step_advance","flow_id":"profile_v1","from_step_id":"profile_step","step_index":1,"step_type":"form","step_data":{"full_name":"Grace","email":"g@x.com","employment":"Student","school":"Yale","newsletter":true},"responses":{"full_name":"Grace","email":"g@x.com","employment":"Student","school":"Yale","newsletter":true}}"#
    )
    #expect(
      requests.last?.hasPrefix(#"{"hook":"before_step_render","flow_id":"profile_v1","step_id":"account_step""#) == true
    )
    #expect(result.stdout.contains("── account_step"))
  }
}
