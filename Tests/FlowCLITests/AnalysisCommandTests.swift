import Foundation
import Testing
import _FlowTestSupport

/// `check` output formats, `graph` and `paths` through the built binary: exit codes and shapes.
@Suite struct AnalysisCommandTests {
  static func temporaryFile(_ name: String, _ text: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static let deadEnd = """
    {"version": 1, "id": "x", "screens": [
      {"id": "a", "name": "A", "type": "welcome", "content": {"blocks": [{"id": "go", "type": "button", "content": {"text": "Go"}}]}},
      {"id": "b", "name": "B", "type": "feature", "content": {"blocks": [{"id": "back", "type": "button", "content": {"text": "Back", "action": {"type": "previous"}}}]}}
    ]}
    """

  @Test func checkGithubAnnotations() throws {
    let path = try Self.temporaryFile("dead.json", Self.deadEnd)
    let result = try runFlowrun(["check", "--format", "github", path])
    #expect(result.status == 1)
    #expect(
      result.stdout.hasPrefix("::error file=\(path),line=3,col=3,title=check.dead-end::screen 'b' has no way forward"))
  }

  @Test func checkSarif() throws {
    let path = try Self.temporaryFile("dead.json", Self.deadEnd)
    let result = try runFlowrun(["check", "--format", "sarif", path])
    #expect(result.status == 1)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["version"] as? String == "2.1.0")
  }

  @Test func checkSampleFlowsStrict() throws {
    let flows = ["bundle", "fitness", "goals", "legacy", "signin", "survey"].map { "sample-flows/\($0).json" }
    let result = try runFlowrun(["check", "--strict"] + flows)
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stdout == "checked 6 files: no problems\n")
  }

  @Test(arguments: ["dot", "mermaid", "json"])
  func graphFormats(_ format: String) throws {
    let result = try runFlowrun(["graph", "sample-flows/fitness.json", "--format", format])
    #expect(result.status == 0)
    #expect(result.stdout.contains("welcome"))
  }

  @Test func graphUnknownFlowIsUsageError() throws {
    let result = try runFlowrun(["graph", "sample-flows/bundle.json", "--flow", "nope"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("no flow 'nope'"))
  }

  @Test func pathsEmitThenCoverage() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-emit-\(UUID().uuidString)")
      .path
    let emitted = try runFlowrun(["paths", "sample-flows/fitness.json", "--emit", directory])
    #expect(emitted.status == 0, "\(emitted.stderr)")
    #expect(emitted.stdout.contains("paths to completion: 2\n"))
    let tested = try runFlowrun(["test", directory])
    #expect(tested.status == 0, "\(tested.stdout)")
    let coverage = try runFlowrun([
      "paths", "sample-flows/fitness.json", "--coverage", directory, "--min-coverage", "100",
    ])
    #expect(coverage.status == 0, "\(coverage.stdout)")
    #expect(coverage.stdout.contains("total: 21/21 (100%)"))
  }

  @Test func pathsMinCoverageFails() throws {
    let result = try runFlowrun([
      "paths", "sample-flows/signin.json", "--coverage", "sample-flows/tests/signin/maybe-later.flow-test.yaml",
      "--min-coverage", "99",
    ])
    #expect(result.status == 1)
    #expect(result.stdout.contains("coverage of 1 script:\n"))
    #expect(result.stdout.contains("uncovered:"))
    #expect(result.stdout.contains("is below --min-coverage 99%"))
  }

  @Test func pathsAsJSON() throws {
    let explored = try runFlowrun(["paths", "sample-flows/signin.json", "--format", "json"])
    #expect(explored.status == 0, "\(explored.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(explored.stdout.utf8)) as? [String: Any])
    #expect(object["states"] as? Int == 46)
    #expect(object["complete"] as? Bool == true)
    #expect((object["paths"] as? [String: Any])?["completed"] as? String == "20")
    #expect((object["reachable"] as? [String: Int]) == ["screens": 7, "edges": 22, "rules": 10, "outcomes": 15])
    let paths = try #require((object["coveringSet"] as? [String: Any])?["paths"] as? [[String]])
    #expect(paths.allSatisfy { $0.first == "router" && ["$complete", "$dismiss"].contains($0.last) })

    let below = try runFlowrun([
      "paths", "sample-flows/signin.json", "--format", "json", "--min-coverage", "99",
      "--coverage", "sample-flows/tests/signin/maybe-later.flow-test.yaml",
    ])
    #expect(below.status == 1)
    let coverage = try #require(
      (try JSONSerialization.jsonObject(with: Data(below.stdout.utf8)) as? [String: Any])?["coverage"] as? [String: Any]
    )
    #expect(coverage["scriptsOfThisFlow"] as? Int == 1)
    #expect((coverage["total"] as? [String: Int])?["reachable"] == 54)
    #expect((coverage["uncovered"] as? [String])?.contains("edge welcome → signin_error") == true)
  }

  /// The hand-written sample suite covers every screen, edge, rule and outcome of its flow;
  /// scripts of the other samples are counted apart.
  @Test func sampleSuiteCoversSignin() throws {
    let result = try runFlowrun([
      "paths", "sample-flows/signin.json", "--coverage", "sample-flows/tests", "--min-coverage", "100",
    ])
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stdout.contains("run another flow or cannot start a session):\n"))
    #expect(result.stdout.contains("total: 54/54 (100%)"))
  }

  @Test func pathsBounds() throws {
    let result = try runFlowrun(["paths", "sample-flows/goals.json", "--max-states", "10"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("note: stopped at --max-states 10; counts and coverage are lower bounds"))
    #expect(result.stdout.contains("paths to completion: ≥ "))
  }
}
