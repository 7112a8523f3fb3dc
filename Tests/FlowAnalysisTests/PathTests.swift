import FlowAnalysis
import FlowEngine
import FlowFormat
import FlowReplay
import Foundation
import Testing
import _FlowTestSupport

/// Flows built for path tests.
enum PathFlows {
  /// `n` diamonds in a row: each `a_i` offers two buttons to `b_i` or `c_i`, both lead to the
  /// next diamond; 2^n screen paths to completion.
  static func diamondChain(_ n: Int) -> String {
    var screens: [String] = []
    for i in 0..<n {
      let next = i + 1 < n ? "a\(i + 1)" : "done"
      screens.append(
        #"{"id": "a\#(i)", "name": "A\#(i)", "type": "question", "content": {"blocks": ["#
          + #"{"id": "left", "type": "button", "content": {"text": "Left", "action": {"type": "screen", "screenId": "b\#(i)"}}},"#
          + #"{"id": "right", "type": "button", "content": {"text": "Right", "action": {"type": "screen", "screenId": "c\#(i)"}}}]}}"#
      )
      for side in ["b", "c"] {
        screens.append(
          #"{"id": "\#(side)\#(i)", "name": "\#(side)\#(i)", "type": "feature", "next": "\#(next)", "content": {"title": "\#(side)"}}"#
        )
      }
    }
    screens.append(
      #"{"id": "done", "name": "Done", "type": "celebration", "content": {"title": "Done", "buttonAction": {"type": "complete"}}}"#
    )
    return #"{"version": 1, "id": "diamonds", "settings": {"dismissAllowed": false}, "screens": ["#
      + screens.joined(separator: ",\n")
      + "]}"
  }

