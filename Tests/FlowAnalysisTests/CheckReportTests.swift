import FlowFormat
import Testing

@testable import FlowAnalysis

/// A check's report keeps the uncollected-variable rule's path texts as numbers until they are
/// asked for (`CheckReport`): what it writes then is what the rule reports.
@Suite struct CheckReportTests {
  @Test(arguments: UncollectedVariableEquivalenceTests.shapes)
  func completedTextsAreTheRules(_ shape: UncollectedVariableEquivalenceTests.Shape) throws {
    let loaded = FlowLoader.load(bytes: try UncollectedVariableEquivalenceTests.json(shape), file: "generated.json")
    let document = try #require(loaded.document)
    let context = CheckContext(file: loaded.file, document: document, source: loaded.source)
    let rule = UncollectedVariableRule()
    for jsonPaths in [true, false] {
      let report = FlowChecker.report(loaded, rules: [rule], jsonPaths: jsonPaths)
      let completed = Array(report.completed)
      #expect(completed.allSatisfy { DeferredText.index($0.message) == nil })
      #expect(report.count == completed.count)
      for severity in Severity.allCases {
        #expect(report.count(severity) == completed.count { $0.severity == severity })
      }
      var expected = (loaded.diagnostics + rule.check(context)).sortedForDisplay()
      if !jsonPaths {
        for index in expected.indices where expected[index].id == rule.id { expected[index].path = nil }
      }
      #expect(completed == expected, "\(shape.name), JSON paths \(jsonPaths)")
      #expect(
        report.waitingCount == completed.count { $0.message.hasSuffix("which is not collected on every path to it") })
    }
  }

  /// Every rule's diagnostics joined, the waiting ones as numbers, come in the display order
  /// of all of them made at once; `--strict` raises the waiting ones' warnings too, and the
  /// counts are those of the diagnostics made.
  @Test(arguments: UncollectedVariableEquivalenceTests.shapes)
  func allRulesInDisplayOrder(_ shape: UncollectedVariableEquivalenceTests.Shape) throws {
    let loaded = FlowLoader.load(bytes: try UncollectedVariableEquivalenceTests.json(shape), file: "generated.json")
    let document = try #require(loaded.document)
    let context = CheckContext(
      file: loaded.file, document: document, source: loaded.source, patterns: loaded.patterns)
    let rules = LintRegistry.rules
    let found = rules.flatMap { $0.check(context) }
    for (jsonPaths, parallelScreens) in [(true, 1), (false, 1), (false, Int.max)] {
      var report = FlowChecker.report(loaded, rules: rules, jsonPaths: jsonPaths, parallelScreens: parallelScreens)
      let expected =
        (loaded.diagnostics
        + found.map { diagnostic in
          var diagnostic = diagnostic
          if !jsonPaths { diagnostic.path = nil }
          return diagnostic
        }).sortedForDisplay()
      #expect(Array(report.completed) == expected, "\(shape.name), JSON paths \(jsonPaths)")
      report.raiseWarnings()
      let strict = expected.map { diagnostic in
        var diagnostic = diagnostic
        if diagnostic.severity == .warning { diagnostic.severity = .error }
        return diagnostic
      }
      #expect(Array(report.completed) == strict, "\(shape.name), strict")
      #expect(report.count == strict.count)
      for severity in Severity.allCases {
        #expect(report.count(severity) == strict.count { $0.severity == severity }, "\(shape.name), \(severity)")
      }
    }
  }

  /// A long chain: every read but the collector's waits for its text, and the notes are the
  /// ones a long path gets (the first and last ten screens).
  @Test func aLongChainsTextsWait() throws {
    let screens = 40
    let json = (0..<screens).map { i in
      let rules = i == 0 ? #""rules": [{"when": "$user.id == 'x'", "goto": "s2"}, {"goto": "s1"}], "# : ""
      let input = i == 1 ? #", {"id": "x_in", "type": "input", "content": {"fieldName": "x"}}"# : ""
      return
        #"{"id": "s\#(i)", "type": "question", \#(rules)"content": {"blocks": [{"id": "t\#(i)", "type": "text", "content": {"text": "{x}"}}\#(input), {"id": "b\#(i)", "type": "button", "content": {"text": "Go"}}]}}"#
    }
    let source = #"{"version": 1, "id": "chain", "screens": [\#(json.joined(separator: ","))]}"#
    let report = FlowChecker.report(FlowLoader.load(bytes: Array(source.utf8), file: "chain.json"), jsonPaths: false)
    #expect(report.waitingCount == screens - 1)
    let uncollected = report.completed.filter { $0.id == "check.uncollected-variable" }
    #expect(uncollected.count == screens - 1)
    let last = try #require(uncollected.last)
    #expect(last.message == "screen 's\(screens - 1)' reads 'x', which is not collected on every path to it")
    #expect(
      last.notes.map(\.message) == [
        "s0 → s2 → s3 → s4 → s5 → s6 → s7 → s8 → s9 → s10 → … 19 screens … → s30 → s31 → s32 → s33 → s34 → s35 → s36 → s37 → s38 → s39 reads 'x' (block 't39'), which is only collected on 's1'"
      ])
  }

  /// The JSON report of several files, their diagnostics asked for by position on two threads,
  /// is the one written from every diagnostic completed in order (empty reports included).
  @Test func jsonOfSeveralReportsIsTheirsInOrder() throws {
    let shapes = UncollectedVariableEquivalenceTests.shapes.prefix(6)
    var reports = [CheckReport([])]
    for shape in shapes {
      let loaded = FlowLoader.load(bytes: try UncollectedVariableEquivalenceTests.json(shape), file: shape.name)
      reports += [FlowChecker.report(loaded), CheckReport([])]
    }
    let all = reports.flatMap { Array($0.completed) }
    #expect(all.count > 10)
    let (count, diagnostic) = CheckReport.diagnostics(of: reports)
    for chunk in [1, 7, 1_024] {
      var written: [UInt8] = []
      DiagnosticFormatter.writeJSON(count: count, chunk: chunk, diagnostic: diagnostic) { written += $0 }
      #expect(String(decoding: written, as: UTF8.self) == DiagnosticFormatter.json(all) + "\n", "chunk \(chunk)")
    }
  }
}
