import FlowBenchSupport
import FlowEngine
import FlowExpression
import FlowFormat
import FlowSupport
import Foundation
import Testing
import _FlowTestSupport

@testable import FlowReplay

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The fixtures directory, absolute.
let fixtures = packageRoot().appendingPathComponent("Tests/FlowReplayTests/Fixtures").path
let samples = packageRoot().appendingPathComponent("sample-flows").path

/// A script for the mini fixture flow, parsed as if it were `Fixtures/<name>.flow-test.yaml`.
func miniScript(_ body: String, name: String = "case") throws -> ReplayScript {
  let file = "\(fixtures)/\(name).flow-test.yaml"
  let result = ScriptParser.parse(bytes: Array(("flow: mini.json\n" + body).utf8), file: file)
  return try #require(result.script, "\(result.diagnostics)")
}

/// A failure message without the rendered screen (owned by the renderer) and with the
/// fixtures path shortened, for goldens.
func stable(_ message: String) -> String {
  message.split(separator: "\n", omittingEmptySubsequences: false)
    .filter { !$0.hasPrefix("  |") }
    .joined(separator: "\n")
    .replacingOccurrences(of: fixtures + "/", with: "Fixtures/")
}

@Suite("Replayer")
struct ReplayerTests {
  static let cache = FlowCache()

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var body: String
    var passes: Bool
    var testDescription: String { name }
  }

  static let prefix = "steps:\n  - tap: 1\n  - fill: {name: Ada}\n  - select: {color: [Blue]}\n"
  static let atPerm =
    "mocks: {permission.camera: {status: success, data: {camera: true}}}\nsteps:\n  - tap: 1\n  - fill: {name: Ada}\n  - tap: Next\n"

  /// Every expectation kind, passing and failing (failures have golden messages).
  static let cases: [Case] = [
    Case(name: "screen-pass", body: prefix + "  - expect: {screen: form}\n", passes: true),
    Case(name: "screen-fail", body: prefix + "  - expect: {screen: perm}\n", passes: false),
    Case(name: "text-pass", body: "steps:\n  - expect: {text: [hello THERE, Go]}\n", passes: true),
    Case(name: "text-fail", body: "steps:\n  - expect: {text: Goodbye}\n", passes: false),
    Case(
      name: "errors-pass", body: "steps:\n  - tap: 1\n  - tap: Next\n  - expect: {errors: {name: REQUIRED}}\n",
      passes: true),
    Case(
      name: "errors-fail", body: "steps:\n  - tap: 1\n  - tap: Next\n  - expect: {errors: {name: too short}}\n",
      passes: false),
    Case(name: "no-errors-fail", body: "steps:\n  - tap: 1\n  - tap: Next\n  - expect: {errors: {}}\n", passes: false),
    Case(name: "data-subset-pass", body: prefix + "expect: {data: {color: blue}}\n", passes: true),
    Case(name: "data-subset-fail", body: prefix + "expect: {data: {color: red, age: 3}}\n", passes: false),
    Case(
      name: "data-exact-pass", body: prefix + "expect: {data: {color: blue, name: Ada}, exact: true}\n", passes: true),
    Case(name: "data-exact-fail", body: prefix + "expect: {data: {name: Ada}, exact: true}\n", passes: false),
    Case(
      name: "events-pass",
      body: prefix
        + "expect:\n  events: [onboarding_started, {event_type: screen_viewed, screen_id: form, properties: {screen_name: Form}}]\n",
      passes: true),
    Case(
      name: "events-fail",
      body: prefix
        + "expect:\n  events: [onboarding_started, {event_type: screen_viewed, screen_id: form}, onboarding_completed]\n",
      passes: false),
    Case(
      name: "events-order-fail", body: prefix + "expect:\n  events: [button_tapped, onboarding_started]\n",
      passes: false),
    Case(name: "not-events-pass", body: prefix + "expect:\n  not_events: [validation_failed]\n", passes: true),
    Case(
      name: "not-events-fail",
      body: prefix + "expect:\n  not_events: [{event_type: button_tapped, properties: {button_id: go}}]\n",
      passes: false),
    Case(name: "path-pass", body: prefix + "expect: {path: [start, form]}\n", passes: true),
    Case(name: "path-fail", body: prefix + "expect: {path: [start, perm]}\n", passes: false),
    Case(
      name: "every-mismatch-fail",
      body: prefix
        + "expect:\n  status: completed\n  data: {color: red}\n  path: [start, perm]\n  events: [onboarding_completed]\n  not_events: [button_tapped]\n",
      passes: false),
    Case(
      name: "completed-pass",
      body: atPerm + "  - tap: Allow\n  - wait: 1000\n  - tap: Finish\nexpect: {completed: true}\n", passes: true),
    Case(name: "completed-fail", body: atPerm + "expect: {completed: true}\n", passes: false),
    Case(name: "dismissed-pass", body: "steps:\n  - dismiss\nexpect: {dismissed: true}\n", passes: true),
    Case(name: "dismissed-fail", body: "steps: []\nexpect: {dismissed: true}\n", passes: false),
    Case(
      name: "status-awaiting-pass",
      body:
        "steps:\n  - tap: 2\n  - tap: Allow\n  - expect: {status: awaiting, awaiting: permission.camera}\n  - result: {status: success}\n  - expect: {screen: wait}\n",
      passes: true),
    Case(name: "expect-error-pass", body: "steps:\n  - tap: Nope\n    expect_error: \"no button\"\n", passes: true),
    Case(
      name: "expect-error-validation-pass", body: "steps:\n  - tap: 1\n  - tap: Next\n    expect_error: required\n",
      passes: true),
    Case(name: "expect-error-accepted-fail", body: "steps:\n  - tap: 1\n    expect_error: nope\n", passes: false),
    Case(
      name: "expect-error-other-fail", body: "steps:\n  - tap: 1\n  - tap: Next\n    expect_error: too long\n",
      passes: false),
    Case(name: "rejected-fail", body: "steps:\n  - tap: Nope\n  - tap: 1\n", passes: false),
    Case(
      name: "unhandled-action",
      body: "steps:\n  - tap: 2\n  - tap: Allow\n  - expect: {text: \"unhandled action: permission.camera\"}\n",
      passes: true),
    Case(
      name: "inline-result-after-expect",
      body:
        "steps:\n  - tap: 2\n  - tap: Allow\n  - expect: {awaiting: permission.camera}\n  - result: cancelled\n  - skip\nexpect: {screen: wait}\n",
      passes: true),
    Case(
      name: "back-skip-goto-set",
      body:
        "steps:\n  - tap: 1\n  - back\n  - goto: end\n  - set: {flag: true}\nexpect: {screen: end, data: {flag: true}}\n",
      passes: true),
  ]

  @Test(arguments: cases)
  func expectations(_ test: Case) throws {
    let script = try miniScript(test.body, name: test.name)
    let outcome = Replayer.run(script, cache: Self.cache)
    #expect(outcome.status == (test.passes ? .passed : .failed), "\(outcome.message)")
    if !test.passes {
      #expect(outcome.message.contains("screen '"))  // the screen at that point is shown
      assertSnapshot(stable(outcome.message), named: "fail-\(test.name).txt")
    }
  }

  @Test func failingOnPurposeFixture() {
    let outcome = Replayer.run(path: "\(fixtures)/failing.flow-test.yaml", cache: Self.cache)
    #expect(outcome.status == .failed)
    #expect(outcome.failureLocation?.description == "10:7")
    #expect(stable(outcome.summary) == "Fixtures/failing.flow-test.yaml:10:7: collected data does not match")
    assertSnapshot(stable(outcome.message), named: "failing-fixture.txt")
  }

  @Test func unreadableFlowIsAnError() throws {
    let script = try miniScript("steps: []\n").with { $0.flowPath = "\(fixtures)/missing.json" }
    let outcome = Replayer.run(script, cache: Self.cache)
    #expect(outcome.status == .error)
  }

  /// `--update` creates the snapshot's directories; a write that fails says why in plain words.
  @Test(
    arguments: [
      ("snaps/deep/one.txt", nil),
      ("plain/one.txt", "Not a directory"),
    ] as [(String, String?)])
  func snapshotUpdateCreatesDirectoriesAndExplainsFailures(_ snapshot: String, _ problem: String?) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-snapdir-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try "a file, not a directory".write(toFile: "\(directory)/plain", atomically: true, encoding: .utf8)
    let text = "flow: \(fixtures)/mini.json\nsteps:\n  - tap: 1\n  - snapshot: \(snapshot)\n"
    let script = try #require(ScriptParser.parse(bytes: Array(text.utf8), file: "\(directory)/s.flow-test.yaml").script)
    let updated = Replayer.run(script, cache: Self.cache, options: ReplayOptions(updateSnapshots: true))
    if let problem {
      #expect(updated.status == .failed)
      #expect(
        updated.summary.hasSuffix("cannot write snapshot \(directory)/\(snapshot): \(problem)"), "\(updated.summary)")
    } else {
      #expect(updated.status == .passed, "\(updated.message)")
      #expect(FileManager.default.fileExists(atPath: "\(directory)/\(snapshot)"))
      #expect(Replayer.run(script, cache: Self.cache).status == .passed)
    }
  }

  @Test func snapshotsRecordAndCompare() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-snap-\(getpid())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let text = "flow: \(fixtures)/mini.json\nsteps:\n  - tap: 1\n  - fill: {name: Ada}\n  - snapshot: snap.txt\n"
    let file = "\(directory)/s.flow-test.yaml"
    let script = try #require(ScriptParser.parse(bytes: Array(text.utf8), file: file).script)
    let missing = Replayer.run(script, cache: Self.cache)
    #expect(missing.status == .failed)
    #expect(missing.summary.contains("does not exist"))
    let updated = Replayer.run(script, cache: Self.cache, options: ReplayOptions(updateSnapshots: true))
    #expect(updated.status == .passed)
    #expect(updated.updatedSnapshots == ["\(directory)/snap.txt"])
    #expect(Replayer.run(script, cache: Self.cache).status == .passed)
    let recorded = try String(contentsOfFile: "\(directory)/snap.txt", encoding: .utf8)
    #expect(recorded.contains("> tap: 1\n"))
    #expect(recorded.contains("> fill: name=\"Ada\"\n"))
    #expect(!recorded.contains("\u{1B}["))
    try "── changed\n".write(toFile: "\(directory)/snap.txt", atomically: true, encoding: .utf8)
    let differs = Replayer.run(script, cache: Self.cache)
    #expect(differs.status == .failed)
    #expect(differs.message.contains("-1: ── changed"))
  }

  // MARK: Suites and reports

  static func suiteFiles() -> [String] {
    ["\(fixtures)/failing.flow-test.yaml", "\(fixtures)/passing.flow-test.yaml"]
  }

  @Test func discoveryIsSortedAndRecursive() {
    let (files, missing) = TestSuite.discover([samples + "/tests", "/nonexistent/x"])
    #expect(missing == ["/nonexistent/x"])
    #expect(files == files.sorted())
    #expect(files.count >= 12)
    #expect(files.allSatisfy { $0.hasSuffix(".flow-test.yaml") || $0.hasSuffix(".flow-test.json") })
    let fixtureFiles = TestSuite.discover([fixtures]).files.map { ($0 as NSString).lastPathComponent }
    #expect(fixtureFiles == ["failing.flow-test.yaml", "passing.flow-test.yaml"])
  }

  /// A directory walk takes regular files (and links to them) only: a FIFO would wait for a
  /// writer, a device never ends. Named as an argument, a FIFO is still taken (`<(…)`).
  @Test func discoveryTakesOnlyRegularFilesFromDirectories() throws {
    let directory = try TemporaryDirectory()
    let script = directory.file("a.flow-test.yaml", contents: "flow: f.json\nsteps: []\n")
    #expect(symlink(script, directory.path + "/b.flow-test.yaml") == 0)
    let fifo = directory.path + "/c.flow-test.yaml"
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(mkdir(directory.path + "/d.flow-test.yaml", 0o755) == 0)
    let names = TestSuite.discover([directory.path]).files.map { ($0 as NSString).lastPathComponent }
    #expect(names == ["a.flow-test.yaml", "b.flow-test.yaml"])
    #expect(TestSuite.discover([fifo]).files == [fifo])
  }

  @Test func shardAndFilterAreDeterministic() throws {
    let names = (0..<10).map { (file: "d/s\($0).flow-test.yaml", name: "script \($0)") }
    var all: [Int] = []
    for shard in 1...3 {
      let picked = try TestSuite.select(names, selection: TestSelection(shard: (shard, 3)))
      #expect(picked == (try TestSuite.select(names, selection: TestSelection(shard: (shard, 3)))))
      all += picked
    }
    #expect(all.sorted() == Array(0..<10))
    #expect(try TestSuite.select(names, selection: TestSelection(shard: (1, 3))) == [0, 3, 6, 9])
    #expect(try TestSuite.select(names, selection: TestSelection(filter: "script [12]$")) == [1, 2])
    #expect(try TestSuite.select(names, selection: TestSelection(filter: "s7\\.flow")) == [7])
    #expect(try TestSuite.select(names, selection: TestSelection(shard: (2, 2), filter: "script")) == [1, 3, 5, 7, 9])
  }

  @Test func parallelRunsKeepTheOrder() throws {
    let files = TestSuite.discover([samples + "/tests", fixtures]).files
    let serial = try TestSuite.run(files, jobs: 1)
    let emitted = Locked<[String]>([])
    let parallel = try TestSuite.run(
      files, jobs: 4, onOutcome: { outcome in emitted.withLock { $0.append(outcome.file) } })
    #expect(serial.map(\.file) == files)
    #expect(parallel.map(\.file) == files)
    #expect(emitted.withLock { $0 } == files)
    #expect(serial.map(\.status) == parallel.map(\.status))
    #expect(serial.map(\.message) == parallel.map(\.message))
  }

  @Test func failFastSkipsTheRest() throws {
    let outcomes = try TestSuite.run(Self.suiteFiles(), jobs: 1, failFast: true)
    #expect(outcomes.map(\.status) == [.failed, .skipped])
    #expect(outcomes.last?.name == "passes", "a skipped script keeps its name: for the reports")
    #expect(TestSuite.summaryLine(outcomes) == "0 passed, 1 failed, 1 skipped")
  }

  @Test func junitIsValidXML() throws {
    var outcomes = try TestSuite.run(Self.suiteFiles(), jobs: 2)
    outcomes.append(ScriptOutcome(file: "x<&>\"'.yaml", name: "weird \u{1B}[31m <name> & \"q\"", status: .skipped))
    let xml = ReplayReport.junit(outcomes)
    #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "))
    #expect(xml.contains("<failure message=\""))
    #expect(xml.contains("failing.flow-test.yaml:10:7: collected data does not match"))
    #expect(xml.contains("time=\""))
    #expect(!xml.contains("\u{1B}"))
    #if canImport(FoundationXML) || canImport(Darwin)
      let parser = XMLParser(data: Data(xml.utf8))
      let delegate = JUnitCounter()
      parser.delegate = delegate
      #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
      #expect(delegate.elements["testsuites"] == 1)
      #expect(delegate.elements["testsuite"] == 1)
      #expect(delegate.elements["testcase"] == 3)
      #expect(delegate.elements["failure"] == 1)
      #expect(delegate.elements["skipped"] == 1)
    #endif
  }

  @Test func jsonReport() throws {
    let outcomes = try TestSuite.run(Self.suiteFiles(), jobs: 2)
    let text = ReplayReport.json(outcomes)
    let (root, diagnostics) = JSONParser.parse(Array(text.utf8))
    #expect(diagnostics.isEmpty)
    let object = try #require(root?.objectValue)
    let summary = try #require(object["summary"]?.objectValue)
    #expect(summary["passed"]?.numberValue == 1)
    #expect(summary["failed"]?.numberValue == 1)
    let scripts = try #require(object["scripts"]?.arrayValue)
    #expect(scripts.count == 2)
    let failure = try #require(scripts[0].objectValue?["failure"]?.objectValue)
    #expect(failure["line"]?.numberValue == 10)
    #expect(failure["column"]?.numberValue == 7)
    #expect(scripts[1].objectValue?["status"]?.stringValue == "passed")
  }

  // MARK: Recording round trip

  @Test func recordingRoundTrip() throws {
    let path = "\(samples)/fitness.json"
    let document = try #require(FlowLoader.load(path: path).document)
    let config = SessionConfig(
      userID: "u_rt", variantOverrides: [:], now: ReplayScript.defaultNow, waitsForResults: true)
    let inputs: [Input] = [
      .tap(.number(1)), .tap(.label("Continue")), .set(field: "name", value: "Rio"), .tap(.blockID("name_continue")),
      .setVariable(name: "debug_flag", value: true), .tap(.label("continue")), .back, .tap(.number(1)),
      .tap(.label("Show me how")), .pick(field: "interests", items: ["cardio"]), .tap(.label("Continue")),
      .tap(.label("Enable notifications")), .result(.failure("denied")), .skip, .wait(ms: 10),
      .tap(.label("Start my first workout")),
    ]
    var (session, _) = try Session.start(document: document, config: config)
    for input in inputs { _ = session.send(input) }
    #expect(session.status == .completed)
    let recording = Recording(flowPath: path, config: config, inputs: inputs)
    let yaml = ScriptWriter.yaml(for: recording, final: session)
    assertSnapshot(yaml.replacingOccurrences(of: samples, with: "SAMPLES"), named: "recorded-fitness.yaml")
    for (text, file) in [
      (yaml, "/tmp/rt.flow-test.yaml"), (ScriptWriter.json(for: recording, final: session), "/tmp/rt.flow-test.json"),
    ] {
      let parsed = ScriptParser.parse(bytes: Array(text.utf8), file: file)
      let script = try #require(parsed.script, "\(parsed.diagnostics)\n\(text)")
      let (outcome, replayed) = Replayer.replay(script, cache: Self.cache)
      #expect(outcome.status == .passed, "\(outcome.message)")
      #expect(replayed?.events == session.events)
      #expect(replayed?.data == session.data)
    }
    #expect(yaml.contains("- tap: Get Started"))
  }

  @Test func benchmarkRunsGeneratedScripts() {
    let result = ReplayBenchmark.run(count: 40, steps: 20, flowPath: "\(samples)/fitness.json", jobs: 2)
    #expect(result.scripts == 40)
    #expect(result.failures == 0, "\(result.firstFailure ?? "")")
    #expect(result.scriptsPerSecond > 0)
    let script = ReplayBenchmark.fitnessScript(seed: 3, steps: 20, flow: "fitness.json")
    let parsed = ScriptParser.parse(bytes: Array(script.utf8), file: "x.flow-test.yaml")
    #expect(parsed.script?.steps.count == 20)
  }
}

