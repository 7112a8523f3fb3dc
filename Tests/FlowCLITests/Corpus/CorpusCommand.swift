/// Every command a kind of input goes through: THE table to extend when flowrun gains a
/// command (one line), with the exit codes each outcome class allows.
///
/// Arguments name files relative to the run's directory, which holds the input, the fixtures
/// (`BadInputs/fixtures/`) and the outputs.
struct CorpusCommand: Sendable {
  var name: String
  var takes: CorpusCase.Kind
  var arguments: @Sendable (_ input: String, _ flow: String) -> [String]
  /// Files the command writes; they are seeded with old content before the run.
  var outputs: [OutputFile] = []
  /// Exit codes by outcome class.
  var exits: [String: Set<Int32>]

  static let now = ["--now", "2026-01-01T00:00:00Z"]
  static let runOutputs = ["--data", "data.json", "--events", "events.ndjson", "--record", "record.flow-test.yaml"]
  static let runFiles = [
    OutputFile(name: "data.json", kind: .json), OutputFile(name: "events.ndjson", kind: .ndjson),
    OutputFile(name: "record.flow-test.yaml", kind: .script),
  ]
  static let testOutputs = ["--junit", "junit.xml", "--json", "report.json"]
  static let testFiles = [OutputFile(name: "junit.xml", kind: .xml), OutputFile(name: "report.json", kind: .json)]
  /// The script `test` runs for a flow case: it names the flow and takes one step.
  static let flowScript = "case.flow-test.yaml"

  /// Outcome classes. Flows: loads (`clean`); loads, but `check` finds an error that does not
  /// stop a run (`lint`: lint rules, `ref.*`); loads with errors that stop every command
  /// (`invalid`: the file parsed, exit 1); cannot be read or parsed (`unreadable`, exit 2).
  /// Scripts: `passes`, `fails` (a step or expectation fails: `test` exits 1), `unreadable`.
  static let all: [CorpusCommand] = [
    CorpusCommand(
      name: "check", takes: .flow, arguments: { input, _ in ["check", input] },
      exits: ["clean": [0], "lint": [1], "invalid": [1], "unreadable": [2]]),
    CorpusCommand(
      name: "render", takes: .flow, arguments: { input, _ in ["render", input] },
      exits: ["clean": [0], "lint": [0], "invalid": [1], "unreadable": [2]]),
    CorpusCommand(
      name: "graph", takes: .flow, arguments: { input, _ in ["graph", input] },
      exits: ["clean": [0], "lint": [0], "invalid": [1], "unreadable": [2]]),
    CorpusCommand(
      name: "paths", takes: .flow, arguments: { input, _ in ["paths", input, "--emit", "emitted"] },
      outputs: [OutputFile(name: "emitted", kind: .scripts)],
      exits: ["clean": [0, 1], "lint": [0, 1], "invalid": [1], "unreadable": [2]]),
    CorpusCommand(
      name: "run", takes: .flow, arguments: { input, _ in ["run", input] + now + runOutputs },
      outputs: runFiles,
      exits: ["clean": [0, 1], "lint": [0, 1], "invalid": [1], "unreadable": [2]]),
    CorpusCommand(
      name: "simulate", takes: .flow, arguments: { input, _ in ["simulate", input, "--users", "50", "--jobs", "1"] },
      exits: ["clean": [0, 1], "lint": [0, 1], "invalid": [1], "unreadable": [2]]),
    CorpusCommand(
      name: "test", takes: .flow, arguments: { _, _ in ["test", flowScript] + testOutputs },
      outputs: testFiles,
      exits: ["clean": [0, 1], "lint": [0, 1], "invalid": [1], "unreadable": [2]]),

    CorpusCommand(
      name: "test", takes: .script, arguments: { input, _ in ["test", input] + testOutputs },
      outputs: testFiles,
      exits: ["passes": [0], "fails": [1], "unreadable": [2]]),
    CorpusCommand(
      name: "run", takes: .script, arguments: { input, flow in ["run", flow, "--answers", input] + now + runOutputs },
      outputs: runFiles,
      exits: ["passes": [0, 1], "fails": [0, 1], "unreadable": [2]]),
    CorpusCommand(
      name: "paths", takes: .script, arguments: { input, flow in ["paths", flow, "--coverage", input] },
      exits: ["passes": [0], "fails": [0], "unreadable": [2]]),

    CorpusCommand(
      name: "run", takes: .answers, arguments: { _, flow in ["run", flow] + now + runOutputs },
      outputs: runFiles,
      exits: ["": [0, 1]]),
  ]

  static func outcomes(for kind: CorpusCase.Kind) -> Set<String> {
    Set(all.filter { $0.takes == kind }.flatMap(\.exits.keys)).subtracting([""])
  }
}
