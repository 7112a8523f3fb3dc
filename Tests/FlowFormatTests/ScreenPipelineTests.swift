import Foundation
import Testing
import _FlowTestSupport

@testable import FlowFormat

/// Loading on two threads (`ScreenSplit` for a flow's screens, `ScreenPipeline` for a bundle's)
/// gives what loading on one gives: the same model,
/// diagnostics (ids, positions, order, text, notes, paths), patterns and kept syntax, on every
/// document kind, on broken files, and run after run (a race shows on the tenth run, not the first).
@Suite struct ScreenPipelineTests {
  static let root = packageRoot()

  /// Every JSON file of the sample flows and of the loader's fixtures.
  static let files: [String] = {
    var paths: [String] = []
    for folder in ["sample-flows", "Tests/FlowFormatTests/Fixtures"] {
      let base = root.appendingPathComponent(folder).path
      let names = FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? []
      paths += names.filter { $0.hasSuffix(".json") }.sorted().map { "\(folder)/\($0)" }
    }
    return paths
  }()

  /// A Sequence flow of `count` screens with rules, templates and a pattern, written in one line.
  static func flow(screens count: Int, extra: String = "") -> String {
    let screens = (0..<count).map { i in
      #"{"id": "s\#(i)", "name": "S\#(i)", "type": "form", "content": {"title": "Hi {{name}} \#(i)", "#
        + #""blocks": [{"id": "b\#(i)", "type": "input", "content": {"fieldName": "f\#(i)", "pattern": "[a-z]+"}}]}, "#
        + #""rules": [{"condition": "f\#(i) == 'x'", "next": "s\#((i + 1) % count)"}], "next": "s\#(i + 1)"}"#
    }
    return #"{"id": "big", "version": 1, "screens": [\#(screens.joined(separator: ", "))]\#(extra)}"#
  }

