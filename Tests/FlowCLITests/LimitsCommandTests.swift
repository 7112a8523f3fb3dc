import Foundation
import Testing
import _FlowTestSupport

/// Issue #23's rows 4–10, 17 and 20 and #11's alias row through the built binary: every number
/// and nesting from outside ends in a clear message and the documented exit code, never a
/// signal (docs/loading.md, "Limits").
@Suite struct LimitsCommandTests {
  static let fitness = packageRoot().appendingPathComponent("sample-flows/fitness.json").path

  /// A fresh directory holding `files` (name → text).
  static func directory(_ files: [String: String]) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-limits-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    for (name, text) in files {
      try text.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    return url
  }

  static func expectNoCrash(_ output: ProcessOutput, _ context: String) {
    #expect([0, 1, 2, 64].contains(output.status), "\(context) exited \(output.status)")
    for sign in ["Fatal error", "Stack dump", "Segmentation fault", "Illegal instruction", "Current stack trace"] {
      #expect(!(output.stdout + output.stderr).contains(sign), "\(context): \(output.stderr.prefix(2000))")
    }
  }

  /// `flowrun <arguments>` in `directory`: its exit code and what it printed, checked for signs
  /// of a crash.
  static func run(
    _ arguments: [String], in directory: URL, stdin: String = "", environment: [String: String] = [:]
  )
    throws -> ProcessOutput
  {
    let output = try runFlowrun(arguments, stdin: stdin, directory: directory, environment: environment, timeout: 600)
    expectNoCrash(output, "flowrun \(arguments.joined(separator: " "))")
    return output
  }

  // MARK: Row 4: deep nesting in replay scripts

