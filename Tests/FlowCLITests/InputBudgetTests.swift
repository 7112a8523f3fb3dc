import Foundation
import Testing
import _FlowTestSupport

/// #11 item 3: every input line counts. Endless input that changes nothing ends a piped run as
/// `stuck`; a closed stdout ends it at once; an over-long answer line is one rejected input.
/// Each pipeline runs under `timeout`: status 124 would mean it hung.
@Suite(.timeLimit(.minutes(3))) struct InputBudgetTests {
  struct Endless: CustomTestStringConvertible, Sendable {
    var name: String
    /// The generator piped into flowrun (`yes 1`).
    var input: String
    /// A flow file name, and its text (nil: a sample flow path).
    var flow: String
    var flowText: String?
    var screen: String
    var testDescription: String { "\(input) on \(name)" }
  }

  static let endless: [Endless] = [
    // The issue's row: `1` answers the name field, then Continue is blocked by validation.
    Endless(name: "a field that rejects digits", input: "yes 1", flow: "sample-flows/fitness.json", screen: "name"),
    Endless(name: "an awaited action", input: "yes 1", flow: "awaiting.json", flowText: awaitingFlow, screen: "ask"),
    Endless(
      name: "a screen without buttons", input: "yes 1", flow: "filler.json", flowText: fillerFlow, screen: "wait"),
    Endless(name: "inspection commands", input: "yes :data", flow: "sample-flows/fitness.json", screen: "welcome"),
    Endless(name: "empty lines", input: "yes ''", flow: "sample-flows/fitness.json", screen: "welcome"),
    Endless(
      name: "6 MB of rejected answers", input: "yes nope | head -c 6000000", flow: "sample-flows/fitness.json",
      screen: "welcome"),
  ]

  /// `yes 1 | flowrun run FLOW > /dev/null`: ends as `stuck`, events and data written as for
  /// any other ending, exit 1.
  @Test(arguments: endless)
  func endlessInputThatChangesNothingEndsAsStuck(_ example: Endless) throws {
    let directory = try TemporaryDirectory()
    let flow = example.flowText.map { directory.file(example.flow, contents: $0) } ?? example.flow
    let result = try runPipeline(
      "{ \(example.input); } | \"$FLOWRUN\" run '\(flow)' --now 2026-01-01T00:00:00Z --events '\(directory.path)/events.ndjson' --data '\(directory.path)/data.json' > '\(directory.path)/stdout.txt'; echo \"flowrun=${PIPESTATUS[1]}\""
    )
    #expect(result.stdout == "flowrun=1\n", "\(result.stdout)\(result.stderr)")
    let files = try SessionFiles(directory)
    #expect(files.dropOffReason == "stuck")
    #expect((files.events.last?["screen_id"] as? String) == example.screen)
    let stdout = try #require(directory.text("stdout.txt"))
    #expect(
      stdout.contains("! 1000 lines in a row changed nothing on screen '\(example.screen)'; the run ends as stuck"))
    #expect(stdout.contains("── Session ended (stuck) on \(example.screen)"))
  }

  /// `yes 1 | flowrun run FLOW | head -1`: the reader leaves, and the run ends at the first
  /// write that fails (`output_failed`), or as `stuck` when it changed nothing for 1000 lines
  /// before (which one depends on when `head` exits); files written, exit 1 (never 141, never a
  /// hang). `runFlowrunWithClosedStdout` pins the `output_failed` case.
  @Test(arguments: ["yes 1", "yes nope", "yes ''"])
  func aClosedStdoutEndsTheRun(_ input: String) throws {
    let directory = try TemporaryDirectory()
    let result = try runPipeline(
      "{ \(input); } | \"$FLOWRUN\" run sample-flows/fitness.json --events '\(directory.path)/events.ndjson' --data '\(directory.path)/data.json' | head -1; echo \"flowrun=${PIPESTATUS[1]}\""
    )
    #expect(result.stdout.hasPrefix("── Welcome (welcome) · welcome"), "\(result.stdout)")
    #expect(result.stdout.hasSuffix("flowrun=1\n"), "\(result.stdout)\(result.stderr)")
    let reason = try SessionFiles(directory).dropOffReason
    #expect(reason == "output_failed" || reason == "stuck", "\(reason ?? "no drop-off")")
  }

  /// One 32 MB answer line is one rejected input, read and dropped as it streams; the lines
  /// after it are used. A line that never ends (`< /dev/zero`) ends the input.
  @Test func anOverlongAnswerLineIsOneRejectedInput() throws {
    let directory = try TemporaryDirectory()
    let result = try runPipeline(
      "{ head -c 33554432 /dev/zero | tr '\\0' x; printf '\\n1\\nAlex\\n'; } | \"$FLOWRUN\" run sample-flows/fitness.json --now 2026-01-01T00:00:00Z --data '\(directory.path)/data.json' --events '\(directory.path)/events.ndjson'; echo \"flowrun=${PIPESTATUS[1]}\""
    )
    #expect(
      result.stdout.contains(
        "! an answer line of 33554432 bytes was ignored: larger than 1 MiB, the limit for an answer line\n"))
    #expect(result.stdout.contains("── Name (name)"), "the line after the long one was not used")
    #expect(result.stdout.hasSuffix("flowrun=1\n"))
    let files = try SessionFiles(directory)
    #expect(files.data["name"] as? String == "Alex")
    #expect(files.dropOffReason == "end_of_input")

    let zero = try runPipeline("\"$FLOWRUN\" run sample-flows/fitness.json < /dev/zero; echo \"flowrun=$?\"")
    #expect(
      zero.stdout.contains("bytes was ignored: larger than 1 MiB, the limit for an answer line\n"),
      "\(zero.stdout.suffix(300))")
    #expect(zero.stdout.contains("── Session ended (end_of_input) on welcome"))
    #expect(zero.stdout.hasSuffix("flowrun=1\n"))
  }

  /// Lines that make progress reset the count: a long honest walk is never `stuck`.
  @Test func progressResetsTheCount() throws {
    // 999 rejected lines, an accepted one, 999 more, then the end of input.
    let rejected = String(repeating: "nope\n", count: 999)
    let result = try runFlowrun(
      ["run", "sample-flows/fitness.json", "--now", "2026-01-01T00:00:00Z"], stdin: rejected + "1\n" + rejected)
    #expect(result.status == 1)
    #expect(result.stdout.contains("── Session ended (end_of_input) on name"), "\(result.stdout.suffix(400))")
    #expect(!result.stdout.contains("stuck"))
  }
}
