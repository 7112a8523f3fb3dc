import Foundation
import Testing
import _FlowTestSupport

/// `flowrun run` end to end: the built binary on a pipe.
@Suite(.timeLimit(.minutes(2))) struct RunCommandTests {
  static let walk = """
    1
    A1
    1
    Alex
    1

    1
    1
    2, hiit
    1
    1
    :ok {"granted": true}
    1

    """

  static let fixedNow = ["--now", "2026-01-01T00:00:00Z"]

  func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func walkToCompletionOnAPipe() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let events = directory.appendingPathComponent("events.ndjson").path
    let data = directory.appendingPathComponent("data.json").path
    let result = try runFlowrun(
      ["run", "sample-flows/fitness.json", "--width", "60", "--events", events, "--data", data] + Self.fixedNow,
      stdin: Self.walk)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "")
    assertSnapshot(result.stdout, named: "run-fitness-walk.txt")

    let dataText = try String(contentsOfFile: data, encoding: .utf8)
    #expect(
      dataText == """
        {
          "name": "Alex",
          "hours_daily": 2,
          "interests": [
            "cardio",
            "hiit"
          ],
          "granted": true
        }

        """)

    let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
    let objects = try lines.map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(objects.map { $0["seq"] as? Int } == Array(1...objects.count).map(Optional.some))
    #expect(objects.first?["event_type"] as? String == "onboarding_started")
    #expect(objects.last?["event_type"] as? String == "onboarding_completed")
    #expect(objects.contains { $0["event_type"] as? String == "validation_failed" })
    #expect(objects.allSatisfy { $0["timestamp"] as? String == "2026-01-01T00:00:00.000Z" })
  }

  @Test func runsWithTheSameNowAreByteIdentical() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var outputs: [String] = []
    var eventFiles: [String] = []
    for index in 0..<2 {
      let events = directory.appendingPathComponent("events\(index).ndjson").path
      let result = try runFlowrun(
        ["run", "sample-flows/fitness.json", "--events", events] + Self.fixedNow, stdin: Self.walk)
      #expect(result.status == 0)
      outputs.append(result.stdout)
      eventFiles.append(try String(contentsOfFile: events, encoding: .utf8))
    }
    #expect(outputs[0] == outputs[1])
    #expect(eventFiles[0] == eventFiles[1])
    #expect(!eventFiles[0].isEmpty)
  }

  @Test func endOfInputWhileRunningExitsOneWithDataAndEvents() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let events = directory.appendingPathComponent("events.ndjson").path
    let data = directory.appendingPathComponent("data.json").path
    let result = try runFlowrun(
      ["run", "sample-flows/fitness.json", "--events", events, "--data", data] + Self.fixedNow, stdin: "1\nAlex\n")
    #expect(result.status == 1)
    #expect(result.stdout.contains("Session ended (end_of_input) on name"))
    #expect(try String(contentsOfFile: data, encoding: .utf8) == "{\n  \"name\": \"Alex\"\n}\n")
    let last = try #require(try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").last)
    #expect(last.contains("\"event_type\":\"screen_dropped_off\""))
    #expect(last.contains("\"reason\":\"end_of_input\""))
  }

  @Test func mockAnswersTheAwaitedActionOnAPipe() throws {
    let result = try runFlowrun(
      ["run", "sample-flows/fitness.json", "--mock", "permission.notifications=success:{\"granted\":false}"]
        + Self.fixedNow,
      stdin: "1\nAlex\n1\n\n1\n1\n1\n1\n1\n1\n")
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stdout.contains("No reminders for now."))
  }

  @Test func blockedOnAnAwaitedActionExitsOne() throws {
    let result = try runFlowrun(
      ["run", "sample-flows/fitness.json", "--start", "notifications"] + Self.fixedNow, stdin: "1\n")
    #expect(result.status == 1)
    #expect(result.stdout.contains("Waiting for permission.notifications"))
  }

  @Test func dismissExitsZeroAndQuitExitsOne() throws {
    let dismissed = try runFlowrun(["run", "sample-flows/fitness.json"] + Self.fixedNow, stdin: ":dismiss\n")
    #expect(dismissed.status == 0)
    let quit = try runFlowrun(["run", "sample-flows/fitness.json"] + Self.fixedNow, stdin: ":quit\nnever read\n")
    #expect(quit.status == 1)
    #expect(quit.stdout.contains("Session ended (quit) on welcome"))
  }

  @Test func answersScriptIsPlayedThenTheInputGoesOn() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("start.flow-test.yaml")
    try """
    flow: \(packageRoot().path)/sample-flows/fitness.json
    steps:
      - tap: Get Started
      - fill: {name: Alex}
      - tap: Continue
    """.write(to: script, atomically: true, encoding: .utf8)
    let result = try runFlowrun(
      [
        "run", "sample-flows/fitness.json", "--answers", script.path, "--data",
        directory.appendingPathComponent("d.json").path,
      ]
        + Self.fixedNow,
      stdin: "5\n1\n:quit\n")
    #expect(result.status == 1)
    let data = try String(contentsOfFile: directory.appendingPathComponent("d.json").path, encoding: .utf8)
    #expect(data.contains("\"hours_daily\": 5"))
    #expect(data.contains("\"name\": \"Alex\""))
  }

  /// A tap blocked by validation is not a rejected input: `run --answers` goes on playing
  /// the script exactly where `flowrun test` goes on.
  @Test func answersScriptGoesOnAfterAValidationFailureAsTestDoes() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("blocked.flow-test.yaml")
    try """
    flow: \(packageRoot().path)/sample-flows/fitness.json
    steps:
      - tap: Get Started
      - tap: Continue
      - fill: {name: Alex}
      - tap: Continue
    expect:
      screen: hours
    """.write(to: script, atomically: true, encoding: .utf8)
    let test = try runFlowrun(["test", script.path])
    #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
    let data = directory.appendingPathComponent("d.json").path
    let result = try runFlowrun(
      ["run", "sample-flows/fitness.json", "--answers", script.path, "--data", data] + Self.fixedNow,
      stdin: "5\n1\n:quit\n")
    #expect(result.status == 1)
    #expect(!result.stdout.contains("was not accepted"), "\(result.stdout)")
    let collected = try String(contentsOfFile: data, encoding: .utf8)
    #expect(collected.contains("\"name\": \"Alex\""), "\(collected)")
    #expect(collected.contains("\"hours_daily\": 5"), "\(collected)")
  }

  /// A rejected input still hands over to the lines.
  @Test func answersScriptStopsAtARejectedInput() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("rejected.flow-test.yaml")
    try """
    flow: \(packageRoot().path)/sample-flows/fitness.json
    steps:
      - tap: Get Started
      - tap: No such button
      - fill: {name: Alex}
    """.write(to: script, atomically: true, encoding: .utf8)
    let result = try runFlowrun(
      ["run", "sample-flows/fitness.json", "--answers", script.path] + Self.fixedNow, stdin: ":quit\n")
    #expect(result.status == 1)
    #expect(result.stdout.contains("! --answers: step 2 (tap at line 4) was not accepted"), "\(result.stdout)")
  }

  @Test func recordWritesAReplayScriptThatTestAccepts() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("walk.flow-test.yaml").path
    let run = try runFlowrun(
      ["run", "sample-flows/fitness.json", "--record", script] + Self.fixedNow, stdin: Self.walk)
    #expect(run.status == 0)
    let replay = try runFlowrun(["test", script])
    #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
  }

  static let usageErrors: [[String]] = [
    ["--mock", "permission.notifications=maybe"],
    ["--now", "tomorrow"],
    ["--trait", "locale"],
    ["--variant", "onb_length"],
    ["--color", "sometimes"],
    ["--width", "5"],
    ["--start", "nowhere"],
    ["--flow", "nope"],
  ]

  @Test(arguments: usageErrors)
  func usageErrorsExit64(arguments: [String]) throws {
    let result = try runFlowrun(["run", "sample-flows/fitness.json"] + arguments, stdin: "")
    #expect(result.status == 64, "\(result.stderr)")
    #expect(result.stdout == "")
  }

  @Test func unreadableAndUnrunnableFlows() throws {
    let missing = try runFlowrun(["run", "no/such/flow.json"], stdin: "")
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("no/such/flow.json: error: cannot read file"))
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let broken = directory.appendingPathComponent("broken.json")
    try "{\"screens\": [".write(to: broken, atomically: true, encoding: .utf8)
    #expect(try runFlowrun(["run", broken.path], stdin: "").status == 2)
    let invalid = directory.appendingPathComponent("invalid.json")
    try "{\"id\": \"x\", \"screens\": []}".write(to: invalid, atomically: true, encoding: .utf8)
    let result = try runFlowrun(["run", invalid.path], stdin: "")
    #expect(result.status == 1 || result.status == 2, "\(result.stderr)")
  }

  /// Standard output closed before the first screen: the session ends at once as
  /// `output_failed`, with the same bookkeeping as the end of input (data and events written,
  /// exit 1).
  @Test func closingStdoutEndsTheRunWithItsFilesWritten() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let data = directory.appendingPathComponent("data.json").path
    let events = directory.appendingPathComponent("events.ndjson").path
    let result = try runFlowrunWithClosedStdout(
      ["run", "sample-flows/fitness.json", "--data", data, "--events", events] + Self.fixedNow)
    #expect(result.status == 1, "\(result.stderr)")
    #expect(try String(contentsOfFile: data, encoding: .utf8) == "{}\n")
    let last = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").last ?? ""
    #expect(
      last.contains("\"event_type\":\"screen_dropped_off\"") && last.contains("\"reason\":\"output_failed\""), "\(last)"
    )
  }

  @Test func interruptOnAPipeEndsAsQuitWithFilesWritten() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let data = directory.appendingPathComponent("data.json").path
    let events = directory.appendingPathComponent("events.ndjson").path
    let process = Process()
    process.executableURL = flowrunExecutable()
    process.arguments = ["run", "sample-flows/fitness.json", "--data", data, "--events", events] + Self.fixedNow
    process.currentDirectoryURL = packageRoot()
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }  // never hang
    DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: watchdog)
    defer { watchdog.cancel() }
    input.fileHandleForWriting.write(Data("1\nAlex\n".utf8))  // the pipe stays open: flowrun waits
    let reader = output.fileHandleForReading
    var seen = Data()
    let deadline = Date().addingTimeInterval(20)
    while !String(decoding: seen, as: UTF8.self).contains("── Name (name)"), Date() < deadline {
      seen.append(reader.availableData)
    }
    Thread.sleep(forTimeInterval: 0.2)  // let it read "Alex" and block on the next read
    process.interrupt()  // SIGINT
    _ = reader.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 1)
    #expect(try String(contentsOfFile: data, encoding: .utf8).contains("\"name\": \"Alex\""))
    let last = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").last ?? ""
    #expect(last.contains("\"reason\":\"quit\""))
  }
}

