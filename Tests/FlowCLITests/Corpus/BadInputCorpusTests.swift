import Foundation
import Testing
import _FlowTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The bad-input corpus (issue 11 item 5, issue 23 item 9): every case of
/// `BadInputs/cases.yaml` through every command that takes it (CorpusCommand.all), each run
/// under a time and a memory limit, checked for a clean end or a clean error, and for output
/// files that are absent, intact or complete. `BadInputs/README.md` says how to add a case.
///
/// It runs against the binary named by `FLOWRUN_CORPUS_BINARY` (CI: a release build, by
/// `.ci/corpus`), and is skipped without it: the limits are the point, and a debug build is
/// several times slower than the one users run.
@Suite(.serialized, .enabled(if: CorpusRun.binary != nil, "set FLOWRUN_CORPUS_BINARY (or run .ci/corpus)"))
struct BadInputCorpusTests {
  @Test func tableIsValid() throws {
    let cases = try CorpusCase.table.get()
    #expect(cases.count >= 100)
    // Every committed input is in the table, so none is forgotten.
    for kind in [CorpusCase.Kind.flow, .script, .answers] {
      let folder = CorpusCase.directory.appendingPathComponent(kind.folder).path
      for file in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
        let used = cases.contains {
          ($0.kind == kind && $0.input == file && $0.make == nil) || $0.files.contains("\(kind.folder)/\(file)")
            || $0.stdin == "\(kind.folder)/\(file)"
        }
        #expect(used, "\(kind.folder)/\(file) is not in cases.yaml")
      }
    }
  }

  @Test(arguments: CorpusRun.all)
  func inputEndsCleanlyWithinLimits(_ run: CorpusRun) throws {
    let problems = try run.execute()
    // Intermittent: a known failure another branch fixes must not turn CI red; the table and
    // the issue tracker list them, and the key goes once the fix lands.
    if let known = run.row.known.value(for: run.command) {
      withKnownIssue(Comment(rawValue: known), isIntermittent: true) {
        for problem in problems { Issue.record(Comment(rawValue: problem)) }
      }
    } else {
      for problem in problems { Issue.record(Comment(rawValue: problem)) }
    }
  }
}

/// One case through one command.
struct CorpusRun: CustomTestStringConvertible, Sendable {
  var row: CorpusCase
  var command: String
  var arguments: [String]
  var outputs: [OutputFile]
  var allowedExits: Set<Int32>
  /// The flow a `test` of a flow case runs (the script is written into the run's directory).
  var flowScript: String?

  var testDescription: String { "\(row.name) · \(command) (cases.yaml:\(row.line))" }

  static let seconds = 2.0
  /// The openings of a message that says why a command failed: a diagnostic, a usage error,
  /// a failed script, the end of a session, or flowrun's own words about a file.
  static let clearMessages = ["error:", "Error:", "FAIL ", "ERROR ", "Session ended (", "flowrun: "]
  static let memoryBytes = 512 << 20
  /// Text that no output may hold however it is asked: the runner's environment holds it.
  static let canary = "flowrun-corpus-canary-5f3a"
  static let binary: String? = ProcessInfo.processInfo.environment["FLOWRUN_CORPUS_BINARY"].flatMap {
    // Resolved (`.build/release` is a link): the memory samples compare it with /proc/PID/exe.
    $0.isEmpty ? nil : URL(fileURLWithPath: $0).resolvingSymlinksInPath().path
  }

  static let all: [CorpusRun] = {
    guard binary != nil, let cases = try? CorpusCase.table.get() else { return [] }
    return cases.filter { only == nil || $0.input == only }.flatMap(runs)
  }()

  /// `FLOWRUN_CORPUS_CASE=bundle-200.json`: only the cases of that input (one slow case tried
  /// alone; `--filter` cannot pick an argument of the parameterized test).
  static let only = ProcessInfo.processInfo.environment["FLOWRUN_CORPUS_CASE"].flatMap { $0.isEmpty ? nil : $0 }

