import FlowFormat
import Foundation
import Testing
import _FlowTestSupport

@testable import FlowAnalysis

/// Every lint rule on its own triggering and clean examples, plus registry invariants.
@Suite struct RuleTests {
  static let ruleIDs = LintRegistry.rules.map(\.id)

  @Test(arguments: ruleIDs)
  func triggeringExampleTriggers(_ id: String) throws {
    let rule = try #require(LintRegistry.rule(id))
    let diagnostics = FlowChecker.check(json: rule.triggeringExample)
    let own = diagnostics.filter { rule.diagnosticIDs.contains($0.id) }
    #expect(!own.isEmpty, "\(id) did not trigger; got \(diagnostics.map(\.id))")
    for diagnostic in own where !rule.isReportedByLoader {
      #expect(diagnostic.severity == rule.severity)
      #expect(diagnostic.location != nil, "\(id): \(diagnostic.message) has no location")
      #expect(diagnostic.path != nil, "\(id): \(diagnostic.message) has no JSON path")
    }
  }

  @Test(arguments: ruleIDs)
  func cleanExampleIsClean(_ id: String) throws {
    let rule = try #require(LintRegistry.rule(id))
    let diagnostics = FlowChecker.check(json: rule.cleanExample)
    #expect(diagnostics.isEmpty, "\(id) clean example: \(diagnostics.map { "\($0.id): \($0.message)" })")
  }

  @Test func registryIDsAreStableAndUnique() {
    #expect(Set(Self.ruleIDs).count == Self.ruleIDs.count)
    for rule in LintRegistry.rules {
      #expect(rule.id.hasPrefix("check."))
      #expect(rule.id.dropFirst(6).allSatisfy { $0.isLowercase || $0 == "-" })
      #expect(!rule.summary.hasSuffix("."))
    }
  }

  static let sampleFlows: [String] = {
    let directory = packageRoot().appendingPathComponent("sample-flows")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted()
  }()

  @Test(arguments: sampleFlows)
  func sampleFlowsAreClean(_ name: String) {
    let path = packageRoot().appendingPathComponent("sample-flows/\(name)").path
    let diagnostics = FlowChecker.check(FlowLoader.load(path: path))
    #expect(diagnostics.isEmpty, "\(name): \(diagnostics.map { "\($0.id): \($0.message)" })")
  }