#if canImport(FoundationXML) || canImport(Darwin)
  final class JUnitCounter: NSObject, XMLParserDelegate {
    var elements: [String: Int] = [:]
    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      elements[elementName, default: 0] += 1
    }
  }
#endif

extension ReplayScript {
  func with(_ change: (inout ReplayScript) -> Void) -> ReplayScript {
    var copy = self
    change(&copy)
    return copy
  }
}

/// `REPLAY_BENCH=10000 swift test --filter ReplayBenchmarkFigures` prints the figures.
@Suite("Replay benchmark figures")
struct ReplayBenchmarkFigures {
  static let count = ProcessInfo.processInfo.environment["REPLAY_BENCH"].flatMap(Int.init)

  @Test(.enabled(if: count != nil)) func figures() {
    let jobs = ProcessInfo.processInfo.environment["REPLAY_BENCH_JOBS"].flatMap(Int.init) ?? 1
    let result = ReplayBenchmark.run(count: Self.count ?? 0, steps: 20, flowPath: "\(samples)/fitness.json", jobs: jobs)
    print(
      "replay benchmark: \(result.scripts) scripts x \(result.stepsPerScript) steps, jobs \(jobs): "
        + "\(Int(result.scriptsPerSecond)) scripts/s in \(result.seconds) s, peak RSS \(result.peakMemoryBytes / 1_048_576) MiB, "
        + "\(result.failures) failures; parsing took \(result.parseSeconds) s")
    #expect(result.failures == 0, "\(result.firstFailure ?? "")")
  }
}

