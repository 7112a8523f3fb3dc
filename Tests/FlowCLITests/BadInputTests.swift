import Foundation
import Testing
import _FlowTestSupport

/// Every command that reads a flow, run on every bad input: a clean message, an exit code in
/// {0, 1, 2}, never a crash or a hang.
///
/// To cover a new command, add one line to ``FlowCommand/all``. To add an input, drop a small
/// file in `BadInputs/` and give it a line in ``BadInput/committed`` (big inputs are generated
/// at test time, in ``BadInput/generated``).
@Suite struct BadInputTests {
  @Test(arguments: FlowCommand.all, BadInput.all)
  func commandHandlesBadInputCleanly(_ command: FlowCommand, _ input: BadInput) throws {
    let path = try input.path()
    let output = try runFlowrun(command.arguments(path), stdin: "", timeout: 30)
    let text = output.stdout + output.stderr
    let context = "flowrun \(command.arguments(input.name).joined(separator: " ")) exited \(output.status):\n\(text.prefix(2000))"
    #expect([0, 1, 2].contains(output.status), "crashed, hung or misused: \(context)")
    #expect(command.allowedExits(input.expect).contains(output.status), "unexpected exit: \(context)")
    for crashSign in ["Fatal error", "Stack dump", "Segmentation fault", "Illegal instruction", "Current stack trace"] {
      #expect(!text.contains(crashSign), "\(context)")
    }
    if output.status != 0 {
      #expect(text.contains("error:"), "no error message: \(context)")
    }
    if let mention = input.mentions {
      #expect(text.contains(mention), "expected '\(mention)' in the output: \(context)")
    }
    // A clean message quotes a trimmed excerpt, never megabytes of the input.
    #expect(input.manyProblems || text.utf8.count < 64_000, "\(text.utf8.count) bytes of output: \(text.prefix(300))")
  }
}

/// A command under test: its arguments for a flow path, and the exit codes it may give.
struct FlowCommand: CustomTestStringConvertible, Sendable {
  var name: String
  var arguments: @Sendable (String) -> [String]
  /// Exit codes for a clean flow, a flow with problems, and an unreadable or unparsable file.
  var clean: Set<Int32>
  var problems: Set<Int32>
  var unreadable: Set<Int32> = [2]

  var testDescription: String { name }

  func allowedExits(_ expect: BadInput.Expect) -> Set<Int32> {
    switch expect {
    case .clean: clean
    case .problems: problems
    case .unreadable: unreadable
    }
  }

  static let all: [FlowCommand] = [
    FlowCommand(name: "check", arguments: { ["check", $0] }, clean: [0], problems: [1]),
    // When they land (one line each; a loadable flow with problems may exit 1 or 2):
    // FlowCommand(name: "render", arguments: { ["render", $0] }, clean: [0], problems: [0, 1, 2]),
    // FlowCommand(name: "graph", arguments: { ["graph", $0] }, clean: [0], problems: [0, 1, 2]),
    // FlowCommand(name: "paths", arguments: { ["paths", $0] }, clean: [0, 1], problems: [0, 1, 2]),
    // FlowCommand(name: "run", arguments: { ["run", $0] }, clean: [0, 1], problems: [0, 1, 2]),  // empty stdin
  ]
}

/// One bad input: where it comes from and what `check` should make of it.
struct BadInput: CustomTestStringConvertible, Sendable {
  enum Expect: Sendable {
    /// Loads without errors (check exits 0).
    case clean
    /// Loads, with errors (check exits 1).
    case problems
    /// Cannot be read, parsed or turned into a flow (exit 2).
    case unreadable
  }

  enum Source: Sendable {
    /// A small file in `BadInputs/`.
    case file
    /// Bytes generated at test time into a temp directory (too big to commit).
    case generated(@Sendable () -> [UInt8])
    /// A path used as is (a directory, a missing file).
    case path(String)
  }

  var name: String
  var source: Source
  var expect: Expect
  /// Text the output must contain (a diagnostic id, usually).
  var mentions: String?
  /// Thousands of genuine problems: the output may be long.
  var manyProblems = false

  var testDescription: String { name }

  init(_ name: String, _ expect: Expect, mentions: String? = nil, manyProblems: Bool = false, source: Source = .file) {
    self.name = name
    self.expect = expect
    self.mentions = mentions
    self.manyProblems = manyProblems
    self.source = source
  }

