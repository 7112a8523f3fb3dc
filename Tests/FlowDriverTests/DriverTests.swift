import FlowDriver
import FlowEngine
import FlowExpression
import FlowFormat
import FlowReplay
import Foundation
import OrderedCollections
import Testing
import _FlowTestSupport

@Suite struct DriverTests {
  /// A source that shows no prompt (a pipe) gets none made (an empty prompt at every read) and
  /// the run is the same: the same text, path, data and events as with prompts.
  @Test(arguments: [
    ("fitness.json", toNotifications + ["1", ":ok {\"granted\": true}", "1"]),
    ("survey.json", ["1", "2", "", "x", "1", ":back", "1", "1", "1"]),
    ("goals.json", ["1", "Sam", "1", "2", "1", "1"]),
  ])
  func aSourceWithoutPromptsGetsNoneMade(flow: String, lines: [String]) throws {
    let shown = try drive(flow, lines: lines)
    let quiet = ScriptedLines(lines)
    quiet.showsPrompt = false
    let piped = try drive(flow, quiet)
    #expect(piped.output == shown.output)
    #expect(piped.session.path == shown.session.path)
    #expect(piped.session.data == shown.session.data)
    #expect(piped.eventTypes == shown.eventTypes)
    #expect(shown.source.prompts.contains { !$0.isEmpty })
    #expect(piped.source.prompts.count == shown.source.prompts.count)
    #expect(piped.source.prompts.allSatisfy { $0.isEmpty })
  }

