import Foundation
import Testing
import _FlowTestSupport

/// #14 end to end on the built binary: `flowrun simulate` is deterministic, independent of
/// threads, and its shards merge to the single run; a model's errors are located.
@Suite(.timeLimit(.minutes(2))) struct SimulateCommandTests {
  static let goals = packageRoot().appendingPathComponent("sample-flows/goals.json").path

  func simulate(_ arguments: [String], directory: URL? = nil) throws -> ProcessOutput {
    try runFlowrun(["simulate", Self.goals, "--users", "3000", "--seed", "1"] + arguments, directory: directory)
  }

  @Test func theTextReportIsTheSameOnEveryRun() throws {
    let first = try simulate([])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stderr.isEmpty)
    #expect(first.stdout.contains("== plan_copy=control: "))
    #expect(first.stdout.contains("== plan_copy=coach: "))
    #expect(first.stdout.contains("two-proportion z-test (pooled, two-sided)"))
    #expect(first.stdout.contains("Intervals: 95 % Wilson score."))
    #expect(try simulate([]).stdout == first.stdout)
  }

  @Test(arguments: ["json", "csv"])
  func threadsDoNotChangeTheResult(format: String) throws {
    let one = try simulate(["--format", format, "--jobs", "1"])
    let three = try simulate(["--format", format, "--jobs", "3"])
    #expect(one.status == 0 && three.status == 0)
    #expect(one.stdout == three.stdout)
    #expect(!one.stdout.isEmpty)
  }

  @Test func shardsMergeToTheSingleRun() throws {
    let directory = try TemporaryDirectory()
    var parts: [String] = []
    for index in 1...3 {
      let part = try simulate(["--shard", "\(index)/3"])
      #expect(part.status == 0, "\(part.stderr)")
      parts.append(directory.file("part\(index).json", contents: part.stdout))
    }
    let merged = try runFlowrun(["simulate", "merge"] + parts.reversed() + ["--format", "json"])
    #expect(merged.status == 0, "\(merged.stderr)")
    let single = try simulate(["--format", "json"])
    #expect(merged.stdout == single.stdout)
    let missing = try runFlowrun(["simulate", "merge", parts[0], parts[2]])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("missing slices: 2/3"))
  }

  @Test func aModelSteersTheUsers() throws {
    let directory = try TemporaryDirectory()
    let model = directory.file(
      "model.yaml",
      contents: """
        defaults: {drop_off: 0}
        fields:
          goal: {weights: {build: 1}}
        assignment:
          forced:
            plan_copy: {coach: 1}
        """)
    let output = try simulate(["--model", model, "--format", "json"])
    #expect(output.status == 0, "\(output.stderr)")
    let report = try #require(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    let variants = try #require(report["variants"] as? [[String: Any]])
    #expect(variants.map { $0["variant"] as? String } == ["plan_copy=coach"])
    let answers = try #require(variants.first?["answers"] as? [String: [String: Int]])
    #expect(answers["goal"] == ["build": 3000])
  }

  @Test func modelErrorsAreLocated() throws {
    let directory = try TemporaryDirectory()
    let model = directory.file("model.yaml", contents: "screens:\n  intro: {drop_off: 2}\n")
    let output = try simulate(["--model", model])
    #expect(output.status == 2)
    #expect(output.stdout.isEmpty)
    #expect(output.stderr.contains("model.yaml:2:21: error: drop_off must be a probability from 0 to 1, not 2"))
  }
}