  static let directory = packageRoot().appendingPathComponent("Tests/FlowCLITests/BadInputs")

  /// The file to pass to flowrun.
  func path() throws -> String {
    switch source {
    case .file:
      return Self.directory.appendingPathComponent(name).path
    case .path(let path):
      return path
    case .generated(let bytes):
      let url = Self.generatedDirectory.appendingPathComponent(name)
      if !FileManager.default.fileExists(atPath: url.path) {
        try Data(bytes()).write(to: url, options: .atomic)
      }
      return url.path
    }
  }

  static let generatedDirectory: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("flowrun-bad-inputs-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  static let all: [BadInput] = committed + generated + paths

  static let committed: [BadInput] = [
    BadInput("truncated-mid-object.json", .unreadable, mentions: "json.syntax.unexpected-eof"),
    BadInput("truncated-mid-string.json", .unreadable, mentions: "json.syntax.unterminated-string"),
    BadInput("truncated-after-colon.json", .unreadable, mentions: "json.syntax.unexpected-eof"),
    BadInput("truncated-open-brace.json", .unreadable, mentions: "json.syntax.unexpected-eof"),
    BadInput("empty.json", .unreadable, mentions: "json.empty"),
    BadInput("whitespace-only.json", .unreadable, mentions: "json.empty"),
    BadInput("bom-only.json", .unreadable, mentions: "json.empty"),
    BadInput("null.json", .unreadable, mentions: "load.not-a-flow"),
    BadInput("root-string.json", .unreadable, mentions: "load.not-a-flow"),
    BadInput("root-array.json", .unreadable, mentions: "load.not-a-flow"),
    BadInput("root-number.json", .unreadable, mentions: "load.not-a-flow"),
    BadInput("bom.json", .clean),
    BadInput("crlf.json", .clean),
    BadInput("cr-only.json", .clean),
    BadInput("utf16le-bom.json", .unreadable, mentions: "json.encoding.utf16"),
    BadInput("utf16be-no-bom.json", .unreadable, mentions: "json.encoding.utf16"),
    BadInput("invalid-utf8-in-string.json", .unreadable, mentions: "json.encoding.invalid-utf8"),
    BadInput("overlong-utf8.json", .unreadable, mentions: "json.encoding.invalid-utf8"),
    BadInput("nul-bytes.json", .unreadable, mentions: "json.syntax.control-character"),
    BadInput("binary-garbage.bin", .unreadable),
    BadInput("binary-after-valid.json", .unreadable, mentions: "json.syntax.extra-content"),
    BadInput("html.json", .unreadable, mentions: "json.not-json"),
    BadInput("yaml.json", .unreadable, mentions: "json.not-json"),
    BadInput("wrong-types-everywhere.json", .problems, mentions: "load.type-mismatch"),
    BadInput("wrong-type-screens.json", .unreadable, mentions: "load.type-mismatch"),
    BadInput("wrong-type-flows.json", .unreadable),
    BadInput("screens-of-nulls.json", .problems, mentions: "load.type-mismatch"),
    BadInput("screens-empty.json", .unreadable, mentions: "load.empty-flow"),
    BadInput("bundle-empty.json", .unreadable, mentions: "load.empty-bundle"),
    BadInput("subflow-cycle.json", .problems, mentions: "load.subflow-cycle"),
    BadInput("subflow-self.json", .problems, mentions: "load.subflow-cycle"),
    // Loops through rules, `next` and `onEnter` are legal to load; running them is the engine's job.
    BadInput("rules-loop.json", .clean),
    BadInput("goto-self-on-enter.json", .clean),
    BadInput("numbers-extreme.json", .problems, mentions: "json.number-out-of-range"),
    BadInput("duplicate-keys-everywhere.json", .unreadable, mentions: "json.duplicate-key"),
    BadInput("deep-but-allowed.json", .clean),
    BadInput("expression-garbage.json", .problems, mentions: "load.bad-expression"),
    BadInput("unicode-ids.json", .clean),
  ]

  static let generated: [BadInput] = [
    BadInput("deep-arrays-10k.json", .unreadable, mentions: "json.syntax.too-deep", source: .generated { nested(10_000, open: "[", close: "]") }),
    BadInput("deep-arrays-100k.json", .unreadable, mentions: "json.syntax.too-deep", source: .generated { nested(100_000, open: "[", close: "]") }),
    BadInput("deep-objects-100k.json", .unreadable, mentions: "json.syntax.too-deep", source: .generated { nested(100_000, open: "{\"a\":", close: "}") }),
    BadInput("deep-unclosed-100k.json", .unreadable, mentions: "json.syntax.too-deep", source: .generated { Array(String(repeating: "[{\"k\":", count: 100_000).utf8) }),
    BadInput("deep-in-flow-100k.json", .unreadable, mentions: "json.syntax.too-deep", source: .generated {
      Array(#"{"version": 1, "screens": [{"id": "a", "name": "A", "type": "feature", "content": {}, "metadata": "#.utf8)
        + nested(100_000, open: "[", close: "]") + Array("}]}".utf8)
    }),
    BadInput("huge-text-4mb.json", .clean, source: .generated { flow(text: String(repeating: "All work and no play. ", count: 200_000)) }),
    BadInput("huge-escapes-1mb.json", .clean, source: .generated { flow(text: String(repeating: #"\u00e9\n\"\\"#, count: 100_000)) }),
    BadInput("huge-unterminated-string-4mb.json", .unreadable, mentions: "json.syntax.unterminated-string", source: .generated {
      Array(#"{"version": 1, "screens": [{"id": ""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: 4_000_000)
    }),
    BadInput("huge-key-2mb.json", .clean, mentions: "load.unknown-key", source: .generated {
      var bytes = flow(text: "hi")
      bytes.removeLast()  // the closing brace
      return bytes + Array(#", ""#.utf8) + Array(repeating: UInt8(ascii: "k"), count: 2_000_000) + Array(#"": 1}"#.utf8)
    }),
    BadInput("huge-number-1mb.json", .problems, mentions: "json.number-out-of-range", source: .generated {
      var bytes = flow(text: "hi")
      bytes.removeLast()
      return bytes + Array(#", "metadata": 1"#.utf8) + Array(repeating: UInt8(ascii: "9"), count: 1_000_000) + Array("}".utf8)
    }),
    BadInput("error-at-end-of-4mb-line.json", .unreadable, mentions: "json.syntax.expected-comma", source: .generated {
      Array("[".utf8) + Array(String(repeating: "1,", count: 2_000_000).utf8) + Array("1 2]".utf8)
    }),
    BadInput("many-screens-missing-content.json", .problems, mentions: "load.missing-key", manyProblems: true, source: .generated {
      let screens = (0..<20_000).map { #"{"id": "s\#($0)", "name": "S", "type": "feature"}"# }
      return Array(#"{"version": 1, "screens": ["#.utf8) + Array(screens.joined(separator: ",\n").utf8) + Array("]}".utf8)
    }),
    // These crashed flowrun (stack overflow in the expression parser) before nesting was limited.
    BadInput("deep-condition-100k.json", .problems, mentions: "nested too deeply", source: .generated {
      flow(text: "hi", rules: #"[{"when": ""# + String(repeating: "(", count: 100_000) + #"1", "goto": "a"}]"#)
    }),
    BadInput("deep-template-100k.json", .clean, mentions: "load.template-syntax", source: .generated {
      flow(text: "{" + String(repeating: "-", count: 100_000) + "1}")
    }),
    BadInput("long-operator-chain-100k.json", .problems, mentions: "nested too deeply", source: .generated {
      flow(text: "hi", rules: #"[{"when": ""# + String(repeating: "a || ", count: 100_000) + #"a", "goto": "a"}]"#)
    }),
  ]

  static let paths: [BadInput] = [
    BadInput("a directory", .unreadable, mentions: "cannot read file", source: .path(packageRoot().appendingPathComponent("sample-flows").path)),
    BadInput("a missing file", .unreadable, mentions: "cannot read file", source: .path("/nonexistent/flowrun/missing.json")),
  ]

  static func nested(_ depth: Int, open: String, close: String) -> [UInt8] {
    Array((String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)).utf8)
  }

  /// A one-screen flow whose text block holds `text` and whose `rules` are `rules` (both
  /// already JSON).
  static func flow(text: String, rules: String = "[]") -> [UInt8] {
    Array(
      #"{"version": 1, "screens": [{"id": "a", "name": "A", "type": "feature", "rules": "#.utf8) + Array(rules.utf8)
      + Array(#", "content": {"blocks": [{"id": "t", "type": "text", "content": {"text": ""#.utf8)
      + Array(text.utf8) + Array(#""}}]}}]}"#.utf8)
  }
}
