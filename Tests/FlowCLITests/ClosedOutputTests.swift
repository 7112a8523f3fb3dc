import Foundation
import Testing
import _FlowTestSupport

/// `flowrun … | head -1`: a reader that goes away early never kills a command (no exit 141),
/// never changes its exit code, and never stops it writing the files it was asked to write.
@Suite struct ClosedOutputTests {
  /// A command line (`{dir}` is a fresh temporary directory) and the files it must write there.
  struct Case: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var files: [String]
    var testDescription: String { arguments.prefix(2).joined(separator: " ") }
  }

  static let cases: [Case] = [
    Case(
      arguments: ["test", "sample-flows/tests/fitness", "--junit", "{dir}/junit.xml", "--json", "{dir}/report.json"],
      files: ["junit.xml", "report.json"]),
    Case(arguments: ["check", "--strict", "sample-flows/fitness.json", "sample-flows/goals.json"], files: []),
    Case(arguments: ["paths", "sample-flows/fitness.json", "--emit", "{dir}/emitted"], files: ["emitted"]),
    Case(arguments: ["render", "sample-flows/fitness.json", "--width", "40"], files: []),
    Case(arguments: ["graph", "sample-flows/goals.json"], files: []),
    Case(
      arguments: ["run", "sample-flows/fitness.json", "--now", "2026-01-01T00:00:00Z", "--data", "{dir}/data.json"],
      files: ["data.json"]),
  ]

  @Test(arguments: cases)
  func closingStdoutEarlyKeepsTheExitCodeAndTheFiles(_ example: Case) throws {
    let normalDirectory = try temporaryDirectory()
    let closedDirectory = try temporaryDirectory()
    defer {
      try? FileManager.default.removeItem(at: normalDirectory)
      try? FileManager.default.removeItem(at: closedDirectory)
    }
    let normal = try runFlowrun(
      example.arguments.map { $0.replacingOccurrences(of: "{dir}", with: normalDirectory.path) })
    let closed = try runFlowrunWithClosedStdout(
      example.arguments.map { $0.replacingOccurrences(of: "{dir}", with: closedDirectory.path) })
    #expect(
      closed.status == normal.status, "closed stdout: \(closed.status) \(closed.stderr); normal: \(normal.status)")
    #expect(closed.status != 141)
    for file in example.files {
      #expect(
        FileManager.default.fileExists(atPath: closedDirectory.appendingPathComponent(file).path),
        "\(file) was not written")
    }
  }

  private func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-closed-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
