import Foundation
import Testing
import _FlowTestSupport

/// Replay scripts stay in their suite (issue 23 rows 1 and 2, docs/security.md): `snapshot:`
/// reads and writes only inside the suite, `--update` writes only snapshots, and a `flow:` that
/// is not a flow is reported by name and kind, never quoted.
@Suite(.timeLimit(.minutes(3))) struct ScriptConfinementTests {
  static let secret = "TOP-SECRET-CONTENT-1729"

  /// A suite directory `suite/` holding a copy of fitness.json, next to `outside.txt` (the
  /// secret) in a fresh temporary directory (removed with the sandbox).
  struct Sandbox {
    let directory: TemporaryDirectory
    var root: URL { directory.url }
    var suite: URL { root.appendingPathComponent("suite") }

    init() throws {
      directory = try TemporaryDirectory()
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent("suite/sub"), withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: packageRoot().appendingPathComponent("sample-flows/fitness.json"),
        to: root.appendingPathComponent("suite/fitness.json"))
      try write("outside.txt", "\(ScriptConfinementTests.secret)\n")
    }

    func write(_ relative: String, _ text: String) throws {
      try text.write(to: root.appendingPathComponent(relative), atomically: true, encoding: .utf8)
    }

    func read(_ relative: String) throws -> String {
      try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }

    func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
  }

  struct Escape: Sendable, CustomTestStringConvertible {
    var name: String
    var snapshot: String
    /// A symbolic link to make first: (link inside the root, destination).
    var link: (String, String)?
    var testDescription: String { name }
  }

  static let escapes: [Escape] = [
    Escape(name: "parent directory (the issue)", snapshot: "../outside.txt"),
    Escape(name: "absolute /proc/self/environ (the issue)", snapshot: "/proc/self/environ"),
    Escape(name: "climbs out and back in", snapshot: "sub/../../outside.txt"),
    Escape(
      name: "symbolic link to a file outside", snapshot: "sub/leak.txt",
      link: ("suite/sub/leak.txt", "../../outside.txt")),
    Escape(name: "symbolic link to a directory outside", snapshot: "out/outside.txt", link: ("suite/out", "..")),
    Escape(name: "dangling symbolic link", snapshot: "gone.txt", link: ("suite/gone.txt", "/nonexistent/flowrun/x")),
  ]

  /// Reading (compare) and writing (`--update`) a snapshot outside the suite are both a script
  /// error at the step's line:col; nothing of the file reaches stdout, stderr or the reports,
  /// and nothing outside is written.
  @Test(arguments: escapes, [false, true])
  func snapshotOutsideTheSuiteIsAnErrorAtTheStep(_ escape: Escape, update: Bool) throws {
    let box = try Sandbox()
    if let (link, destination) = escape.link {
      try FileManager.default.createSymbolicLink(atPath: box.path(link), withDestinationPath: destination)
    }
    try box.write(
      "suite/leak.flow-test.yaml", "flow: fitness.json\nsteps:\n  - tap: 1\n  - snapshot: \(escape.snapshot)\n")
    let junit = box.path("report.xml")
    let json = box.path("report.json")
    let result = try runFlowrun(
      ["test", box.suite.path, "--junit", junit, "--json", json] + (update ? ["--update"] : []),
      environment: ["FLOWRUN_PROBE": Self.secret])
    #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("leak.flow-test.yaml:4:5: error: snapshot '\(escape.snapshot)'"), "\(result.stdout)")
    #expect(result.stdout.contains("[script.snapshot-outside-suite]"))
    for text in [result.stdout, result.stderr, try box.read("report.xml"), try box.read("report.json")] {
      #expect(!text.contains(Self.secret), "\(text)")
    }
    #expect(try box.read("outside.txt") == "\(Self.secret)\n")
  }

  /// A snapshot inside the suite, also through `..` or a link that stays inside, is fine.
  @Test func snapshotsInsideTheSuiteAreWrittenAndCompared() throws {
    let box = try Sandbox()
    try FileManager.default.createSymbolicLink(atPath: box.path("suite/sub/up"), withDestinationPath: "..")
    try box.write(
      "suite/sub/ok.flow-test.yaml",
      "flow: ../fitness.json\nsteps:\n  - tap: 1\n  - snapshot: ../snaps/one.txt\n  - snapshot: up/snaps/two.txt\n")
    let update = try runFlowrun(["test", box.suite.path, "--update"])
    #expect(update.status == 0, "\(update.stdout)")
    #expect(try box.read("suite/snaps/one.txt").hasPrefix("── "))
    let compare = try runFlowrun(["test", box.suite.path])
    #expect(compare.status == 0, "\(compare.stdout)")
    // Given as a file, the script's suite is its own directory: ../snaps is outside it.
    let alone = try runFlowrun(["test", box.path("suite/sub/ok.flow-test.yaml")])
    #expect(alone.status == 2)
    #expect(alone.stdout.contains("ok.flow-test.yaml:4:5: error: snapshot '../snaps/one.txt' is outside the suite"))
  }

  struct Target: Sendable, CustomTestStringConvertible {
    var name: String
    var snapshot: String
    var refusal: String
    var testDescription: String { name }
  }

  static let targets: [Target] = [
    Target(
      name: "the script's flow (the issue)", snapshot: "fitness.json",
      refusal: "is the flow the script runs, not a snapshot"),
    Target(name: "the script itself", snapshot: "own.flow-test.yaml", refusal: "is a replay script, not a snapshot"),
    Target(name: "another script", snapshot: "other.flow-test.yaml", refusal: "is a replay script, not a snapshot"),
    Target(name: "a file that is not a transcript", snapshot: "notes.txt", refusal: "is not a snapshot"),
  ]

  /// `--update` never overwrites a file the run reads or a file that is not a snapshot: the step
  /// fails and the file keeps its bytes.
  @Test(arguments: targets)
  func updateWritesOnlySnapshots(_ target: Target) throws {
    let box = try Sandbox()
    try box.write("suite/other.flow-test.yaml", "flow: fitness.json\nsteps: []\n")
    try box.write("suite/notes.txt", "my notes\n")
    try box.write("suite/own.flow-test.yaml", "flow: fitness.json\nsteps:\n  - snapshot: \(target.snapshot)\n")
    let before = try box.read("suite/\(target.snapshot)")
    let result = try runFlowrun(["test", box.path("suite/own.flow-test.yaml"), "--update"])
    #expect(result.status == 1, "\(result.stdout)")
    #expect(result.stdout.contains("own.flow-test.yaml:3:5: will not write snapshot:"), "\(result.stdout)")
    #expect(result.stdout.contains(target.refusal), "\(result.stdout)")
    #expect(try box.read("suite/\(target.snapshot)") == before)
    // Compared (no --update), a file that is not a transcript is not shown in a diff either.
    if target.snapshot == "notes.txt" {
      let compare = try runFlowrun(["test", box.path("suite/own.flow-test.yaml")])
      #expect(compare.status == 1)
      #expect(!compare.stdout.contains("my notes"), "\(compare.stdout)")
    }
  }

  struct NotAFlow: Sendable, CustomTestStringConvertible {
    var name: String
    /// The `flow:` value (relative to `suite/`) and the bytes to put there (nil: use as is).
    var flow: String
    var content: String?
    var kind: String
    var testDescription: String { name }
  }

  static let notFlows: [NotAFlow] = [
    NotAFlow(
      name: "an env file", flow: "../app.env", content: "DB_PASSWORD=\(secret)\n",
      kind: "not a flow: the file is not JSON"),
    NotAFlow(
      name: "JSON that is not a flow", flow: "../creds.json", content: "{\"api_key\": \"\(secret)\"}\n",
      kind: "not a flow: JSON, but not a flow or a bundle"),
    NotAFlow(
      name: "/proc/self/environ", flow: "/proc/self/environ", content: nil, kind: "not a flow: the file is not JSON"),
    NotAFlow(name: "a directory", flow: "..", content: nil, kind: "is a directory"),
  ]

  /// `flow:` may name any file; one that is not a flow is reported by name and kind only.
  @Test(arguments: notFlows)
  func aFlowThatIsNotAFlowIsNeverQuoted(_ item: NotAFlow) throws {
    let box = try Sandbox()
    if let content = item.content { try box.write("suite/" + item.flow, content) }
    try box.write("suite/s.flow-test.yaml", "flow: \(item.flow)\nsteps: []\n")
    let result = try runFlowrun(
      ["test", box.suite.path, "--junit", box.path("r.xml"), "--json", box.path("r.json")],
      environment: ["FLOWRUN_PROBE": Self.secret])
    #expect(result.status == 2, "\(result.stdout)")
    #expect(
      result.stdout.contains("s.flow-test.yaml:1:7: the flow '\(item.flow)' cannot be loaded"), "\(result.stdout)")
    #expect(result.stdout.lowercased().contains(item.kind.lowercased()), "\(result.stdout)")
    for text in [result.stdout, result.stderr, try box.read("r.xml"), try box.read("r.json")] {
      #expect(!text.contains(Self.secret), "\(text)")
    }
  }
}