  static let deepScripts: [(name: String, steps: String, position: String)] = [
    ("10,000 nested [", String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000), "2:519"),
    ("1,000,000 nested [{a: , unclosed", String(repeating: "[{a: ", count: 1_000_000), "2:1284"),
  ]

  static let scriptCommands: [[String]] = [
    ["test", "deep.flow-test.yaml"],
    ["run", "--answers", "deep.flow-test.yaml", fitness],
    ["paths", fitness, "--coverage", "deep.flow-test.yaml"],
  ]

  @Test(arguments: deepScripts.indices, scriptCommands)
  func deeplyNestedScriptIsAnError(_ index: Int, _ command: [String]) throws {
    let script = "flow: \(Self.fitness)\nsteps: \(Self.deepScripts[index].steps)\n"
    let directory = try Self.directory(["deep.flow-test.yaml": script])
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = try Self.run(command, in: directory)
    #expect(output.status == 2)
    let text = output.stdout + output.stderr
    #expect(
      text.contains(
        "deep.flow-test.yaml:\(Self.deepScripts[index].position): error: nesting deeper than 512 levels [script.too-deep]"
      ),
      "\(text.prefix(1000))")
  }

  // MARK: #11: YAML aliases ("billion laughs")

  static func laughs(levels: Int) -> String {
    var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for level in 1...levels {
      lines.append(
        "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]")
    }
    return "flow: \(fitness)\nname: laughs\n" + lines.joined(separator: "\n") + "\nsteps: []\n"
  }

  @Test(arguments: [8, 9])
  func billionLaughsIsRefusedAtTheAlias(_ levels: Int) throws {
    let directory = try Self.directory(["laughs.flow-test.yaml": Self.laughs(levels: levels)])
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = try Self.run(["test", "laughs.flow-test.yaml"], in: directory)
    #expect(output.status == 2)
    #expect(
      output.stdout.contains(
        "laughs.flow-test.yaml:7:45: error: the alias *a3 expands the script past 100,000 nodes (aliases may add at most 100,000 in all) [script.alias-expansion]"
      ), "\(output.stdout.prefix(1000))")
  }

  @Test func aliasesWithinTheBudgetRun() throws {
    let script = """
      flow: \(Self.fitness)
      mocks:
        permission.notifications: {status: success, data: {granted: true}}
      steps:
        - expect: &welcome {screen: welcome, text: Get your time back}
        - expect: *welcome
        - tap: Get Started
      """
    let directory = try Self.directory(["aliases.flow-test.yaml": script])
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = try Self.run(["test", "aliases.flow-test.yaml"], in: directory)
    #expect(output.status == 0, "\(output.stdout)")
  }

  // MARK: Row 5: long chains of sub-flows

  /// A bundle of `count` flows, each running the next; the last runs `cycleTo` when given. With
  /// `fields`, each flow collects a field of its own.
  static func chain(_ count: Int, cycleTo: Int? = nil, fields: Bool = false) -> String {
    var flows: [String] = []
    for i in 0..<count {
      let next = i + 1 < count ? "f\(i + 1)" : cycleTo.map { "f\($0)" }
      let runs = next.map { #"{"id": "s", "name": "S", "type": "flow", "flow": "\#($0)", "content": {}}, "# } ?? ""
      let field = fields ? #"{"id": "in", "type": "input", "content": {"fieldName": "x\#(i)"}}, "# : ""
      let button = field + #"{"id": "go", "type": "button", "content": {"text": "Go"}}"#
      flows.append(
        #""f\#(i)": {"version": 1, "id": "f\#(i)", "name": "F", "screens": [\#(runs){"id": "e", "name": "E", "type": "feature", "content": {"blocks": [\#(button)]}}]}"#
      )
    }
    return #"{"activeFlow": "f0", "flows": {\#(flows.joined(separator: ",\n"))}}"#
  }

  @Test(
    arguments: [
      (["check", "chain.json"], Int32(0)),
      (["graph", "chain.json"], 0),
      (["render", "chain.json", "--flow", "f0"], 0),
      // Entering 10,000 flows in a row exhausts the step budget (10,000 transitions): the run
      // ends there, and `paths` reports the session that fails on the way.
      (["run", "chain.json"], 1),
      (["paths", "chain.json"], 1),
    ] as [([String], Int32)])
  func chainOf10000SubflowsRuns(_ arguments: [String], _ status: Int32) throws {
    let directory = try Self.directory(["chain.json": Self.chain(10_000)])
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = try Self.run(arguments, in: directory)
    #expect(output.status == status, "\(output.stdout.suffix(500))\(output.stderr.prefix(500))")
  }

  /// Each flow of a 2,000-flow chain collecting a field gathers the fields of all flows after
  /// it: 2 million in all, past the bound. `check` says it skipped the rule; `paths` runs.
  @Test(arguments: [
    (["check", "chain.json"], "note: not checked: the flows' sub-flows gather more than 1,000,000 fields"),
    (["paths", "chain.json", "--max-states", "100"], "explored 100 states"),
  ])
  func subflowsGatheringTooManyFieldsAreBounded(_ arguments: [String], _ message: String) throws {
    let directory = try Self.directory(["chain.json": Self.chain(2_000, fields: true)])
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = try Self.run(arguments, in: directory)
    #expect(output.status == 0, "\(output.stdout.prefix(500))\(output.stderr.prefix(500))")
    #expect(output.stdout.contains(message), "\(output.stdout.prefix(500))")
  }

  @Test func cycleClosingAChainOf10000SubflowsIsReported() throws {
    let directory = try Self.directory(["chain.json": Self.chain(10_000, cycleTo: 9_990)])
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = try Self.run(["check", "chain.json"], in: directory)
    #expect(output.status == 1)
    #expect(output.stdout.contains("error: sub-flows form a cycle: f9990 → f9991 → "), "\(output.stdout.prefix(500))")
  }

  // MARK: Rows 6, 7, 9: numbers in flows

  static func flow(screen: String = "", block: String) -> String {
    #"""
    {"version": 1, "id": "t", "screens": [
      {"id": "a", "name": "A", "type": "filler"\#(screen), "content": {"blocks": [\#(block)
        {"id": "go", "type": "button", "content": {"text": "Go"}}]}},
      {"id": "b", "name": "B", "type": "feature", "content": {"blocks": [{"id": "end", "type": "button", "content": {"text": "End"}}]}}]}
    """#
  }

  static let badNumbers: [(name: String, flow: String, message: String)] = [
    (
      "autoAdvanceMs 1e19", flow(screen: #", "autoAdvanceMs": 1e19"#, block: ""),
      "flow.json:2:63: error: autoAdvanceMs must be between 0 and 1,000,000,000,000 ms, found 10000000000000000000 [load.out-of-range]"
    ),
    (
      "a 292-million-year filler", flow(screen: #", "autoAdvanceMs": 9.2e18"#, block: ""),
      "error: autoAdvanceMs must be between 0 and 1,000,000,000,000 ms, found 9200000000000000000 [load.out-of-range]"
    ),
    (
      "slider -1e308...1e308",
      flow(block: #"{"id": "s", "type": "slider", "content": {"fieldName": "x", "min": -1e308, "max": 1e308}},"#),
      "error: min must be between -1,000,000,000,000,000 and 1,000,000,000,000,000, found -1e+308 [load.out-of-range]"
    ),
    (
      "number input max 1e300",
      flow(
        block: #"{"id": "i", "type": "input", "content": {"fieldName": "x", "inputType": "number", "max": 1e300}},"#),
      "error: max must be between -1,000,000,000,000,000 and 1,000,000,000,000,000, found 1e+300 [load.out-of-range]"
    ),
    (
      "maxLength 999999999999999",
      flow(block: #"{"id": "i", "type": "input", "content": {"fieldName": "x", "maxLength": 999999999999999}},"#),
      "error: maxLength must be between 0 and 100,000, found 999999999999999 [load.out-of-range]"
    ),
    (
      "maxLength 3e9",
      flow(block: #"{"id": "i", "type": "input", "content": {"fieldName": "x", "minLength": 1, "maxLength": 3e9}},"#),
      "error: maxLength must be between 0 and 100,000, found 3000000000 [load.out-of-range]"
    ),
    (
      "minSelections -1",
      flow(
        block:
          #"{"id": "c", "type": "checklist", "content": {"fieldName": "x", "items": [{"id": "a", "label": "A"}], "minSelections": -1}},"#
      ),
      "error: minSelections must be between 0 and 100,000, found -1 [load.out-of-range]"
    ),
  ]

  static let flowCommands: [[String]] = [
    ["check", "flow.json"], ["run", "flow.json", "--data", "data.json"], ["paths", "flow.json"],
    ["render", "flow.json"],
    ["graph", "flow.json"], ["test", "script.flow-test.yaml"],
  ]

  /// Out of range is a load error: `check` fails (1), and the other commands refuse to run the
  /// flow with the same message (1: the flow parsed, docs/loading.md), before anything runs.
  @Test(arguments: badNumbers.indices, flowCommands)
  func numberOutOfRangeStopsEveryCommand(_ index: Int, _ command: [String]) throws {
    let directory = try Self.directory([
      "flow.json": Self.badNumbers[index].flow, "script.flow-test.yaml": "flow: flow.json\nsteps: [next]\n",
    ])
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = try Self.run(command, in: directory, stdin: "1\n1\n")
    #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
    #expect(
      (output.stdout + output.stderr).contains(Self.badNumbers[index].message), "\(output.stdout)\(output.stderr)")
  }

  // MARK: Row 8: the virtual clock

  static let filler = flow(screen: #", "autoAdvanceMs": 1e12"#, block: "").replacing(
    #"{"id": "end", "type": "button", "content": {"text": "End"}}"#,
    with: #"{"id": "end", "type": "button", "content": {"text": "End", "action": {"type": "complete"}}}"#)

  @Test(arguments: [
    ("0000-01-01", ":wait 1000000000000\n1\n", "0000-01-01T00:00:00.000Z", "0031-09-09T01:46:40.000Z"),
    (
      "9999-12-31T23:59:59Z", ":wait 1000000000000\n:wait 1000000000000\n1\n", "9999-12-31T23:59:59.000Z",
      "9999-12-31T23:59:59.999Z"
    ),
  ])
  func clockSaturatesAtTheEndOfYear9999(_ now: String, _ input: String, _ first: String, _ last: String) throws {
    let directory = try Self.directory(["flow.json": Self.filler])
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = try Self.run(
      ["run", "flow.json", "--now", now, "--events", "events.ndjson", "--data", "data.json"], in: directory,
      stdin: input)
    #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
    let events = try String(contentsOf: directory.appendingPathComponent("events.ndjson"), encoding: .utf8)
    let times = events.split(separator: "\n").compactMap { line in
      line.range(of: #""timestamp":"[^"]*""#, options: .regularExpression).map {
        String(line[$0].dropFirst(13).dropLast())
      }
    }
    #expect(times.first == first)
    #expect(times.last == last)
    #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("data.json").path))
  }

  @Test(
    arguments: [
      (
        ["run", "flow.json", "--now", "0000-01-01T00:00:00+00:01"], "", Int32(64),
        "--now '0000-01-01T00:00:00+00:01': the virtual clock runs from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z"
      ),
      (
        ["run", "flow.json", "--now", "2026-01-01"], ":wait 9223372036854775807\n", 1,
        "! :wait takes between 0 and 1,000,000,000,000 milliseconds, not 9223372036854775807"
      ),
    ] as [([String], String, Int32, String)])
  func clockInputsOutOfRangeAreRefused(
    _ arguments: [String], _ input: String, _ status: Int32, _ message: String
  ) throws {
    let directory = try Self.directory(["flow.json": Self.filler])
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = try Self.run(arguments, in: directory, stdin: input)
    #expect(output.status == status)
    #expect((output.stdout + output.stderr).contains(message), "\(output.stdout)\(output.stderr)")
  }

  // MARK: Row 10: widths

  @Test(
    arguments: [
      (["render", fitness, "--width", "9223372036854775807"], Int32(64)),
      (["test", "sample-flows/tests/fitness", "--width", "9223372036854775807"], 64),
      (["run", fitness, "--width", "9223372036854775807"], 64),
      (["render", fitness, "--width", "19"], 64),
      (["test", "sample-flows/tests/fitness", "--width", "1001"], 64),
      (["render", fitness, "--width", "1000"], 0),
      (["render", fitness, "--width", "20"], 0),
      (["run", fitness, "--width", "abc"], 64),
    ] as [([String], Int32)])
  func widthOptionsShareOneRange(_ arguments: [String], _ status: Int32) throws {
    let output = try Self.run(arguments, in: packageRoot())
    #expect(output.status == status, "\(output.stdout.suffix(300))\(output.stderr)")
    if status == 64 {
      #expect(output.stderr.contains("--width must be between 20 and 1,000 columns, not "), "\(output.stderr)")
    }
  }

  /// `--color` is one type: `run` refuses a bad value in the words `render` uses.
  @Test(arguments: ["run", "render"])
  func colorIsRefusedAlikeEverywhere(_ command: String) throws {
    let output = try Self.run([command, Self.fitness, "--color", "sometimes"], in: packageRoot())
    #expect(output.status == 64)
    #expect(output.stderr.contains("Please provide one of 'auto', 'always' or 'never'."), "\(output.stderr)")
  }

  @Test(arguments: [("9223372036854775807", 1000), ("1000000000", 1000), ("5", 20), ("99", 99)])
  func columnsIsClampedIntoTheRange(_ columns: String, _ width: Int) throws {
    let output = try Self.run(
      ["render", Self.fitness, "--screen", "welcome"], in: packageRoot(), environment: ["COLUMNS": columns])
    #expect(output.status == 0, "\(output.stderr)")
    let widest = output.stdout.split(separator: "\n").map(\.count).max() ?? 0
    #expect(widest == width, "\(output.stdout.prefix(300))")
  }

  // MARK: Row 17: the coverage gate

  @Test(arguments: ["nan", "inf", "-1", "100.5"])
  func minCoverageOutsideZeroToHundredIsAUsageError(_ value: String) throws {
    let output = try Self.run(
      ["paths", Self.fitness, "--coverage", "sample-flows/tests/fitness", "--min-coverage=\(value)"], in: packageRoot())
    #expect(output.status == 64)
    #expect(output.stderr.contains("--min-coverage must be a percentage between 0 and 100"), "\(output.stderr)")
  }

  // MARK: Row 20: a byte order mark

  @Test(arguments: ["mark.flow-test.yaml", "mark.flow-test.json"])
  func scriptStartingWithAByteOrderMarkRuns(_ name: String) throws {
    let script =
      name.hasSuffix(".json")
      ? #"{"flow": "\#(Self.fitness)", "steps": [{"expect": {"screen": "welcome"}}, {"tap": "Get Started"}, {"expect": {"screen": "name"}}]}"#
      : "flow: \(Self.fitness)\nsteps:\n  - expect: {screen: welcome}\n  - tap: Get Started\n  - expect: {screen: name}\n"
    let directory = try Self.directory([name: "\u{FEFF}" + script])
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = try Self.run(["test", name], in: directory)
    #expect(output.status == 0, "\(output.stdout)")
    #expect(output.stdout.contains("1 passed, 0 failed"))
  }
}
