import FlowAnalysis
import FlowFormat
import Testing

/// `check.regex-backtracking` on input patterns and `matches` conditions: each report points at
/// the repeated group inside the JSON string literal, escapes counted as written.
@Suite struct RegexBacktrackingRuleTests {
  /// A JSON string literal as written in the file, and the file text each report must point at.
  @Test(arguments: [
    (#""^(a+)+$""#, ["(a+)+$"]),
    (#""^(\\w+\\s?)+$""#, [#"(\\w+\\s?)+$"#]),
    (#""\u00e9\u00E9(a*)*""#, ["(a*)*"]),
    (#""\ud83d\ude00(a|a)*""#, ["(a|a)*"]),
    (#""\"x\"(\\d+)*\/""#, [#"(\\d+)*\/"#]),
    (#""é😀(a+)+ and (b+)+""#, ["(a+)+ and", "(b+)+"]),
    (#""^\\w+([.-]?\\w+)*@x$""#, [#"([.-]?\\w+)*@"#]),
    (#""^[A-Z]{2}\\d{4}$""#, []),
    (#""^\\d{5}(-\\d{4})?$""#, []),
    (#""^(?=.*[A-Z])(?=.*\\d).{8,}$""#, []),
    (#""^[\\w.+-]+@([\\w-]+\\.)+[a-zA-Z]{2,}$""#, []),
  ])
  func reportsPointInsideTheString(literal: String, at expected: [String]) {
    let flows = [
      """
      {"version": 1, "id": "t", "screens": [
        {"id": "a", "name": "A", "type": "form", "content": {"blocks": [
          {"id": "i", "type": "input", "content": {"fieldName": "code", "pattern": \(literal)}},
          {"id": "b", "type": "button", "content": {"text": "Go"}}]}}]}
      """,
      """
      {"version": 1, "id": "t", "screens": [
        {"id": "a", "name": "A", "type": "form", "content": {"blocks": [
          {"id": "i", "type": "input", "content": {"fieldName": "code"}},
          {"id": "b", "type": "button", "content": {"text": "Go"}}]},
         "rules": [{"when": {"all": [{"field": "code", "op": "matches", "value": \(literal)}]}, "goto": "b"}]},
        {"id": "b", "name": "B", "type": "feature", "content": {"title": "B"}}]}
      """,
    ]
    for json in flows {
      let bytes = Array(json.utf8)
      let reports = FlowChecker.check(json: json).filter { $0.id == "check.regex-backtracking" }
      #expect(reports.count == expected.count, "\(reports.map(\.message))")
      for (report, text) in zip(reports, expected) {
        guard let location = report.location else {
          Issue.record("no location: \(report.message)")
          continue
        }
        #expect(String(decoding: bytes[location.offset...], as: UTF8.self).hasPrefix(text))
        // Columns count Unicode scalars from the start of the line.
        let lineStart = bytes[..<location.offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let column = String(decoding: bytes[lineStart..<location.offset], as: UTF8.self).unicodeScalars.count + 1
        #expect(location.column == column)
        #expect(report.path?.hasSuffix(".pattern") == true || report.path?.hasSuffix(".value") == true)
      }
    }
  }

  @Test func messageNamesTheGroupAndWhy() throws {
    let rule = RegexBacktrackingRule()
    let report = try #require(FlowChecker.check(json: rule.triggeringExample).first { $0.id == rule.id })
    #expect(
      report.message
        == #"pattern '^(\w+\s?)+$' can take exponential time: the repeated group '(\w+\s?)+' can split a text between its repetitions in many ways ('\w+' inside it can also match the start of what follows it)"#
    )
    #expect(report.path == "screens[0].content.blocks[0].content.pattern")
  }
}