  static let texts: [(String, String)] = {
    let flow = Self.flow(screens: 30)
    let body = String(flow.dropLast())
    return [
      ("flow", flow),
      ("duplicate screens keys", body + #", "screens": [{"id": "late", "content": {}}]}"#),
      ("screens of wrong types", flow.replacingOccurrences(of: #""screens": ["#, with: #""screens": [7, null, [], "#)),
      ("truncated", String(flow.prefix(flow.utf8.count * 2 / 3))),
      ("syntax error mid-file", flow.replacingOccurrences(of: #"{"id": "s17""#, with: #"{"id": "s17",,"#)),
      ("a Nuxie key after the screens", body + #", "interactions": {}}"#),
      ("an AppDNA screen_id in the screens", flow.replacingOccurrences(of: #""id": "s4""#, with: #""screen_id": "x""#)),
      ("campaigns after the screens", body + #", "campaigns": []}"#),
      ("flows and screens", body + #", "flows": {"a": \#(flow)}}"#),
      ("a bundle of flows by id", #"{"flows": {"a": \#(flow), "b": \#(flow), "a": \#(flow)}, "activeFlow": "b"}"#),
      ("a bundle of flows in an array", #"{"flows": [\#(flow), 3, \#(body + #", "id": "two"}"#)]}"#),
      ("a root array", "[\(flow)]"),
      (
        "too deep",
        body.replacingOccurrences(of: #""screens": ["#, with: #""screens": ["# + String(repeating: "[", count: 100_000))
      ),
      ("pretty-printed", pretty(flow)),
      ("CRLF line ends", pretty(flow).replacingOccurrences(of: "\n", with: "\r\n")),
      ("lone CR line ends", pretty(flow).replacingOccurrences(of: "\n", with: "\r")),
      ("non-ASCII text on one line", flow.replacingOccurrences(of: "Hi {{name}}", with: "Grüß dich 👋 {{name}} é")),
      ("a syntax error late", flow.replacingOccurrences(of: #"{"id": "s27""#, with: #"{"id": "s27",,"#)),
      ("a duplicate key late", flow.replacingOccurrences(of: #"{"id": "s26""#, with: #"{"id": "x", "id": "s26""#)),
      (
        "a number out of range late",
        flow.replacingOccurrences(of: #"{"id": "s25""#, with: #"{"order": 1e999, "id": "s25""#)
      ),
      (
        "duplicate keys and numbers out of range in both halves",
        flow.replacingOccurrences(of: #"{"id": "s3""#, with: #"{"id": "x", "order": 1e999, "id": "s3""#)
          .replacingOccurrences(of: #"{"id": "s24""#, with: #"{"name": 1, "id": "s24", "order": -1e400"#)
          .replacingOccurrences(of: #"{"id": "s28""#, with: #"{"id": "x", "id": "s28""#)
      ),
      ("an AppDNA screen_id late", flow.replacingOccurrences(of: #""id": "s28""#, with: #""screen_id": "x""#)),
      ("truncated late", String(flow.prefix(flow.utf8.count * 9 / 10))),
      ("truncated after the screens", String(flow.dropLast())),
      ("duplicate screen ids across the halves", flow.replacingOccurrences(of: #""id": "s29""#, with: #""id": "s1""#)),
      ("a late screen of a wrong type", flow.replacingOccurrences(of: #"]}"#, with: #", 7]}"#)),
      ("an unterminated string late", flow.replacingOccurrences(of: #""S26""#, with: #""S26"#)),
      ("a comment late", flow.replacingOccurrences(of: #"{"id": "s26""#, with: #"/* c */ {"id": "s26""#)),
      ("a bracket in a late string", flow.replacingOccurrences(of: #""S26""#, with: #""S26 ], \" [""#)),
      ("two screens", Self.flow(screens: 2)),
      ("one screen", Self.flow(screens: 1)),
      (
        "too deep late",
        body.replacingOccurrences(of: #"{"id": "s27""#, with: String(repeating: "[", count: 100_000)) + "]}"
      ),
      (
        "nested to the limit",
        body.replacingOccurrences(
          of: #""screens": ["#,
          with: #""screens": ["#
            + String(repeating: #"{"a": "#, count: 500) + "1" + String(repeating: "}", count: 500) + ", ") + "}"
      ),
    ]
  }()

  /// `text` with a line break after every `,` and `{` outside strings of the generated flows
  /// (their strings hold no `, "` nor `{"`).
  static func pretty(_ text: String) -> String {
    text.replacingOccurrences(of: ", \"", with: ",\n    \"").replacingOccurrences(of: "{\"", with: "{\n  \"")
  }

  static func load(_ bytes: [UInt8], _ file: String, twoThreads: Bool, keepSyntax: Bool = true) -> LoadResult {
    FlowLoader.load(
      bytes: bytes, file: file, options: LoadOptions(), keepSyntax: keepSyntax, pipelineFrom: twoThreads ? 0 : .max,
      splitWaits: true)
  }

  static func expectSame(_ bytes: [UInt8], _ file: String) {
    let one = load(bytes, file, twoThreads: false)
    for _ in 0..<12 {
      let two = load(bytes, file, twoThreads: true)
      #expect(two.document == one.document, "\(file): the model differs")
      #expect(two.diagnostics == one.diagnostics, "\(file): the diagnostics differ")
      #expect(two.patterns == one.patterns, "\(file): the patterns differ")
      #expect((two.syntax == nil) == (one.syntax == nil), "\(file): the kept syntax differs")
    }
  }

  @Test(arguments: texts.map(\.0))
  func documentLoadsTheSameOnTwoThreads(_ name: String) throws {
    let text = try #require(Self.texts.first { $0.0 == name }?.1)
    Self.expectSame(Array(text.utf8), "\(name).json")
  }

  @Test(arguments: files)
  func fileLoadsTheSameOnTwoThreads(_ path: String) throws {
    let bytes = try [UInt8](Data(contentsOf: Self.root.appendingPathComponent(path)))
    Self.expectSame(bytes, path)
  }

  /// Whether the scan finds where the second half of the document's `screens` array (the last
  /// in these texts) starts: the second thread of a split that waits for its choice then takes
  /// that half (when the half does not parse on its own, the split is abandoned).
  static func scanSplits(_ text: String) throws -> Bool {
    let bytes = Array(text.utf8)
    let key = try #require(text.range(of: #""screens""#, options: .backwards))
    var first =
      try #require(bytes[text.utf8.distance(from: text.startIndex, to: key.upperBound)...].firstIndex(of: 0x5B)) + 1
    while [0x20, 0x0A, 0x0D, 0x09].contains(bytes[first]) { first += 1 }
    let target = first + (bytes.count - first) / 100 * ScreenSplit.firstHalfShare
    return bytes.withUnsafeBufferPointer {
      ArraySplitScan.split(
        $0, first: ParsePosition(offset: first, line: 1, lineStart: 0, lineContinuations: 0), target: target) != nil
    }
  }

  /// The valid flows above, and those whose parser only warns or reports a number out of range,
  /// are loaded by halves, not parsed again on one thread (which would also give equal results).
  @Test(arguments: [
    "flow", "pretty-printed", "CRLF line ends", "lone CR line ends", "non-ASCII text on one line",
    "a bracket in a late string", "duplicate screen ids across the halves", "a late screen of a wrong type",
    "two screens", "a duplicate key late", "a number out of range late",
    "duplicate keys and numbers out of range in both halves",
  ])
  func validFlowIsSplit(_ name: String) throws {
    let text = try #require(Self.texts.first { $0.0 == name }?.1)
    let split = ScreenSplit(file: "f.json", options: LoadOptions(), waitsForTheBoundary: true)
    let pipeline = ScreenPipeline(file: "f.json", options: LoadOptions())
    let (root, _) = JSONParser.parse(Array(text.utf8), file: "f.json", screens: pipeline.offer, split: split)
    #expect(root != nil && split.tookScreens && !split.abandoned)
    #expect(try Self.scanSplits(text))
  }

  /// The screens really are decoded apart (the equality above would also hold if they were not):
  /// a flow's by halves, a bundle's flows' by the pipeline.
  @Test func screensAreTakenAndDecodedInOrder() throws {
    let split = ScreenSplit(file: "f.json", options: LoadOptions(), waitsForTheBoundary: true)
    let pipeline = ScreenPipeline(file: "f.json", options: LoadOptions())
    let text = #"{"flows": {"a": \#(Self.flow(screens: 50))}, "screens": [\#(Self.flow(screens: 2000).dropFirst(40))"#
    let (root, diagnostics) = JSONParser.parse(Array(text.utf8), file: "f.json", screens: pipeline.offer, split: split)
    #expect(diagnostics.isEmpty)
    #expect(split.tookScreens && !split.abandoned && pipeline.tookScreens)
    #expect(try Self.scanSplits(text))
    let screens = root?.objectValue?.lookup("screens")?.arrayValue ?? []
    #expect(screens.count == 2000 && screens.allSatisfy { $0.typeDescription == "null" })
    // A half's reports are kept together in its run (one screen reference and one pattern a
    // screen here, in order); a bundle screen's with the screen.
    let halves = try #require(split.finish()?.1)
    #expect(halves.count == 2)
    #expect(halves.allSatisfy { $0.screens.isEmpty })
    let ids = halves.map { $0.built.screens.removeAll().map(\.id) }
    #expect(Array(ids.joined()) == (0..<2000).map { "s\($0)" })
    for (half, ids) in zip(halves, ids) {
      let next = ids.dropLast().map { "s\(Int($0.dropFirst())! + 1)" }
      #expect(Array(half.reports.screenReferences.map(\.target).prefix(next.count)) == next)
      #expect(half.reports.screenReferences.count == half.count)
      #expect(half.reports.patternSites.count == half.count)
      #expect(half.built.idLocations.count == half.count && half.built.fields.ends.count == half.count)
    }
    let decoded = pipeline.finish(keeping: true)
    #expect(decoded.count == 1)
    let runs = try #require(decoded.values.first)
    #expect(runs.count == 1 && runs[0].reports.screenReferences.isEmpty)
    #expect(runs.flatMap(\.screens).map { $0.screen?.id } == (0..<50).map { "s\($0)" })
    #expect(runs[0].screens.allSatisfy { $0.reports.screenReferences.count == 1 && $0.reports.patternSites.count == 1 })
  }
}
