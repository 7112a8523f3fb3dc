import Foundation
import Testing
import _FlowTestSupport

/// Issue 19 through the command line: nothing silent, earlier answers supplied, colour.
@Suite(.timeLimit(.minutes(2))) struct DesignerCommandTests {
  static let fixedNow = ["--now", "2026-01-01T00:00:00Z"]

  /// A flow whose buttons change nothing on screen, and a screen with no way out.
  static let buttonsFlow = """
    {
      "version": 1, "id": "buttons", "name": "Buttons", "startScreen": "home",
      "screens": [
        { "id": "home", "name": "Home", "type": "welcome", "order": 0,
          "content": { "useBlocks": true, "blocks": [
            { "id": "terms", "type": "button", "order": 0, "content": { "text": "Terms",
              "action": { "type": "openUrl", "url": "https://example.com/terms" } } },
            { "id": "ping", "type": "button", "order": 1, "content": { "text": "Ping",
              "action": { "type": "custom", "identifier": "app.ping" } } },
            { "id": "lost", "type": "button", "order": 2, "content": { "text": "Lost",
              "action": { "type": "screen", "screenId": "interest" } } },
            { "id": "go", "type": "button", "order": 3, "content": { "text": "Go", "action": { "type": "next" } } }
          ] } },
        { "id": "stuck", "name": "Stuck", "type": "feature", "order": 1,
          "content": { "useBlocks": true, "blocks": [
            { "id": "t", "type": "text", "order": 0, "content": { "text": "No way out" } }
          ] } }
      ]
    }
    """

  func write(_ text: String, _ name: String, in directory: TemporaryDirectory) throws -> String {
    let path = directory.url.appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// Item 5: every button says what it did, and `run` warns at the start about check errors.
  @Test func everyActionGivesFeedbackAndCheckErrorsAreAnnounced() throws {
    let directory = try TemporaryDirectory()
    let flow = try write(Self.buttonsFlow, "buttons.json", in: directory)
    let result = try runFlowrun(["run", flow] + Self.fixedNow, stdin: "1\nping\n3\n:quit\n")
    #expect(result.stdout.contains("→ opened https://example.com/terms (not followed)\n"))
    #expect(result.stdout.contains("→ sent custom action 'app.ping' (not awaited)\n"))
    #expect(result.stdout.contains("→ goto 'interest': no such screen in flow 'buttons' → staying\n"))
    #expect(result.stderr.contains("flowrun: warning: `flowrun check` finds 1 error in this flow; the run goes on."))
    #expect(result.stderr.contains("[check.dead-end]"))
    #expect(result.status == 1)
  }

  /// Item 6: `--set` and `--data-in` supply earlier answers to `run` (no raw template after
  /// `--start`), and `:set` takes any field of the flow, with a "did you mean" for a typo.
  @Test func runTakesEarlierAnswers() throws {
    let directory = try TemporaryDirectory()
    let dataIn = try write(#"{"name": "Sam", "hours_daily": 1}"#, "in.json", in: directory)
    let result = try runFlowrun(
      ["run", "sample-flows/fitness.json", "--start", "reclaim", "--data-in", dataIn, "--set", "name=Alex"]
        + Self.fixedNow,
      stdin: ":set hours_dayly 2\n:set hours_daily 3\n:data\n:quit\n")
    #expect(result.stdout.contains("Alex, you'll reclaim 365 hours this year!"), "\(result.stdout)")
    #expect(!result.stdout.contains("{round("), "a raw template:\n\(result.stdout)")
    #expect(result.stdout.contains("! no field 'hours_dayly' in this flow (did you mean 'hours_daily'?)"))
    #expect(result.stdout.contains("(hours_daily set to 3)"))
    #expect(result.stdout.contains(#""hours_daily": 3"#))
  }

  /// `render --set`/`--data-in` replace the mock values; a `--data-in` that is not a JSON object
  /// is refused (exit 2) with what it must hold.
  @Test func renderTakesEarlierAnswers() throws {
    let directory = try TemporaryDirectory()
    let dataIn = try write(#"{"monthly_spend": 3000}"#, "in.json", in: directory)
    let rendered = try runFlowrun(["render", "sample-flows/bundle.json", "--screen", "budget", "--data-in", dataIn])
    #expect(rendered.status == 0, "\(rendered.stderr)")
    #expect(rendered.stdout.contains("That's roughly $99 a day."), "\(rendered.stdout)")
    let set = try runFlowrun(["render", "sample-flows/bundle.json", "--screen", "budget", "--set", "monthly_spend=730"])
    #expect(set.stdout.contains("That's roughly $24 a day."), "\(set.stdout)")
    let list = try write("[1, 2]", "list.json", in: directory)
    let refused = try runFlowrun(["render", "sample-flows/bundle.json", "--data-in", list])
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("must hold one JSON object"))
  }

  /// `test --set`: the value is there before the first step; the script's own steps override it.
  @Test func testTakesEarlierAnswersThatScriptsOverride() throws {
    let directory = try TemporaryDirectory()
    let flow = packageRoot().appendingPathComponent("sample-flows/fitness.json").path
    let script = try write(
      """
      flow: \(flow)
      start: reclaim
      steps:
        - expect: {text: "Alex, you'll reclaim 1,095 hours this year!"}
        - set: {name: Bo}
        - expect: {text: "Bo, you'll reclaim 1,095 hours this year!"}
      """, "preset.flow-test.yaml", in: directory)
    let passed = try runFlowrun(["test", script, "--set", "name=Alex", "--set", "hours_daily=3"])
    #expect(passed.status == 0, "\(passed.stdout)")
    let failed = try runFlowrun(["test", script, "--set", "name=Sam", "--set", "hours_daily=3"])
    #expect(failed.status == 1)
    #expect(failed.stdout.contains("Sam, you'll reclaim"), "the failure shows the screen: \(failed.stdout)")
  }

  /// Item 8: `check` and `test` colour their status words with `--color always` (and on a
  /// terminal); `never` and a pipe under `auto` give plain text.
  @Test(arguments: ["always", "never", "auto"])
  func checkAndTestColourTheirStatusWords(_ mode: String) throws {
    let directory = try TemporaryDirectory()
    let flow = try write(Self.buttonsFlow, "buttons.json", in: directory)
    let check = try runFlowrun(["check", flow, "--color", mode])
    let test = try runFlowrun(["test", "sample-flows/tests/fitness/lose-time.flow-test.yaml", "--color", mode])
    #expect(check.status == 1)
    #expect(test.status == 0)
    if mode == "always" {
      #expect(check.stdout.contains(": \u{1B}[1;31merror:\u{1B}[0m screen 'stuck' has no way forward"))
      #expect(check.stdout.contains("\u{1B}[1;36mnote:\u{1B}[0m it has no buttons"))
      #expect(test.stdout.hasPrefix("\u{1B}[1;32mPASS\u{1B}[0m sample-flows/tests/fitness/lose-time"))
      #expect(test.stdout.hasSuffix("\u{1B}[1;32m1 passed\u{1B}[0m, 0 failed\n"))
    } else {
      #expect(!check.stdout.contains("\u{1B}") && !test.stdout.contains("\u{1B}"))
      #expect(test.stdout.hasSuffix("1 passed, 0 failed\n"))
    }
  }

  /// Item 8, the smaller faults: each a run (or check) of the sample flows and the line that
  /// now says what happened.
  static let smaller: [(String, [String], String, String)] = [
    (
      "run --start has a did-you-mean", ["run", "sample-flows/fitness.json", "--start", "reclam"], "",
      "did you mean 'reclaim'?"
    ),
    (
      ":skip taps the screen's Skip button", ["run", "sample-flows/survey.json", "--start", "tools"], ":skip\n",
      "(:skip taps 2 Skip this question)"
    ),
    (
      "a toggle's error speaks as its [y/n] prompt", ["run", "sample-flows/goals.json", "--start", "focus"], "maybe\n",
      "! toggle 'coach_checkins' takes y or n (yes/no, true/false, on/off, 1/0), not 'maybe'"
    ),
    (
      ":cancel on a native screen says it stays", ["run", "sample-flows/signin.json", "--start", "paywall"],
      ":cancel\n",
      "→ native screen 'paywall' cancelled → staying"
    ),
    (
      "a list of one is shown as a list", ["run", "sample-flows/fitness.json", "--start", "interests"], "cardio\n",
      "interests: [cardio]"
    ),
    ("the variant is in :why", ["run", "sample-flows/goals.json"], ":why\n", "variants: plan_copy=coach\n"),
    (
      "a forced variant says so", ["run", "sample-flows/goals.json", "--variant", "plan_copy=control"], ":trace\n",
      "variants: plan_copy=control (forced)\n"
    ),
    (
      ":set acknowledges, also a clearing", ["run", "sample-flows/fitness.json", "--start", "name"],
      "Alex\n:set name \"\"\n", "(name cleared)"
    ),
    (
      "--start says which names the screen lacks", ["run", "sample-flows/fitness.json", "--start", "reclaim"], "",
      "(screen 'reclaim' reads name, hours_daily, which nothing has set: run with --set name=VALUE"
    ),
    (
      "check DIR checks the flows below it", ["check", "sample-flows/appdna"], "",
      "checked 4 files: 0 errors, 1 warning"
    ),
    (
      "paths colours its notes", ["paths", "sample-flows/signin.json", "--max-states", "3", "--color", "always"], "",
      "\u{1B}[1;36mnote:\u{1B}[0m stopped at --max-states 3"
    ),
    (
      "a --mock the flow never uses is refused",
      ["run", "sample-flows/fitness.json", "--mock", "permission.notification=success"],
      "", "(did you mean 'permission.notifications'?); identifiers: permission.notifications"
    ),
  ]

  @Test(arguments: smaller)
  func smallerFaults(_ what: String, _ arguments: [String], _ input: String, _ expected: String) throws {
    let result = try runFlowrun(
      arguments + Self.fixedNow.filter { _ in arguments[0] == "run" }, stdin: input + ":quit\n")
    #expect(
      result.stdout.contains(expected) || result.stderr.contains(expected),
      "\(what):\n\(result.stdout)\n\(result.stderr)")
  }

  /// Item 9: the documents' examples are the binary's output: the README's `check` example,
  /// and the annotated script of docs/replay-scripts.md, which is the file a test run passes.
  @Test func documentedExamplesAreCurrent() throws {
    let readme = try String(contentsOf: packageRoot().appendingPathComponent("README.md"), encoding: .utf8)
    let command = "$ flowrun check Tests/FlowFormatTests/Fixtures/invalid/wrong-type-min.json\n"
    let example = try #require(
      readme.components(separatedBy: command).dropFirst().first?.components(separatedBy: "```").first)
    let check = try runFlowrun(["check", "Tests/FlowFormatTests/Fixtures/invalid/wrong-type-min.json"])
    #expect(check.stdout == example)

    let script = "docs/examples/walkthrough.flow-test.yaml"
    let text = try String(contentsOf: packageRoot().appendingPathComponent(script), encoding: .utf8)
    let doc = try String(contentsOf: packageRoot().appendingPathComponent("docs/replay-scripts.md"), encoding: .utf8)
    #expect(doc.contains("```yaml\n" + text + "```"))
    let test = try runFlowrun(["test", script])
    #expect(test.status == 0, "\(test.stdout)")
    #expect(doc.contains("$ flowrun test \(script)\n" + test.stdout))
  }

  /// Item 8: a bound in the wrong order is reported at that bound, an unknown block type at the
  /// type: the key to fix, not the object around it.
  @Test func positionsPointAtTheKeyToFix() throws {
    let directory = try TemporaryDirectory()
    let source = try String(
      contentsOf: packageRoot().appendingPathComponent("sample-flows/fitness.json"), encoding: .utf8)
    let edited = source.replacingOccurrences(of: #""min": 0, "max": 8"#, with: #""min": 9, "max": 8"#)
      .replacingOccurrences(of: #""type": "icon", "order": 0"#, with: #""type": "iconz", "order": 0"#)
    let flow = try write(edited, "bounds.json", in: directory)
    let check = try runFlowrun(["check", flow])
    let lines = check.stdout.split(separator: "\n").map(String.init)
    let range = try #require(lines.firstIndex { $0.contains("slider min 9 is greater than max 8") })
    #expect(lines[range + 1].contains(#""min": 9"#))
    #expect(
      lines[range + 2].firstIndex(of: "^")
        == lines[range + 1].firstRange(of: #""min""#).map { lines[range + 1].index($0.upperBound, offsetBy: 2) })
    let type = try #require(lines.firstIndex { $0.contains("unknown block type 'iconz'") })
    #expect(lines[type + 2].firstIndex(of: "^") == lines[type + 1].firstRange(of: #""iconz""#)?.lowerBound)
  }

  /// Item 8: `paths --verbose` says what each covering path is the first to cover, so two
  /// paths whose screens read the same are told apart.
  @Test func coveringPathsSayWhatTheyAdd() throws {
    let result = try runFlowrun(["paths", "sample-flows/signin.json", "--verbose"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let same = lines.indices.filter { lines[$0].hasSuffix(". router → welcome → $complete") }
    #expect(same.count >= 2)
    let adds = same.map { lines[$0 + 1] }
    #expect(adds.allSatisfy { $0.hasPrefix("     first to cover: ") })
    #expect(Set(adds).count == adds.count, "\(adds)")
  }

  /// Item 8: a misspelt condition variable is a `check` error, and `run` announces it at the
  /// start with the other faults.
  @Test func misspeltVariableIsAnError() throws {
    let directory = try TemporaryDirectory()
    let source = try String(
      contentsOf: packageRoot().appendingPathComponent("sample-flows/bundle.json"), encoding: .utf8)
    let flow = try write(
      source.replacingOccurrences(of: #""when": "household_size > 1""#, with: #""when": "houshold_size > 1""#),
      "typo.json", in: directory)
    let result = try runFlowrun(["run", flow] + Self.fixedNow, stdin: ":quit\n")
    #expect(result.stderr.hasPrefix("flowrun: warning: `flowrun check` finds 1 error in this flow; the run goes on.\n"))
    #expect(result.stderr.contains("note: did you mean 'household_size'?"))
    let check = try runFlowrun(["check", flow])
    #expect(check.status == 1)
    #expect(check.stdout.contains("error: screen 'profile' reads 'houshold_size', which no screen collects"))
  }

  /// Item 4: the screen a `test` failure shows reads a slider's default in its templates, as
  /// `run` draws it, never the raw template.
  @Test func failureScreensShowDefaultsNotRawTemplates() throws {
    let directory = try TemporaryDirectory()
    let flow = packageRoot().appendingPathComponent("sample-flows/goals.json").path
    let script = try write(
      """
      flow: \(flow)
      start: weight_plan
      steps:
        - expect: {text: "about 99 weeks"}
      """, "weeks.flow-test.yaml", in: directory)
    let result = try runFlowrun(["test", script])
    #expect(result.status == 1)
    #expect(result.stdout.contains("about 10 weeks"), "\(result.stdout)")
    #expect(!result.stdout.contains("| At a steady half kilo a week, that's about {target_loss_kg"), "\(result.stdout)")
  }
}