  static func runs(of row: CorpusCase) -> [CorpusRun] {
    if row.kind == .args {
      let outputs = row.outputs.map { OutputFile(name: $0.key, kind: $0.value) }.sorted { $0.name < $1.name }
      return [
        CorpusRun(
          row: row, command: row.arguments.first ?? "", arguments: row.arguments, outputs: outputs,
          allowedExits: row.exits.all ?? [])
      ]
    }
    let input = row.renamed ?? row.input
    return CorpusCommand.all.filter { $0.takes == row.kind }.map { command in
      let exits = row.exits.value(for: command.name) ?? command.exits[row.outcome ?? ""] ?? []
      return CorpusRun(
        row: row, command: command.name, arguments: command.arguments(input, row.flow ?? "ok.json"),
        outputs: command.outputs, allowedExits: exits,
        flowScript: row.kind == .flow && command.name == "test" ? input : nil)
    }
  }

  /// Runs the command in a fresh directory and returns every way it misbehaved.
  func execute() throws -> [String] {
    let directory = try RunDirectory(row: row)
    defer { directory.remove() }
    if let flowScript {
      try "flow: \(Self.yamlQuoted(flowScript))\nsteps: [next]\n".write(
        toFile: directory.path + "/" + CorpusCommand.flowScript, atomically: true, encoding: .utf8)
    }
    for output in outputs { try output.seed(in: directory.path) }
    directory.handOver()
    let inputs = directory.contents(excluding: Set(outputs.map(\.name)))

    var process = LimitedProcess(
      executable: Self.binary!, arguments: arguments, directory: directory.path,
      environment: Self.environment(home: directory.path).merging(row.environment) { $1 },
      seconds: Self.seconds, memoryBytes: Self.memoryBytes)
    process.stdin = try directory.standardInput(for: row, command: command)
    switch row.stdout {
    case "closed": process.stdout = .closed
    case "full": process.stdout = .file("/dev/full")
    case "first-line": process.stdout = .firstLineOnly
    default: break
    }
    if row.stderr == "closed" { process.stderr = .closed }
    process.signal = row.signal.flatMap(StopSignal.init).map(\.number)
    if directory.runsAsNobody { process.user = (65534, 65534) }

    let result = try process.run()
    Self.log(result, self)
    var problems = Self.judge(result, allowed: allowedExits, row: row, command: command)
    let shown = "flowrun \(arguments.joined(separator: " "))"

    for output in outputs {
      switch output.check(in: directory.path) {
      case .failure(let problem): problems.append("\(problem) after `\(shown)`")
      case .success(let state):
        if row.writes.contains(output.name), state != .new {
          problems.append("\(output.name) was not written (\(state)) by `\(shown)`")
        }
        // A recording always replays, and so does every script `paths --emit` writes (but a
        // flow read from a FIFO cannot be read again: nobody writes it a second time).
        if output.kind.replays, state == .new, !directory.inputIsFIFO {
          problems += try replay(output.name, in: directory).map {
            "\(output.name), written by `\(shown)`, does not replay: \($0)"
          }
        }
      }
    }
    for name in row.writes where !outputs.contains(where: { $0.name == name }) {
      problems.append("writes: \(name) is not an output of `\(shown)`")
    }
    problems += directory.changedInputs(inputs).map { "`\(shown)` changed its input \($0)" }
    problems += directory.leftovers().map { "`\(shown)` left a temporary file \($0) behind" }
    for text in row.never {
      if directory.anyFile(contains: text) { problems.append("'\(text)' leaked into a file written by `\(shown)`") }
    }
    return problems.map { "\($0)\n  case: \(row.what)\n  \(result.summary)" }
  }

  /// `flowrun test NAME` in the run's directory, under the same limits: what went wrong.
  func replay(_ name: String, in directory: RunDirectory) throws -> [String] {
    let process = LimitedProcess(
      executable: Self.binary!, arguments: ["test", name], directory: directory.path,
      environment: Self.environment(home: directory.path), seconds: Self.seconds, memoryBytes: Self.memoryBytes)
    let result = try process.run()
    var problems = Self.judge(
      result, allowed: [0], row: CorpusCase(kind: .script, input: name, what: "replay", line: row.line), command: "test"
    )
    if result.exitCode == 1 { problems.append(String(decoding: result.stdout.head.prefix(1500), as: UTF8.self)) }
    return problems
  }

  /// One line per run (time, peak memory, case, command) appended to the file
  /// `FLOWRUN_CORPUS_TIMES` names, so `.ci/corpus` can show how close the slowest runs come to
  /// the limits.
  static let timesFile = ProcessInfo.processInfo.environment["FLOWRUN_CORPUS_TIMES"]

