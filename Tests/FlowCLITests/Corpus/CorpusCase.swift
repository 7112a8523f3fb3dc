import Foundation
import Yams
import _FlowTestSupport

/// One row of `BadInputs/cases.yaml`: a hostile input and what every command must make of it.
/// `BadInputs/README.md` explains each key; the parser below refuses anything else, so a typo
/// in the table fails the corpus instead of being ignored.
struct CorpusCase: Sendable {
  enum Kind: String, Sendable, CaseIterable {
    case flow, script, answers, args

    /// The folder under `BadInputs/` that holds committed inputs of this kind.
    var folder: String { self == .answers ? "answers" : rawValue + "s" }
  }

  /// Something given per command (`exit`, `says`): one value for all, or by command name.
  struct PerCommand<Value: Sendable>: Sendable {
    var all: Value?
    var byCommand: [String: Value] = [:]

    func value(for command: String) -> Value? { byCommand[command] ?? all }
  }

  var kind: Kind
  /// The file under `BadInputs/<kind>s/` (or the name a generated input gets); empty for args.
  var input: String
  /// The command line of an `args` case (its first word names the command).
  var arguments: [String] = []
  var what: String
  /// The outcome class (`clean`, `lint`, `invalid`, `unreadable` for flows; `passes`, `fails`,
  /// `unreadable` for scripts): each command's exit codes come from it (CorpusCommand).
  var outcome: String?
  var exits = PerCommand<Set<Int32>>()
  var says = PerCommand<[String]>()
  var never: [String] = []
  var make: String?
  var flow: String?
  var stdin: String?
  var renamed: String?
  var environment: [String: String] = [:]
  var stdout: String?
  var stderr: String?
  var signal: String?
  var outputs: [String: OutputFile.Kind] = [:]
  var writes: [String] = []
  /// Files under `BadInputs/` copied into the run's directory (by their last name component).
  var files: [String] = []
  var long = false
  /// Known failures, with the reason (reported as issues), for every command or by command.
  var known = PerCommand<String>()
  /// Line in cases.yaml.
  var line: Int

  /// The name tests and messages use: the input's file, or the command line as a shell would
  /// show it.
  var name: String {
    guard kind == .args else { return "\(kind.folder)/\(input)" }
    // A word with a space or a control character is shown as a Swift literal: test names go to
    // the log, which must not get raw escapes either.
    let shown = arguments.map { word in
      word.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F } ? String(reflecting: word) : word
    }
    var words = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + ["flowrun"] + shown
    if let stdin { words.append("< \(stdin)") }
    switch stdout {
    case "closed": words.append(">&-")
    case "full": words.append("> /dev/full")
    case "first-line": words.append("| head -1")
    default: break
    }
    if stderr == "closed" { words.append("2>&-") }
    if let signal { words.append("(SIG\(signal))") }
    return words.joined(separator: " ")
  }
}

struct CorpusTableError: Error, CustomStringConvertible {
  var description: String
}

extension CorpusCase {
  static let directory = packageRoot().appendingPathComponent("Tests/FlowCLITests/BadInputs")

  /// The table, or why it cannot be read.
  static let table: Result<[CorpusCase], CorpusTableError> = {
    let url = directory.appendingPathComponent("cases.yaml")
    do {
      let text = try String(contentsOf: url, encoding: .utf8)
      guard let root = try Yams.compose(yaml: text), let rows = root.sequence else {
        throw CorpusTableError(description: "cases.yaml: expected a list of cases")
      }
      let cases = try rows.map(parse)
      var seen: Set<String> = []
      for row in cases where !seen.insert(row.name).inserted {
        throw CorpusTableError(description: "cases.yaml:\(row.line): '\(row.name)' is listed twice")
      }
      return .success(cases)
    } catch let error as CorpusTableError {
      return .failure(error)
    } catch {
      return .failure(CorpusTableError(description: "cases.yaml: \(error)"))
    }
  }()

  static let keys: Set<String> = [
    "flow", "script", "answers", "args", "what", "is", "exit", "says", "never", "make", "with", "stdin", "as",
    "env", "stdout", "stderr", "signal", "outputs", "writes", "files", "long", "known",
  ]

