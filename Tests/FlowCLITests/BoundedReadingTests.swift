import Foundation
import Testing
import _FlowTestSupport

/// #23 item 6 (row 11): flows, scripts and snapshots are read up to a documented limit, checked
/// while reading; character devices and directories are refused by kind; pipes and FIFOs are
/// read as files.
@Suite(.timeLimit(.minutes(2))) struct BoundedReadingTests {
  static let flow = "sample-flows/fitness.json"
  static let device = "is a character device (such as /dev/zero or a terminal), not a file"

  struct Refusal: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var message: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let refusals: [Refusal] =
    ["/dev/zero", "/dev/urandom"].flatMap { device in
      [
        Refusal(arguments: ["check", device], message: "\(device): error: cannot read file: \(Self.device) [load.io]"),
        Refusal(arguments: ["run", device], message: "\(device): error: cannot read file: \(Self.device) [load.io]"),
        Refusal(arguments: ["render", device], message: "cannot read file: \(Self.device)"),
        Refusal(arguments: ["graph", device], message: "cannot read file: \(Self.device)"),
        Refusal(arguments: ["paths", device], message: "cannot read file: \(Self.device)"),
        Refusal(
          arguments: ["run", flow, "--answers", device],
          message: "\(device): error: cannot read the script: \(Self.device) [script.io]"),
        Refusal(arguments: ["test", device], message: "cannot read the script: \(Self.device)"),
        Refusal(arguments: ["paths", flow, "--coverage", device], message: "cannot read the script: \(Self.device)"),
      ]
    } + [
      Refusal(
        arguments: ["run", "sample-flows"], message: "sample-flows: error: cannot read file: is a directory [load.io]"),
      Refusal(
        arguments: ["run", flow, "--answers", "sample-flows"],
        message: "cannot read the script: is a directory [script.io]"),
    ]

  /// Refused at once by kind (exit 2), with a message naming the kind: never read to the end
  /// of memory.
  @Test(arguments: refusals)
  func devicesAndDirectoriesAreRefusedByKind(_ example: Refusal) throws {
    let result = try runFlowrun(example.arguments, stdin: "", timeout: 30)
    #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
    #expect((result.stdout + result.stderr).contains(example.message), "\(result.stdout)\(result.stderr)")
  }

  /// A snapshot that is not a file (here a directory inside the suite) fails its step.
  @Test func aDirectorySnapshotFailsItsStep() throws {
    let directory = try TemporaryDirectory()
    // A link to /dev/zero leaves the suite (script.snapshot-outside-suite); a directory inside
    // the suite reaches the kind check.
    #expect(mkdir(directory.path + "/zero.txt", 0o755) == 0)
    let flow = packageRoot().appendingPathComponent(Self.flow).path
    let script = directory.file("s.flow-test.yaml", contents: "flow: \(flow)\nsteps:\n  - snapshot: zero.txt\n")
    let result = try runFlowrun(["test", script], timeout: 30)
    #expect(result.status == 1, "\(result.stdout)")
    #expect(result.stdout.contains("zero.txt"), "\(result.stdout)")
  }

  /// Pipes and FIFOs are read like files (process substitution keeps working).
  @Test func pipesAndFIFOsAreReadAsFiles() throws {
    let directory = try TemporaryDirectory()
    let checked = try runPipeline("\"$FLOWRUN\" check <(cat \(Self.flow)); echo \"flowrun=$?\"")
    #expect(checked.stdout.hasSuffix("checked 1 file: no problems\nflowrun=0\n"), "\(checked.stdout)\(checked.stderr)")
    let fifo = directory.path + "/flow.fifo"
    let answers = directory.path + "/answers.fifo"
    let run = try runPipeline(
      """
      mkfifo '\(fifo)' '\(answers)'
      cat \(Self.flow) > '\(fifo)' &
      printf 'flow: x.json\\nsteps:\\n  - tap: Get Started\\n  - fill: {name: Alex}\\n' > '\(answers)' &
      "$FLOWRUN" run '\(fifo)' --answers '\(answers)' --now 2026-01-01T00:00:00Z --data '\(directory.path)/data.json' < /dev/null
      echo "flowrun=$?"
      """)
    #expect(run.stdout.hasSuffix("flowrun=1\n"), "\(run.stdout)\(run.stderr)")
    #expect(directory.text("data.json") == "{\n  \"name\": \"Alex\"\n}\n")
  }

  /// The limit is checked while reading: an endless stream stops at 256 MiB (a regular file
  /// over it would be refused from its size before reading).
  @Test func anEndlessStreamStopsAtTheLimit() throws {
    let result = try runPipeline("cat /dev/zero | \"$FLOWRUN\" check /dev/stdin; echo \"flowrun=$?\"", timeout: 60)
    #expect(
      result.stdout.contains(
        "/dev/stdin: error: cannot read file: larger than 256 MiB, the limit for a flow [load.io]"), "\(result.stdout)")
    #expect(result.stdout.hasSuffix("flowrun=2\n"))
  }
}