/// `--variant` (run) and `variants:` (test scripts) name only declared experiments and variants.
@Suite struct VariantValidationTests {
  @Test(arguments: [
    ("plan_copi=coach", "unknown experiment 'plan_copi' (did you mean 'plan_copy'?)"),
    (
      "plan_copy=coah", "experiment 'plan_copy' has no variant 'coah' (did you mean 'coach'?); variants: control, coach"
    ),
  ])
  func runRefusesAnUnknownVariantAsWrongUsage(_ option: String, _ message: String) throws {
    let result = try runFlowrun(["run", "sample-flows/goals.json", "--variant", option], stdin: ":quit\n")
    #expect(result.status == 64, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  @Test func aScriptWithAnUnknownVariantIsAScriptErrorAtTheEntry() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "flowrun-variants-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("typo.flow-test.yaml")
    try """
    flow: \(packageRoot().path)/sample-flows/goals.json
    user: u_1
    variants:
      plan_copy: coah
    steps:
      - tap: Let's go
    """.write(to: script, atomically: true, encoding: .utf8)
    let result = try runFlowrun(["test", script.path])
    #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stdout.contains(
        "\(script.path):4:3: error: variants: experiment 'plan_copy' has no variant 'coah' (did you mean 'coach'?)"),
      "\(result.stdout)")
  }
}

