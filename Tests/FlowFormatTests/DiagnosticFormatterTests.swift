import FlowFormat
import Foundation
import Testing
import _FlowTestSupport

@Suite struct DiagnosticFormatterTests {
  /// Bad files whose diagnostics make up the golden output.
  static let files: [(String, String)] = [
    ("flows/colon.json", "{\n  \"id\": \"welcome\",\n  \"title\" \"Hi\"\n}\n"),
    ("flows/eof.json", "{\n  \"screens\": [\n    {\"id\": 1},\n"),
    ("flows/tabs.json", "{\n\t\t\"a\":\t[1,\t2,]\n}"),
    ("flows/dup.json", "{\"id\": 1, \"name\": \"é😀\", \"id\": 2}"),
    ("flows/control.json", "[\"a\u{1}b\"]"),
    ("flows/bom-crlf.json", "\u{FEFF}{\r\n  \"a\": tru\r\n}"),
    ("flows/long.json", "[" + (0..<60).map { "\"item\($0)\"" }.joined(separator: ", ") + ", oops]"),
    ("flows/empty.json", ""),
  ]

  static func diagnosticsAndSources() -> ([Diagnostic], [String: [UInt8]]) {
    var sources: [String: [UInt8]] = [:]
    var all: [Diagnostic] = []
    for (name, text) in files {
      let bytes = Array(text.utf8)
      sources[name] = bytes
      all += JSONParser.parse(bytes, file: name).1
    }
    all.append(
      Diagnostic(
        id: "load.type-mismatch", severity: .error, message: "expected a string, found a number",
        file: "flows/dup.json", location: .init(line: 1, column: 8, offset: 7), path: "id"))
    all.append(Diagnostic(id: "cli.no-input", severity: .note, message: "reading \"standard\" input"))
    return (all, sources)
  }

  @Test func goldenText() throws {
    let (diagnostics, sources) = Self.diagnosticsAndSources()
    let formatter = DiagnosticFormatter(sources: sources, maxLineWidth: 60)
    assertSnapshot(formatter.text(diagnostics.sortedForDisplay()), named: "diagnostics.txt")
  }

  @Test func goldenJSON() throws {
    let (diagnostics, _) = Self.diagnosticsAndSources()
    assertSnapshot(DiagnosticFormatter.json(diagnostics.sortedForDisplay()) + "\n", named: "diagnostics.json")
    // The JSON form is itself valid JSON.
    let (value, problems) = JSONParser.parse(DiagnosticFormatter.json(diagnostics))
    #expect(problems.isEmpty)
    #expect(value?.arrayValue?.count == diagnostics.count)
  }

  /// The streamed report is the whole one's bytes, whatever the chunk size (one diagnostic a
  /// chunk, a few, all at once) and with none at all; the pieces are `[`, the chunks in order
  /// and the end.
  @Test(arguments: [(0, 1), (1, 1), (0, 3), (0, 1 << 20), (-1, 1)])
  func streamedJSON(count: Int, chunk: Int) {
    let (all, _) = Self.diagnosticsAndSources()
    let diagnostics = count < 0 ? [] : count == 0 ? all.sortedForDisplay() : Array(all.prefix(count))
    var streamed: [UInt8] = []
    var pieces = 0
    DiagnosticFormatter.writeJSON(diagnostics, chunk: chunk) {
      streamed += $0
      pieces += 1
    }
    #expect(String(decoding: streamed, as: UTF8.self) == DiagnosticFormatter.json(diagnostics) + "\n")
    let chunks = (diagnostics.count + chunk - 1) / chunk
    #expect(pieces == (diagnostics.isEmpty ? 1 : chunks + 2))
  }

  /// Texts written as they are and texts with something to escape, in every field.
  @Test(arguments: [
    "plain", "", "quote \" and backslash \\", "tab\tnewline\n", "del \u{7F}", "c1 \u{85} nbsp \u{A0}",
    "line \u{2028} paragraph \u{2029} arrow → ellipsis …", "é😀", "\u{1}", "ends in \u{C2}\u{A9}",
  ])
  func streamedJSONEscapesAsTheWriter(_ text: String) {
    let diagnostic = Diagnostic(
      id: "check.x", severity: .warning, message: text, file: text, location: .init(line: 1, column: 2, offset: 3),
      path: text, notes: [.init(text), .init(text, at: .init(line: 4, column: 5, offset: 6))])
    var streamed: [UInt8] = []
    DiagnosticFormatter.writeJSON([diagnostic, diagnostic]) { streamed += $0 }
    #expect(String(decoding: streamed, as: UTF8.self) == DiagnosticFormatter.json([diagnostic, diagnostic]) + "\n")
  }