  static func parse(_ node: Node) throws -> CorpusCase {
    let line = (node.mark?.line ?? 0)
    func fail(_ message: String) -> CorpusTableError {
      CorpusTableError(description: "cases.yaml:\(line): \(message)")
    }
    guard let mapping = node.mapping else { throw fail("a case is a mapping") }
    var fields: [String: Node] = [:]
    for (key, value) in mapping {
      guard let name = key.string, keys.contains(name) else {
        throw fail("unknown key '\(key.string ?? "?")' (README.md lists the keys)")
      }
      fields[name] = value
    }
    let kinds = Kind.allCases.filter { fields[$0.rawValue] != nil }
    guard kinds.count == 1, let kind = kinds.first else {
      throw fail("a case has exactly one of flow, script, answers, args")
    }
    func string(_ key: String) throws -> String? {
      guard let value = fields[key] else { return nil }
      guard let text = value.string else { throw fail("\(key) must be text") }
      return text
    }
    func strings(_ value: Node, _ key: String) throws -> [String] {
      if let text = value.scalar?.string { return [text] }
      guard let list = value.sequence else { throw fail("\(key) must be text or a list of text") }
      return try list.map {
        guard let text = $0.string else { throw fail("\(key) must hold text") }
        return text
      }
    }
    func codes(_ value: Node) throws -> Set<Int32> {
      if let code = value.int { return [Int32(code)] }
      guard let list = value.sequence else { throw fail("exit must be a code, a list of codes or a mapping") }
      return Set(
        try list.map {
          guard let code = $0.int else { throw fail("exit codes are numbers") }
          return Int32(code)
        })
    }
    func perCommand<Value>(_ key: String, _ read: (Node) throws -> Value) throws -> PerCommand<Value> {
      guard let value = fields[key] else { return PerCommand() }
      guard let mapping = value.mapping else { return PerCommand(all: try read(value)) }
      var result = PerCommand<Value>()
      for (command, entry) in mapping {
        guard let name = command.string else { throw fail("\(key): commands are named by text") }
        result.byCommand[name] = try read(entry)
      }
      return result
    }

    var row = CorpusCase(kind: kind, input: "", what: try string("what") ?? "", line: line)
    guard !row.what.isEmpty else { throw fail("every case says what it is (what:)") }
    if kind == .args {
      row.arguments = try strings(fields["args"]!, "args")
    } else {
      row.input = try string(kind.rawValue) ?? ""
    }
    row.outcome = try string("is")
    row.exits = try perCommand("exit", codes)
    row.says = try perCommand("says") { try strings($0, "says") }
    row.never = try fields["never"].map { try strings($0, "never") } ?? []
    row.make = try string("make")
    row.flow = try string("with")
    row.stdin = try string("stdin")
    row.renamed = try string("as")
    row.stdout = try string("stdout")
    row.stderr = try string("stderr")
    row.signal = try string("signal")
    row.known = try perCommand("known") {
      guard let text = $0.string else { throw fail("known: gives a reason") }
      return text
    }
    row.long = fields["long"]?.bool ?? false
    row.writes = try fields["writes"].map { try strings($0, "writes") } ?? []
    row.files = try fields["files"].map { try strings($0, "files") } ?? []
    for (key, value) in fields["env"]?.mapping ?? [:] {
      guard let name = key.string, let text = value.string else { throw fail("env maps names to text") }
      row.environment[name] = text
    }
    for (key, value) in fields["outputs"]?.mapping ?? [:] {
      guard let name = key.string, let kind = value.string.flatMap(OutputFile.Kind.init) else {
        throw fail("outputs maps file names to json, ndjson, yaml, xml, script or scripts")
      }
      row.outputs[name] = kind
    }
    if kind == .args && row.exits.all == nil { throw fail("an args case gives its exit code") }
    if let outcome = row.outcome, !CorpusCommand.outcomes(for: kind).contains(outcome) {
      throw fail("is: \(outcome) is not one of \(CorpusCommand.outcomes(for: kind).sorted().joined(separator: ", "))")
    }
    if (kind == .flow || kind == .script) && row.outcome == nil && row.exits.all == nil {
      throw fail("a \(kind.rawValue) case says what it is (is:) or gives its exit code")
    }
    if let signal = row.signal, StopSignal(rawValue: signal) == nil { throw fail("signal must be TERM, HUP or INT") }
    if let stdout = row.stdout, !["closed", "full", "first-line"].contains(stdout) {
      throw fail("stdout must be closed, full or first-line")
    }
    if let stderr = row.stderr, stderr != "closed" { throw fail("stderr may only be closed") }
    if let make = row.make, CorpusInputs.generator(make) == nil { throw fail("make: no generator '\(make)'") }
    if kind == .args, row.make != nil, row.renamed == nil { throw fail("an args case names what it makes (as:)") }
    for file in row.files where !FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path) {
      throw fail("files: no \(file) under BadInputs/")
    }
    return row
  }
}

enum StopSignal: String {
  case term = "TERM", hup = "HUP", int = "INT"

  var number: Int32 {
    switch self {
    case .term: SIGTERM
    case .hup: SIGHUP
    case .int: SIGINT
    }
  }
}