  static func log(_ result: LimitedProcess.Result, _ run: CorpusRun) {
    guard let timesFile, let handle = FileHandle(forWritingAtPath: timesFile) else { return }
    defer { try? handle.close() }
    let line =
      String(format: "%6.3f s %5d MiB  ", result.seconds, result.peakResidentBytes >> 20) + run.testDescription + "\n"
    _ = try? handle.seekToEnd()
    try? handle.write(contentsOf: Data(line.utf8))
  }

  /// What every run gets: no colour, a home of its own (no history file of the user's), and
  /// the canary `never:` cases look for.
  static func environment(home: String) -> [String: String] {
    [
      "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "NO_COLOR": "1", "LANG": "C.UTF-8",
      "FLOWRUN_CORPUS_CANARY": canary,
    ]
  }

  /// Everything a run must satisfy whatever it was given.
  static func judge(_ result: LimitedProcess.Result, allowed: Set<Int32>, row: CorpusCase, command: String) -> [String]
  {
    var problems: [String] = []
    let bytes = result.stdout.bytes + result.stderr.bytes
    let text = String(decoding: bytes, as: UTF8.self)
    if result.timedOut {
      problems.append("did not end within \(seconds) s (killed)")
    } else if let signal = result.terminatingSignal {
      problems.append(
        "ended by signal \(signal) (\(String(cString: strsignal(signal)))): a crash, or an allocation past the \(memoryBytes >> 20) MiB address-space limit"
      )
    } else if let code = result.exitCode, !allowed.contains(code) {
      problems.append("exit code \(code), expected \(allowed.sorted().map(String.init).joined(separator: " or "))")
    }
    if result.peakResidentBytes > memoryBytes {
      problems.append("used \(result.peakResidentBytes >> 20) MiB of memory, over \(memoryBytes >> 20) MiB")
    }
    for sign in [
      "Fatal error", "Stack dump", "Segmentation fault", "Illegal instruction", "Current stack trace",
      "Please submit a bug report",
    ]
    where text.contains(sign) {
      problems.append("crash sign '\(sign)' in the output")
    }
    // A reader that leaves (`| head -1`) is an ordinary way to stop: nothing more to say.
    // `diff`'s exit 1 is its verdict ("the versions behave differently"), printed as a report.
    let verdict = command == "diff" && result.exitCode == 1
    if let code = result.exitCode, code != 0, !verdict, row.stderr != "closed", row.stdout != "first-line",
      !clearMessages.contains(where: text.contains)
    {
      problems.append("exit code \(code) without a message (\(clearMessages.joined(separator: ", ")))")
    }
    for fragment in row.says.value(for: command) ?? [] where !text.contains(fragment) {
      problems.append("the output does not say '\(fragment)'")
    }
    for fragment in row.never where text.contains(fragment) {
      problems.append("the output holds '\(fragment)'")
    }
    if let offset = rawControlCharacter(in: bytes) {
      let line = bytes[..<offset].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).last ?? []
      problems.append(
        "a raw control character (\(String(format: "0x%02X", bytes[offset]))) reached the terminal, after: \(String(decoding: line.suffix(120), as: UTF8.self))"
      )
    }
    if !row.long, result.stdout.count + result.stderr.count > 256 << 10 {
      problems.append(
        "printed \(result.stdout.count + result.stderr.count) bytes (more than 256 KiB without long: true)")
    }
    return problems
  }

  /// The offset of the first byte that a terminal would act on: C0 controls but tab and line
  /// feed, DEL, and the C1 controls (U+0080–U+009F, two bytes in UTF-8).
  static func rawControlCharacter(in bytes: [UInt8]) -> Int? {
    for (offset, byte) in bytes.enumerated() {
      if (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F { return offset }
      if byte == 0xC2, offset + 1 < bytes.count, (0x80...0x9F).contains(bytes[offset + 1]) { return offset }
    }
    return nil
  }

  static func yamlQuoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }
}

extension LimitedProcess.Result {
  var summary: String {
    let end =
      timedOut
      ? "killed after \(String(format: "%.2f", seconds)) s"
      : terminatingSignal.map { "signal \($0)" } ?? "exit \(exitCode ?? -1)"
    let shown =
      String(decoding: stdout.head.prefix(1500), as: UTF8.self)
      + String(decoding: stderr.head.prefix(1500), as: UTF8.self)
    return "\(end), \(String(format: "%.3f", seconds)) s, \(peakResidentBytes >> 20) MiB; output:\n" + shown
  }
}