  /// `n` flows, each running the next from a flow screen after a three-way checklist; the
  /// entry flow's flow screen reads its answer again when the whole chain returns (`b` leads to
  /// `bee`, reached only if that answer is remembered across the sub-flows).
  static func subflowChain(_ n: Int) -> String {
    let flows = (0..<n).map { f in
      let rules = f == 0 ? #", "rules": [{"when": "pick0 == 'b'", "goto": "bee"}]"# : ""
      let sub =
        f + 1 < n
        ? #"{"id": "sub", "name": "Sub", "type": "flow", "flow": "f\#(f + 1)", "content": {}\#(rules)},"#
        : #"{"id": "sub", "name": "Sub", "type": "feature", "content": {"blocks": [{"id": "go", "type": "button", "content": {"text": "Go"}}]}\#(rules)},"#
      return #"""
        "f\#(f)": {"version": 1, "id": "f\#(f)", "screens": [
          {"id": "pick", "name": "Pick", "type": "question", "content": {"blocks": [{"id": "c", "type": "checklist", "content": {"fieldName": "pick\#(f)", "items": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}, {"id": "c", "label": "C"}]}}, {"id": "go", "type": "button", "content": {"text": "Next"}}]},
           "rules": [{"when": "pick\#(f) == 'a'", "goto": "left"}, {"goto": "sub"}]},
          {"id": "left", "name": "Left", "type": "feature", "content": {"blocks": [{"id": "go", "type": "button", "content": {"text": "Next"}}]}},
          \#(sub)
          {"id": "done", "name": "Done", "type": "feature", "content": {"blocks": [{"id": "go", "type": "button", "content": {"text": "Done", "action": {"type": "complete"}}}]}},
          {"id": "bee", "name": "Bee", "type": "feature", "content": {"blocks": [{"id": "go", "type": "button", "content": {"text": "Done", "action": {"type": "complete"}}}]}}]}
        """#
    }
    return #"{"activeFlow": "f0", "settings": {"dismissAllowed": false}, "flows": {"# + flows.joined(separator: ",\n")
      + "}}"
  }

  static func load(_ json: String, file: String = "test.json") throws -> FlowDocument {
    let result = FlowLoader.load(bytes: Array(json.utf8), file: file)
    #expect(result.isRunnable, "\(result.diagnostics.map(\.message))")
    return try #require(result.document)
  }
}

@Suite struct PathTests {
  @Test(arguments: [(1, "2"), (2, "4"), (5, "32"), (40, "1099511627776")])
  func diamondChainCountsExactly(_ n: Int, _ expected: String) throws {
    let document = try PathFlows.load(PathFlows.diamondChain(n))
    let exploration = PathExplorer(document: document).explore()
    #expect(exploration.isComplete)
    let counts = exploration.pathCounts()
    #expect(counts.completed.description == expected)
    #expect(counts.dismissed == .zero)
    #expect(exploration.states.count < 10 * (3 * n + 2), "de-duplication keeps the state graph linear")
  }

  /// A finished sub-flow's answers stop mattering (its screens cannot come again), so states
  /// grow with the chain's length, not with the answers of every flow on the stack; an answer
  /// the flow screen reads when its sub-flow returns still counts, so every `bee` is reached.
  @Test(arguments: [2, 8, 24])
  func subflowChainStaysLinear(_ n: Int) throws {
    let document = try PathFlows.load(PathFlows.subflowChain(n))
    let exploration = PathExplorer(document: document).explore()
    #expect(exploration.isComplete)
    #expect(exploration.states.count <= 40 * n, "\(exploration.states.count) states for \(n) flows")
    let screens = Set(
      exploration.reachableItems.compactMap { item -> String? in
        if case .screen(let name) = item { return name } else { return nil }
      })
    for f in 0..<n {
      for screen in ["pick", "left", "done"] { #expect(screens.contains("f\(f)/\(screen)")) }
    }
    #expect(screens.contains("f0/bee"))
    let (paths, unconfirmed) = exploration.coveringSet()
    #expect(!paths.isEmpty)
    #expect(unconfirmed.isEmpty)
  }

  @Test(arguments: [
    // (rules on a slider 0...10, expected distinct screen paths to completion)
    (#"[{"when": "x >= 5", "goto": "high"}]"#, 2),
    (#"[{"when": "x > 10", "goto": "high"}]"#, 1),
    (#"[{"when": "x == 3", "goto": "high"}, {"when": "x < 3", "goto": "low"}]"#, 3),
  ])
  func boundaryValuesReachEveryRule(_ rules: String, _ expected: Int) throws {
    let json = """
      {"version": 1, "id": "t", "settings": {"dismissAllowed": false}, "screens": [
        {"id": "pick", "name": "Pick", "type": "question", "rules": \(rules), "next": "mid", "content": {"blocks": [
          {"id": "s", "type": "slider", "content": {"fieldName": "x", "min": 0, "max": 10, "defaultValue": 7}},
          {"id": "go", "type": "button", "content": {"text": "Go"}}]}},
        {"id": "mid", "name": "Mid", "type": "feature", "next": "$complete", "content": {"title": "Mid"}},
        {"id": "high", "name": "High", "type": "feature", "next": "$complete", "content": {"title": "High"}},
        {"id": "low", "name": "Low", "type": "feature", "next": "$complete", "content": {"title": "Low"}}]}
      """
    let exploration = PathExplorer(document: try PathFlows.load(json)).explore()
    #expect(exploration.pathCounts().completed == BigUInt(UInt64(expected)))
  }

  @Test func boundsAreReported() throws {
    let document = try PathFlows.load(PathFlows.diamondChain(10))
    let limited = PathExplorer(document: document, options: .init(maxStates: 5)).explore()
    #expect(limited.stateLimited)
    let shallow = PathExplorer(document: document, options: .init(maxDepth: 3)).explore()
    #expect(shallow.depthLimited > 0)
    #expect(!shallow.isComplete)
  }

  @Test func bigUIntArithmetic() {
    #expect(BigUInt.power(of2: 100).description == "1267650600228229401496703205376")
    #expect((BigUInt(UInt64.max) + .one).description == "18446744073709551616")
    #expect((BigUInt(4_000_000_000) * 3).description == "12000000000")
    #expect(BigUInt.zero.description == "0")
    #expect(BigUInt(7) < BigUInt.power(of2: 64))
    var sum = BigUInt.zero
    for _ in 0..<1000 { sum += BigUInt(UInt64.max) }
    #expect(sum.description == "18446744073709551615000")
  }

  /// The covering set of every sample flow, written as replay scripts, passes `flowrun test`
  /// (the replayer) and covers 100% of what exploration reached.
  @Test(arguments: RuleTests.sampleFlows)
  func emittedScriptsPassAndCoverEverything(_ name: String) throws {
    let flowPath = packageRoot().appendingPathComponent("sample-flows/\(name)").path
    let document = try #require(FlowLoader.load(path: flowPath).document)
    let exploration = PathExplorer(document: document).explore()
    #expect(exploration.isComplete)
    let paths = exploration.coveringPaths()
    #expect(!paths.isEmpty)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-paths-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var covered = Set<CoverageItem>()
    for (index, path) in paths.enumerated() {
      let session = try #require(path.replay(document: document))
      let yaml = ScriptWriter.yaml(
        for: Recording(flowPath: flowPath, config: path.config, inputs: path.inputs), final: session)
      let file = directory.appendingPathComponent("p\(index).flow-test.yaml").path
      try yaml.write(toFile: file, atomically: true, encoding: .utf8)
      let outcome = Replayer.run(path: file)
      #expect(outcome.status == .passed, "\(name) path \(index + 1): \(outcome.message)\n\(yaml)")
      let script = try #require(ScriptParser.load(path: file).script)
      covered.formUnion(try #require(ScriptCoverage.items(of: script, document: document)))
    }
    let report = CoverageReport(reachable: exploration.reachableItems, covered: covered)
    #expect(report.uncovered.isEmpty, "\(name): \(report.uncovered)")
  }
}
