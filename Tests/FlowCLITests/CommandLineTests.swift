import Foundation
import Testing
import _FlowTestSupport

/// The command line itself: version, help, usage errors, and `check`'s golden output.
@Suite struct CommandLineTests {
  @Test func versionPrintsTheVersionAndExitsZero() throws {
    let output = try runFlowrun(["--version"])
    #expect(output.status == 0)
    #expect(output.stdout.hasPrefix("flowrun "), "\(output.stdout)")
    #expect(output.stdout.split(separator: "\n").count == 1)
  }

  @Test func helpListsTheSubcommandsAndExitCodes() throws {
    let output = try runFlowrun(["--help"])
    #expect(output.status == 0)
    #expect(output.stdout.contains("USAGE: flowrun"))
    #expect(output.stdout.contains("check"))
    let words = output.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(words.contains("64 wrong usage"))
  }

  @Test(arguments: [
    [],
    ["frobnicate"],
    ["check", "--no-such-option", "sample-flows/fitness.json"],
    ["--no-such-option"],
    ["check"],
    ["check", "--format", "yaml", "sample-flows/fitness.json"],
  ])
  func wrongUsageExits64(_ arguments: [String]) throws {
    let output = try runFlowrun(arguments)
    #expect(output.status == 64, "\(output.stdout)\(output.stderr)")
    #expect(output.stderr.contains("Error:") || output.stderr.contains("error:"), "\(output.stderr)")
  }

  @Test func checkOfTheSampleFlowsMatchesItsGoldenOutput() throws {
    let root = packageRoot().appendingPathComponent("sample-flows")
    let files = try FileManager.default.contentsOfDirectory(atPath: root.path)
      .filter { $0.hasSuffix(".json") }.sorted().map { "sample-flows/\($0)" }
    #expect(files.count >= 5)
    for format in ["text", "json"] {
      let output = try runFlowrun(["check", "--format", format] + files)
      #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
      #expect(output.stderr.isEmpty)
      assertSnapshot(output.stdout, named: "check-sample-flows.\(format == "text" ? "txt" : "json")")
    }
    let strict = try runFlowrun(["check", "--strict"] + files)
    #expect(strict.status == 0, "sample flows must be free of warnings too: \(strict.stdout)")
  }
}