  @Test func walksFitnessToCompletionByPipeLines() throws {
    let run = try drive(lines: toNotifications + ["1", ":ok {\"granted\": true}", "1"])
    #expect(run.session.status == .completed)
    #expect(run.session.path == ["welcome", "name", "hours", "reclaim", "interests", "notifications", "done"])
    #expect(
      run.session.data == [
        "name": "Alex", "hours_daily": 3, "interests": .list(["cardio", "hiit"]), "granted": true,
      ])
    #expect(run.eventTypes.last == "onboarding_completed")
    #expect(run.output.contains("── Flow completed · fitness"))
    // Prompts: one per collecting block, then the numbered action prompt.
    #expect(run.source.prompts.contains("First name> "))
    #expect(run.source.prompts.contains("Hours per day [0-8] (2)> "))
    #expect(run.source.prompts.contains("What do you want to train? [1-5, comma-separated]> ") == false)
    #expect(run.source.prompts.contains("interests [1-5, comma-separated]> "))
    #expect(run.source.prompts.contains("[1 Enable notifications | 2 Not now]> "))
    #expect(run.source.prompts.contains("action permission.notifications [:ok [JSON] | :fail [TEXT] | :cancel]> "))
  }

  @Test func emptyLinesKeepDefaultsAndLabelsTapButtons() throws {
    let run = try drive(lines: [
      "get started", "Alex", "continue", "", "Continue", "Show me how", "cardio", "1", ":quit",
    ])
    #expect(run.session.data["hours_daily"] == 2)  // the slider's default, committed on leaving
    #expect(run.session.currentScreen.id == "notifications")
    #expect(run.session.status == .quit(.quit))
  }

  @Test func validationFailureIsExplainedAndOnlyTheFailingFieldIsAskedAgain() throws {
    let run = try drive(lines: ["1", "A1", "1", "Alex", "1", ":quit"])
    #expect(run.output.contains("! First name: Names can't contain digits\n"))
    #expect(run.session.currentScreen.id == "hours")
    #expect(run.session.data["name"] == "Alex")
    #expect(run.eventTypes.contains("validation_failed"))
    let asked = run.source.prompts.filter { $0.hasPrefix("First name") }
    #expect(asked == ["First name> ", "First name (A1)> "])
  }

  @Test func rejectedAnswersAreExplainedAndAskedAgain() throws {
    let run = try drive(lines: ["7", "Nope", ":bakc", "1", "Alex", "1", "9", "abc", "4", ":quit"])
    #expect(run.output.contains("! no button 7 on screen 'welcome'"))
    #expect(run.output.contains("! no button 'Nope' on screen 'welcome'"))
    #expect(run.output.contains("! unknown command ':bakc' (did you mean :back?)"))
    #expect(run.output.contains("! 9 is out of range for 'hours_daily' (0 to 8)"))
    #expect(run.output.contains("! 'abc' is not a number"))
    #expect(run.session.value(ofField: "hours_daily") == 4)
    #expect(!run.driver.recording.inputs.contains(.tap(.number(7))))
  }

  @Test func awaitedActionAnsweredByMock() throws {
    let config = runConfig(mocks: ["permission.notifications": .success(.object(["granted": false]))])
    let run = try drive(config: config, lines: toNotifications + ["1", "1"])
    #expect(run.session.status == .completed)
    #expect(run.session.data["granted"] == false)
    #expect(!run.source.prompts.contains { $0.hasPrefix("action ") })
  }

  @Test func awaitedActionFailureStaysAndCanBeRetried() throws {
    let run = try drive(lines: toNotifications + ["1", ":fail denied", "1", ":cancel", "2", "1"])
    #expect(run.output.contains("! permission.notifications failed: denied"))
    #expect(run.session.status == .completed)
    #expect(run.session.path.suffix(2) == ["notifications", "done"])
  }

  @Test func awaitedActionNobodyAnsweredEndsBlocked() throws {
    let run = try drive(lines: toNotifications + ["1", "yes please"])
    #expect(run.output.contains("! waiting for the result of action 'permission.notifications'"))
    #expect(run.session.status == .quit(.endOfInput))
  }

  @Test func doubleColonEscapesTextStartingWithAColon() throws {
    let run = try drive(config: runConfig(start: "name"), lines: ["::hello", ":quit"])
    #expect(run.session.data["name"] == ":hello")
  }

  @Test func backSkipAndDismiss() throws {
    let back = try drive(lines: ["1", ":back", ":quit"])
    #expect(back.session.path == ["welcome", "name", "welcome"])

    let skip = try drive(lines: toNotifications + [":skip", ":quit"])
    #expect(skip.session.currentScreen.id == "done")
    #expect(skip.eventTypes.contains("screen_skipped"))

    let dismiss = try drive(lines: ["1", ":dismiss"])
    #expect(dismiss.session.status == .dismissed)
    #expect(Array(dismiss.eventTypes.suffix(2)) == ["screen_dropped_off", "onboarding_dismissed"])
  }

  @Test func hiddenBackIsRejectedByTheEngine() throws {
    let run = try drive(lines: [":back", ":quit"])
    #expect(run.output.contains("! back is hidden on screen 'welcome' (hideBack)"))
  }

  @Test func nativeScreenTakesOkAndItsSkipControl() throws {
    let ok = try drive("signin.json", config: runConfig(start: "paywall"), lines: [":ok", ":quit"])
    #expect(ok.source.prompts.first == "native screen paywall [:ok [JSON] | :fail [TEXT] | :cancel | 1 Maybe later]> ")
    #expect(ok.session.currentScreen.id == "done")

    let skipped = try drive("signin.json", config: runConfig(start: "paywall"), lines: ["Maybe later", ":quit"])
    #expect(skipped.session.currentScreen.id == "done")
  }

  @Test func endOfInputOnAPipeDropsOff() throws {
    let run = try drive(lines: ["1"])
    #expect(run.session.status == .quit(.endOfInput))
    let last = try #require(run.session.events.last)
    #expect(last.eventType == "screen_dropped_off")
    #expect(last.properties["reason"] == "end_of_input")
    #expect(run.output.contains("── Session ended (end_of_input) on name · fitness"))
  }

  @Test func terminalCtrlCReasksAndCtrlDQuits() throws {
    let source = ScriptedLines(results: [.interrupted, .line("1"), .interrupted, .endOfFile])
    let run = try drive(interactive: true, source)
    #expect(run.session.currentScreen.id == "name")
    #expect(run.session.status == .quit(.quit))
    #expect(run.session.events.last?.properties["reason"] == "quit")
    #expect(run.source.prompts == ["[1 Get Started]> ", "[1 Get Started]> ", "First name> ", "First name> "])
  }

  @Test func terminalRealTimeMovesTheVirtualClockWithoutBeingRecorded() throws {
    var now: Int64 = 0
    let source = ScriptedLines(["1", "Alex", ":quit"])
    source.onPrompt = { _ in now += 1500 }  // the user thinks for 1.5 s at every prompt
    let driver = try Driver(
      document: sampleDocument("fitness.json"), config: runConfig(), flowPath: "f", source: source,
      output: { _ in }, options: DriverOptions(interactive: true, elapsedMilliseconds: { now }))
    driver.run()
    #expect(driver.session.virtualNow == newYear + 4500)
    #expect(driver.recording.inputs == [.tap(.number(1)), .set(field: "name", value: "Alex"), .quit(reason: .quit)])
  }

  @Test func interruptOnAPipeQuits() throws {
    let run = try drive("fitness.json", ScriptedLines(results: [.line("1"), .interrupted, .line("Alex")]))
    #expect(run.session.status == .quit(.quit))
    #expect(run.session.data["name"] == nil)
  }

  @Test func inspectionCommandsDoNotChangeTheScreen() throws {
    let run = try drive(lines: ["1", "Alex", "1", "0", ":data", ":events", "1", ":why", ":trace", ":help", ":quit"])
    #expect(run.output.contains("{\n  \"name\": \"Alex\",\n  \"hours_daily\": 0\n}\n"))
    #expect(run.output.contains("{\"seq\":1,\"event_type\":\"onboarding_started\""))
    #expect(run.output.contains("leaving hours via"))
    #expect(run.output.contains("rule 1  hours_daily == 0"))
    #expect(run.output.contains(":save FILE"))
    #expect(run.session.currentScreen.id == "interests")
    #expect(run.session.path.filter { $0 == "hours" }.count == 1)
  }

  @Test func setWaitGotoAndRestart() throws {
    let run = try drive(lines: [
      ":goto interests", ":set interests [\"cardio\"]", ":data", ":wait 1500", ":restart", "1", ":quit",
    ])
    #expect(run.output.contains("\"interests\": [\n    \"cardio\"\n  ]"))
    #expect(run.output.contains("(restarted)"))
    #expect(run.session.path == ["welcome", "name"])
    #expect(run.driver.recording.inputs == [.tap(.number(1)), .quit(reason: .quit)])
  }

  @Test func recordsEveryAcceptedInput() throws {
    let run = try drive(lines: ["1", "A1", "1", "Alex", "1", ":wait 10", ":quit"])
    #expect(
      run.driver.recording.inputs == [
        .tap(.number(1)), .set(field: "name", value: "A1"), .tap(.number(1)), .set(field: "name", value: "Alex"),
        .tap(.number(1)), .wait(ms: 10), .quit(reason: .quit),
      ])
  }

  /// Slider and toggle answers are typed text; the recording keeps the value the engine stored.
  @Test(arguments: [
    (["1", "Alex", "1", "5", "1", ":quit"], "hours_daily", Value.number(5), "fill: {hours_daily: 5}"),
    (["1", "Alex", "1", ":set hours_daily 7", "1", ":quit"], "hours_daily", Value.number(7), "fill: {hours_daily: 7}"),
    (["1", "Al", "1", ":quit"], "name", Value.string("Al"), "fill: {name: Al}"),
  ])
  func recordedNumbersStayNumbers(_ lines: [String], _ field: String, _ value: Value, _ yaml: String) throws {
    let run = try drive(lines: lines)
    #expect(run.driver.recording.inputs.contains(.set(field: field, value: value)), "\(run.driver.recording.inputs)")
    let text = ScriptWriter.yaml(for: run.driver.recording, final: run.session)
    #expect(text.contains(yaml), "\(text)")
  }

  @Test func saveWritesAReplayScript() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-save-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("walk.flow-test.yaml").path
    let run = try drive(lines: ["1", "Alex", ":save \(file)", ":save /nonexistent/dir/x.yaml", ":quit"])
    #expect(run.output.contains("(saved 2 inputs to \(file))"))
    #expect(run.output.contains("! cannot write /nonexistent/dir/x.yaml: No such file or directory"))
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(text.contains("flow: "))
    #expect(text.contains("sample-flows/fitness.json"))
  }

  @Test func traceOptionPrintsDecisionsAsTheyHappen() throws {
    let sink = TextSink()
    let driver = try Driver(
      document: sampleDocument("fitness.json"), config: runConfig(), flowPath: "f",
      source: ScriptedLines(["1", "Alex", "1", "1", "1"]),
      output: { sink.text += $0 }, options: DriverOptions(traceDecisions: true))
    driver.run()
    #expect(sink.text.contains("leaving hours via button 'Continue'"))
  }

  @Test func eventsReachTheSinkInOrder() throws {
    var seqs: [Int] = []
    let driver = try Driver(
      document: sampleDocument("fitness.json"), config: runConfig(), flowPath: "f", source: ScriptedLines(["1"]),
      output: { _ in })
    driver.onEvent = { seqs.append($0.seq) }
    driver.run()
    #expect(seqs == Array(1...seqs.count))
    #expect(seqs.count == driver.session.events.count)
  }

  @Test func completionsOfferLabelsAndCommands() throws {
    let source = ScriptedLines(["1", ":quit"])
    var offered: [String: [String]] = [:]
    let sink = TextSink()
    let driver = try Driver(
      document: sampleDocument("fitness.json"), config: runConfig(), flowPath: "f", source: source,
      output: { sink.text += $0 })
    source.onPrompt = { [unowned driver] prompt in
      for prefix in ["Get", "Get S", ":ba", ":set ", "x"] where offered["\(prompt)|\(prefix)"] == nil {
        offered["\(prompt)|\(prefix)"] = driver.completions(linePrefix: prefix)
      }
    }
    driver.run()
    #expect(offered["[1 Get Started]> |Get"] == ["Get Started"])
    #expect(offered["[1 Get Started]> |Get S"] == ["Started"])
    #expect(offered["[1 Get Started]> |:ba"]?.contains(":back") == true)
    #expect(offered["[1 Get Started]> |x"] == [])
    // The current screen's fields first, then every other field the flow collects.
    #expect(offered["First name> |:set "] == ["name", "hours_daily", "interests"])
  }
}