/// `flowrun test` end to end (needs the built binary: `swift build --product flowrun`).
@Suite("flowrun test")
struct TestCommandTests {
  static let built = FileManager.default.isExecutableFile(atPath: flowrunExecutable().path)

  @Test(.enabled(if: built)) func reportsAndExitCodes() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-cli-\(getpid())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let run = try runFlowrun([
      "test", "Tests/FlowReplayTests/Fixtures", "--jobs", "2", "--junit", "\(directory)/j.xml", "--json",
      "\(directory)/r.json",
    ])
    #expect(run.status == 1)
    #expect(run.stdout.hasSuffix("\n1 passed, 1 failed\n"))
    #expect(
      run.stdout.contains("Tests/FlowReplayTests/Fixtures/failing.flow-test.yaml:10:7: collected data does not match"))
    #expect(FileManager.default.fileExists(atPath: "\(directory)/j.xml"))
    #expect(FileManager.default.fileExists(atPath: "\(directory)/r.json"))
    let passing = try runFlowrun(["test", "Tests/FlowReplayTests/Fixtures", "--filter", "^passes$"])
    #expect(passing.status == 0)
    #expect(passing.stdout.hasSuffix("1 passed, 0 failed\n"))
    #expect(try runFlowrun(["test", "Tests/FlowReplayTests/Fixtures", "--shard", "3/2"]).status == 64)
    try "flow: x.json\nstesp: []\n".write(toFile: "\(directory)/bad.flow-test.yaml", atomically: true, encoding: .utf8)
    let bad = try runFlowrun(["test", "\(directory)/bad.flow-test.yaml"])
    #expect(bad.status == 2)
    #expect(bad.stdout.contains("bad.flow-test.yaml:2:1: error: unknown key 'stesp' [script.unknown-key]"))
  }

  /// Running no script is not a pass: a filter matching nothing or an empty directory exits 1.
  @Test(
    .enabled(if: built),
    arguments: [
      (
        ["Tests/FlowReplayTests/Fixtures", "--filter", "^no-such-script$"], Int32(1),
        "error: no scripts matched --filter ^no-such-script$"
      ),
      (["{empty}"], Int32(1), "error: no scripts matched: no *.flow-test.yaml"),
      (
        ["Tests/FlowReplayTests/Fixtures", "--filter", "^passes$", "--shard", "2/2"], Int32(0),
        "note: shard 2/2 selected no scripts"
      ),
    ])
  func selectingNoScript(_ arguments: [String], _ status: Int32, _ message: String) throws {
    let empty = FileManager.default.temporaryDirectory.appendingPathComponent("replay-empty-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: empty) }
    let run = try runFlowrun(["test"] + arguments.map { $0 == "{empty}" ? empty : $0 })
    #expect(run.status == status, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains(message), "\(run.stderr)")
    #expect(run.stdout.hasSuffix("0 passed, 0 failed\n"), "\(run.stdout)")
  }

  /// A report that cannot be written (a missing directory, a full disk) is said on stderr in
  /// plain words and makes the exit code 2; the other report is still written and the summary
  /// is still the last line of stdout.
  @Test(
    .enabled(if: built),
    arguments: [
      ("/nonexistent-flowrun-dir/j.xml", "No such file or directory"),
      ("/dev/full", "No space left on device"),
    ])
  func unwritableReportExits2AfterTheSummary(_ junit: String, _ reason: String) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-report-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let run = try runFlowrun([
      "test", "Tests/FlowReplayTests/Fixtures", "--filter", "^passes$", "--junit", junit, "--json",
      "\(directory)/r.json",
    ])
    #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.hasSuffix("1 passed, 0 failed\n"), "\(run.stdout)")
    #expect(run.stderr.contains("flowrun: cannot write the JUnit report \(junit): \(reason)"), "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: "\(directory)/r.json"))
  }
}
