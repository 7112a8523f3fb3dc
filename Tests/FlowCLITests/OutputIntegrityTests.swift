import Foundation
import Testing
import _FlowTestSupport

/// #23 item 5 (rows 12, 13, 14): no output may be an input or another output; a failing write
/// ends the command non-zero with the system's words; descriptors closed at start are reopened
/// on /dev/null so no file inherits them.
@Suite(.timeLimit(.minutes(2))) struct OutputIntegrityTests {
  static let flow = "sample-flows/fitness.json"

  struct Clash: CustomTestStringConvertible, Sendable {
    var name: String
    /// Arguments after `run FLOW` (`{dir}`: the test's directory; `{flow}`: the copied flow).
    var arguments: [String]
    var message: String
    var testDescription: String { name }
  }

  static let clashes: [Clash] = [
    Clash(
      name: "--data is the flow", arguments: ["--data", "{flow}"],
      message: "--data {flow} is the flow {flow}: an output must not overwrite an input"),
    Clash(
      name: "--record is the flow through ./ and ..", arguments: ["--record", "{dir}/sub/../flow.json"],
      message: "--record {dir}/sub/../flow.json is the flow {flow}"),
    Clash(
      name: "--events is the flow through a symbolic link", arguments: ["--events", "{dir}/alias.json"],
      message: "--events {dir}/alias.json is the flow {flow}"),
    Clash(
      name: "--data X --record X", arguments: ["--data", "{dir}/out", "--record", "{dir}/out"],
      message: "--record {dir}/out and --data {dir}/out are the same file: give each output its own file"),
    Clash(
      name: "--events and --data, one spelled relatively",
      arguments: ["--events", "{dir}/out", "--data", "{dir}/./out"],
      message: "--data {dir}/./out and --events {dir}/out are the same file"),
    Clash(
      name: "--record is the --answers script",
      arguments: ["--answers", "{dir}/answers.yaml", "--record", "{dir}/answers.yaml"],
      message: "--record {dir}/answers.yaml is --answers {dir}/answers.yaml"),
  ]

  /// Refused with exit 2 before anything runs: nothing on stdout, the files untouched.
  @Test(arguments: clashes)
  func anOutputThatIsAnInputIsRefusedBeforeTheRun(_ example: Clash) throws {
    let directory = try TemporaryDirectory()
    let original = try String(contentsOfFile: packageRoot().appendingPathComponent(Self.flow).path, encoding: .utf8)
    let flow = directory.file("flow.json", contents: original)
    #expect(mkdir(directory.path + "/sub", 0o755) == 0)
    #expect(symlink(flow, directory.path + "/alias.json") == 0)
    let answers = "flow: flow.json\nsteps:\n  - tap: Get Started\n"
    directory.file("answers.yaml", contents: answers)
    func fill(_ text: String) -> String {
      text.replacingOccurrences(of: "{flow}", with: flow).replacingOccurrences(of: "{dir}", with: directory.path)
    }
    let result = try runFlowrun(["run", flow] + example.arguments.map(fill), stdin: "1\n")
    #expect(result.status == 2, "\(result.stderr)")
    #expect(result.stderr.contains(fill(example.message)), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect(directory.text("flow.json") == original)
    #expect(directory.text("answers.yaml") == answers)
    #expect(directory.text("out") == nil)
  }

  /// `:save` never writes over the flow or another file of the run.
  @Test func saveRefusesTheRunsOwnFiles() throws {
    let directory = try TemporaryDirectory()
    let original = try String(contentsOfFile: packageRoot().appendingPathComponent(Self.flow).path, encoding: .utf8)
    let flow = directory.file("flow.json", contents: original)
    let data = directory.path + "/data.json"
    let result = try runFlowrun(
      ["run", flow, "--data", data], stdin: "1\n:save \(flow)\n:save \(data)\n:save \(directory.path)/ok.yaml\n")
    #expect(
      result.stdout.contains("! cannot save: :save \(flow) is the flow \(flow): an output must not overwrite an input"))
    #expect(result.stdout.contains("! cannot save: :save \(data) is --data \(data)"))
    #expect(result.stdout.contains("(saved 1 input to \(directory.path)/ok.yaml)"))
    #expect(directory.text("flow.json") == original)
  }

  @Test func testRefusesAReportThatIsAnInputOrTheOtherReport() throws {
    let directory = try TemporaryDirectory()
    let flow = packageRoot().appendingPathComponent(Self.flow).path
    let script = directory.file("a.flow-test.yaml", contents: "flow: \(flow)\nsteps:\n  - tap: Get Started\n")
    let overScript = try runFlowrun(["test", script, "--junit", script])
    #expect(overScript.status == 2)
    #expect(
      overScript.stderr.contains("--junit \(script) is the script \(script): an output must not overwrite an input"))
    let both = try runFlowrun(["test", script, "--junit", directory.path + "/r", "--json", directory.path + "/r"])
    #expect(both.status == 2)
    #expect(both.stderr.contains("are the same file"))
    let copy = directory.file("flow.json", contents: try String(contentsOfFile: flow, encoding: .utf8))
    let second = directory.file("b.flow-test.yaml", contents: "flow: flow.json\nsteps:\n  - tap: Get Started\n")
    let overFlow = try runFlowrun(["test", second, "--junit", copy])
    #expect(overFlow.status == 2)
    #expect(overFlow.stderr.contains("--junit \(copy) is the flow"), "\(overFlow.stderr)")
    #expect(directory.text("flow.json") == (try String(contentsOfFile: flow, encoding: .utf8)))
  }

  /// Answers redirected from a file are an input too: an output naming it (`--events b < b`)
  /// would empty it before it is read.
  @Test(arguments: ["--events", "--data", "--record"])
  func anOutputThatIsTheRedirectedStandardInputIsRefused(_ option: String) throws {
    let directory = try TemporaryDirectory()
    let answers = directory.file("answers.txt", contents: "1\nAlex\n")
    let result = try runPipeline(
      "\"$FLOWRUN\" run \(Self.flow) \(option) '\(answers)' < '\(answers)'; echo \"flowrun=$?\"")
    #expect(result.stdout.hasSuffix("flowrun=2\n"), "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("\(option) \(answers) is standard input"), "\(result.stderr)")
    #expect(directory.text("answers.txt") == "1\nAlex\n")
  }

  /// A report may not be written over a snapshot the scripts compared (an input) or wrote.
  @Test(arguments: [(["--junit"], false), (["--json"], false), (["--junit"], true)])
  func testRefusesAReportThatIsASnapshot(_ option: [String], update: Bool) throws {
    let directory = try TemporaryDirectory()
    let flow = packageRoot().appendingPathComponent(Self.flow).path
    directory.file(
      "a.flow-test.yaml", contents: "flow: \(flow)\nsteps:\n  - tap: Get Started\n  - snapshot: out.snap\n")
    let recorded = try runFlowrun(["test", directory.path, "--update"])
    #expect(recorded.status == 0, "\(recorded.stdout)\(recorded.stderr)")
    let snapshot = try #require(directory.text("out.snap"))
    let snapshotPath = directory.path + "/out.snap"
    let result = try runFlowrun(["test", directory.path] + option + [snapshotPath] + (update ? ["--update"] : []))
    #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stderr.contains("\(option[0]) \(snapshotPath) is the snapshot \(snapshotPath)"), "\(result.stderr)")
    #expect(directory.text("out.snap") == snapshot)
  }

  struct Full: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var stdin = "1\n"
    var message: String
    var status: Int32
    var testDescription: String { arguments.joined(separator: " ") }
  }

  /// Row 13 and its kin: a write that fails is never ignored.
  @Test(arguments: [
    Full(
      arguments: ["run", flow, "--events", "/dev/full"],
      message: "flowrun: cannot write --events file /dev/full: No space left on device", status: 1),
    Full(
      arguments: ["run", flow, "--data", "/dev/full"],
      message: "flowrun: cannot write /dev/full: No space left on device", status: 1),
    Full(
      arguments: ["run", flow, "--record", "/dev/full"],
      message: "flowrun: cannot write /dev/full: No space left on device", status: 1),
    Full(
      arguments: ["test", "sample-flows/tests/fitness", "--junit", "/dev/full"],
      message: "cannot write the JUnit report /dev/full: No space left on device", status: 2),
    Full(
      arguments: ["paths", flow, "--emit", "/dev/full/x"],
      message: "flowrun: cannot write /dev/full/x: Not a directory", status: 1),
  ])
  func aFailingWriteEndsTheCommandWithTheSystemsWords(_ example: Full) throws {
    let result = try runFlowrun(example.arguments, stdin: example.stdin)
    #expect(result.status == example.status, "\(result.stderr)")
    #expect(result.stderr.contains(example.message), "\(result.stderr)")
  }

  /// A full standard output: said on stderr, exit 1 at least (a reader that left is not an
  /// error: `ClosedOutputTests`).
  @Test(arguments: [["check", flow], ["render", flow], ["graph", flow], ["paths", flow], ["run", flow]])
  func aFullStandardOutputIsAnError(_ arguments: [String]) throws {
    let command = arguments.joined(separator: " ")
    let result = try runPipeline("\"$FLOWRUN\" \(command) < /dev/null > /dev/full; echo \"flowrun=$?\"")
    #expect(result.stdout == "flowrun=1\n", "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
  }

  /// Row 12: stdout and stderr closed at start (`>&- 2>&-`); the events file gets events only.
  /// Variation: stdin closed as well, the data file too.
  @Test(arguments: [">&- 2>&-", "<&- >&- 2>&-"])
  func closedStandardDescriptorsLeakIntoNoFile(_ redirections: String) throws {
    let directory = try TemporaryDirectory()
    let input = redirections.hasPrefix("<&-") ? "" : "printf '1\\nAlex\\n' | "
    let result = try runPipeline(
      "\(input)\"$FLOWRUN\" run \(Self.flow) --now 2026-01-01T00:00:00Z --events '\(directory.path)/events.ndjson' --data '\(directory.path)/data.json' \(redirections); echo \"flowrun=$?\""
    )
    #expect(result.stdout == "flowrun=1\n", "\(result.stdout)\(result.stderr)")
    let files = try SessionFiles(directory)  // every line an event, the data one JSON object
    #expect(files.events.allSatisfy { $0["event_type"] is String && $0["seq"] is Int })
    #expect(files.dropOffReason == "end_of_input")
    #expect(files.data["name"] as? String == (input.isEmpty ? nil : "Alex"))
  }
}