  @Test func uncollectedVariableNamesThePath() {
    let rule = UncollectedVariableRule()
    let diagnostics = FlowChecker.check(json: rule.triggeringExample).filter { $0.id == rule.id }
    #expect(diagnostics.count == 1)
    #expect(
      diagnostics.first?.notes.first?.message
        == "welcome → plan reads 'name' (block 'plan_title'), which is only collected on 'name_screen'")
  }

  @Test(arguments: [
    ("goal == 'los'", true), ("goal == 'lose'", false), ("'gain' == goal", false), ("goal in ['x', 'y']", true),
    ("goal in ['x', 'lose']", false), ("hours > 8", true), ("hours >= 8", false), ("hours == 3", true),
    ("hours == 4", false), ("hours < 0", true), ("0 > hours", true), ("hours == 'many'", true), ("age == 'x'", true),
    ("age > 120", true), ("age > 100", false), ("goal != 'nope'", false),
  ])
  func impossibleConditions(_ condition: String, _ reported: Bool) {
    let json = """
      {"version": 1, "id": "t", "screens": [
        {"id": "a", "name": "A", "type": "question", "content": {"blocks": [
          {"id": "g", "type": "checklist", "content": {"fieldName": "goal", "items": [{"id": "lose", "label": "L"}, {"id": "gain", "label": "G"}]}},
          {"id": "h", "type": "slider", "content": {"fieldName": "hours", "min": 0, "max": 8, "step": 2}},
          {"id": "n", "type": "input", "content": {"fieldName": "age", "inputType": "number", "min": 0, "max": 120}},
          {"id": "b", "type": "button", "content": {"text": "Go"}}]},
         "rules": [{"when": "\(condition)", "goto": "b"}]},
        {"id": "b", "name": "B", "type": "feature", "content": {"title": "B"}}]}
      """
    let found = FlowChecker.check(json: json).filter { $0.id == "check.impossible-condition" }
    #expect(found.isEmpty != reported, "\(condition): \(found.map(\.message))")
  }

  /// Two conditions are the same when their trees are, whatever their spacing and parentheses;
  /// literals compare as texts, canonically equal ones included (`é` written whole or as `e` and
  /// an accent).
  @Test(arguments: [
    ("goal == 'lose'", "goal=='lose'", true), ("(goal == 'lose')", "goal == 'lose'", true),
    ("goal == 'lose'", "goal == 'gain'", false), ("goal == 'lose'", "'lose' == goal", false),
    ("a > 1 and b < 2", "(a > 1) and (b < 2)", true), ("a > 1 and b < 2", "a > 1 or b < 2", false),
    ("name == '\u{E9}'", "name == 'e\u{301}'", true), ("hours == 3", "hours == 3.0", true),
    ("user.plan == 'pro'", "user.plan == 'pro'", true), ("user.plan == 'pro'", "user.tier == 'pro'", false),
  ])
  func shadowedRulesCompareConditions(_ first: String, _ second: String, _ same: Bool) {
    let json = """
      {"version": 1, "id": "t", "screens": [
        {"id": "a", "name": "A", "type": "question", "content": {"blocks": [
          {"id": "b", "type": "button", "content": {"text": "Go"}}]},
         "rules": [{"when": "\(first)", "goto": "b"}, {"when": "\(second)", "goto": "b"}, {"goto": "b"}]},
        {"id": "b", "name": "B", "type": "feature", "content": {"title": "B"}}]}
      """
    let found = FlowChecker.check(json: json).filter { $0.id == "check.shadowed-rule" }
    #expect(found.count == (same ? 1 : 0), "\(first) / \(second): \(found.map(\.message))")
  }

  /// `check` finds its lint diagnostics' JSON paths in one scan after the rules ran: the same
  /// paths as a scan per diagnostic, and none when the report prints none.
  @Test func deferredPathsAreThePathsFoundAtOnce() throws {
    for rule in LintRegistry.rules where !rule.isReportedByLoader {
      let loaded = FlowLoader.load(bytes: Array(rule.triggeringExample.utf8), file: "x.json")
      let document = try #require(loaded.document)
      let context = CheckContext(
        file: loaded.file, document: document, source: loaded.source, patterns: loaded.patterns)
      let atOnce = (loaded.diagnostics + rule.check(context)).sortedForDisplay()
      let deferred = FlowChecker.check(loaded, rules: [rule])
      #expect(deferred == atOnce, "\(rule.id)")
      #expect(deferred.contains { $0.id == rule.id && $0.path != nil }, "\(rule.id): no path to compare")
      let without = FlowChecker.check(loaded, rules: [rule], jsonPaths: false)
      #expect(without.count == deferred.count, "\(rule.id)")
      for (bare, full) in zip(without, deferred) {
        var expected = full
        if rule.diagnosticIDs.contains(full.id) { expected.path = nil }
        #expect(bare == expected, "\(rule.id)")
      }
    }
  }

  @Test func githubAndSarifFormats() throws {
    let diagnostics = FlowChecker.check(json: DeadEndRule().triggeringExample, file: "flows/x.json")
    let github = DiagnosticExport.github(diagnostics)
    #expect(github.hasPrefix("::error file=flows/x.json,line="))
    #expect(github.contains(",title=check.dead-end::screen 'stuck' has no way forward"))
    let sarif = DiagnosticExport.sarif(diagnostics, version: "0.0.0")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
    #expect(object["version"] as? String == "2.1.0")
    let runs = try #require(object["runs"] as? [[String: Any]])
    let results = try #require(runs.first?["results"] as? [[String: Any]])
    #expect(results.first?["ruleId"] as? String == "check.dead-end")
  }

  /// SARIF written a result at a time, in pieces, is the text the pretty writer makes of the
  /// whole log (parsed back and written again), for none, one and many results.
  @Test(arguments: [0, 1, 40])
  func sarifPiecesAreThePrettyLog(_ count: Int) throws {
    let shape = try #require(UncollectedVariableEquivalenceTests.shapes.last)
    let loaded = FlowLoader.load(bytes: try UncollectedVariableEquivalenceTests.json(shape), file: "a/b c.json")
    let found =
      FlowChecker.check(loaded) + [
        Diagnostic(id: "x.y", severity: .note, message: "no file", notes: [.init("a\nnote \u{1}")])
      ]
    let diagnostics = Array(found.suffix(count))
    #expect(diagnostics.count == count)
    var pieces: [String] = []
    DiagnosticExport.sarif(count: count, diagnostic: { diagnostics[$0] }, version: "1.0") { pieces.append($0) }
    let log = pieces.joined()
    let (root, problems) = JSONParser.parse(Array(log.utf8))
    #expect(problems.isEmpty)
    #expect(JSONWriter(style: .pretty).string(try #require(root)) + "\n" == log)
  }

  @Test(arguments: [
    ("flows/x.json", "flows/x.json"),
    ("my flows/ré sumé.json", "my%20flows/r%C3%A9%20sum%C3%A9.json"),
    ("/abs/a#b?.json", "file:///abs/a%23b%3F.json"),
    ("../up/100%.json", "../up/100%25.json"),
  ])
  func sarifURIs(path: String, uri: String) throws {
    #expect(DiagnosticExport.uri(path) == uri)
    let diagnostics = FlowChecker.check(json: DeadEndRule().triggeringExample, file: path)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(DiagnosticExport.sarif(diagnostics, version: "0").utf8))
        as? [String: Any])
    let result = try #require((object["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]).first
    let physical = (result?["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
    #expect((physical?["artifactLocation"] as? [String: Any])?["uri"] as? String == uri)
  }
}

/// `docs/checks.md` must match the rules' metadata.
@Suite struct ChecksDocTests {
  @Test func checksDocIsUpToDate() throws {
    let url = packageRoot().appendingPathComponent("docs/checks.md")
    let generated = ChecksDocumentation.markdown()
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"].map({ !$0.isEmpty }) ?? false {
      try generated.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    let committed = try? String(contentsOf: url, encoding: .utf8)
    #expect(
      committed == generated,
      "docs/checks.md is stale; regenerate it with: RECORD_SNAPSHOTS=1 swift test --filter ChecksDoc\n\(lineDiff(committed ?? "", generated))"
    )
  }
}