/// `:restart` starts a session with its own id: (session_id, seq) is unique in `--events`.
@Suite struct RestartEventsTests {
  @Test(arguments: [nil, "fixed-id"] as [String?])
  func restartedSessionsGetDistinctDerivedIDs(_ given: String?) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "flowrun-restart-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let events = directory.appendingPathComponent("events.ndjson").path
    var arguments = ["run", "sample-flows/fitness.json", "--now", "2026-01-01T00:00:00Z", "--events", events]
    if let given { arguments += ["--session-id", given] }
    let result = try runFlowrun(arguments, stdin: "1\n:restart\n1\n:restart\n:quit\n")
    #expect(result.status == 1, "\(result.stderr)")
    let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
    let pairs = try lines.map { line -> String in
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      return "\(object["session_id"] ?? "?")#\(object["seq"] ?? "?")"
    }
    #expect(Set(pairs).count == pairs.count, "duplicate (session_id, seq): \(pairs)")
    var ids: [String] = []
    for pair in pairs {
      let id = String(pair.split(separator: "#")[0])
      if ids.last != id { ids.append(id) }
    }
    #expect(ids.count == 3, "\(ids)")
    if let first = ids.first {
      #expect(ids == [first, first + "-1", first + "-2"])
      if let given { #expect(first == given) }
    }
  }
}