  @Test func withoutSourcesThereIsNoExcerpt() {
    let d = Diagnostic(
      id: "json.syntax.comment", severity: .error, message: "comments are not allowed in JSON",
      file: "a.json", location: .init(line: 2, column: 3, offset: 9),
      notes: [.init("no location")])
    #expect(
      DiagnosticFormatter().text(d)
        == "a.json:2:3: error: comments are not allowed in JSON [json.syntax.comment]\nnote: no location\n")
  }

  @Test func jsonLines() {
    let d = Diagnostic(id: "x.y", severity: .warning, message: "a \"b\"", file: nil)
    #expect(
      DiagnosticFormatter.jsonLines([d, d])
        == String(
          repeating:
            #"{"file":null,"line":null,"column":null,"severity":"warning","id":"x.y","message":"a \"b\"","path":null,"notes":[]}"#
            + "\n", count: 2))
  }

  @Test func sortingByFileOffsetAndSeverity() {
    func d(_ file: String?, _ offset: Int?, _ severity: Severity, _ id: String) -> Diagnostic {
      Diagnostic(
        id: id, severity: severity, message: id, file: file,
        location: offset.map { .init(line: 1, column: $0 + 1, offset: $0) })
    }
    let input = [
      d("b.json", 5, .warning, "1"), d("a.json", 9, .error, "2"), d("b.json", 5, .error, "3"),
      d(nil, nil, .note, "4"), d("a.json", nil, .warning, "5"), d("a.json", 2, .note, "6"),
      d("b.json", 1, .note, "7"),
    ]
    #expect(input.sortedForDisplay().map(\.id) == ["4", "5", "6", "2", "7", "3", "1"])
  }

  /// The sort on keys (`Diagnostic.displayPositions`) against a stable sort by `displayOrder`, on
  /// random diagnostics whose files, offsets, severities and ids repeat (and messages tell
  /// equal ones apart).
  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
  func sortingMatchesDisplayOrder(_ seed: UInt64) {
    var state = seed
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let files: [String?] = [nil, "b.json", "a.json", "é.json", "e\u{301}.json", "a.json"]
    let ids = ["check.b", "check.a", "load.x", "check.a"]
    let input = (0..<(50 * Int(seed))).map { index in
      Diagnostic(
        id: ids[next(ids.count)], severity: Severity.allCases[next(3)], message: "\(index)",
        file: files[next(files.count)],
        location: next(4) == 0 ? nil : .init(line: 1, column: 1, offset: next(6)))
    }
    let reference = input.enumerated().sorted {
      if Diagnostic.displayOrder($0.element, $1.element) { return true }
      if Diagnostic.displayOrder($1.element, $0.element) { return false }
      return $0.offset < $1.offset
    }.map(\.element)
    #expect(input.sortedForDisplay() == reference)
  }
}

/// Text reports show `Limits.shownDiagnostics` diagnostics, then say how many were left out.
@Suite struct DiagnosticCapTests {
  @Test(
    arguments: [
      (0, nil), (1_000, nil), (1_001, "note: 1 more diagnostic not shown\n"),
      (20_000, "note: 19,000 more diagnostics not shown\n"),
    ] as [(Int, String?)])
  func textReportIsCapped(_ count: Int, _ last: String?) {
    let diagnostics = (0..<count).map {
      Diagnostic(id: "load.missing-key", severity: .error, message: "m\($0)", file: "f.json")
    }
    let lines = DiagnosticFormatter().text(diagnostics).split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.filter { $0.hasPrefix("f.json: error: m") }.count == min(count, 1_000))
    if let last {
      #expect(lines.suffix(2).joined(separator: "\n") == last)
    } else {
      #expect(!lines.contains { $0.hasPrefix("note:") })
    }
  }
}
