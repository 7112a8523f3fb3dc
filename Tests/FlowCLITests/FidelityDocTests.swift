import Foundation
import Testing
import _FlowTestSupport

/// docs/fidelity.md stays true: every row has a known status, every implemented or partial
/// behaviour names tests that exist, every other row says why (an issue or a reason).
@Suite struct FidelityDocTests {
  struct Row: CustomStringConvertible {
    var document: String
    var behaviour: String
    var status: String
    var place: String
    var description: String { "\(document): \(behaviour.prefix(60))" }
  }

  static let statuses = ["implemented", "partial", "planned", "not applicable"]

  /// The rows of every `## NNN` section's table (header and separator lines left out).
  static func rows(of text: String) -> [Row] {
    var rows: [Row] = []
    var document: String?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("## ") {
        let word = line.dropFirst(3).prefix { $0 != " " }
        document = word.count == 3 && word.allSatisfy(\.isNumber) ? String(word) : nil
        continue
      }
      guard let document, line.hasPrefix("|"), !line.hasPrefix("|---"), !line.hasPrefix("| behaviour |") else {
        continue
      }
      // `\|` inside a cell is a literal bar.
      let cells = line.replacingOccurrences(of: "\\|", with: "\u{1}").split(separator: "|").map {
        $0.replacingOccurrences(of: "\u{1}", with: "|").trimmingCharacters(in: .whitespaces)
      }
      guard cells.count == 3 else {
        rows.append(Row(document: document, behaviour: String(line), status: "(\(cells.count) cells)", place: ""))
        continue
      }
      rows.append(Row(document: document, behaviour: cells[0], status: cells[1], place: cells[2]))
    }
    return rows
  }

  /// `Suite/test` references in backticks.
  static func references(in place: String) -> [(suite: String, test: String)] {
    place.split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { index, part in
      guard index % 2 == 1 else { return nil }
      let pieces = part.split(separator: "/")
      guard pieces.count == 2 else { return nil }
      return (String(pieces[0]), String(pieces[1]))
    }
  }

  /// Every Swift test source, by path.
  static func testSources() throws -> [String] {
    let root = packageRoot().appendingPathComponent("Tests")
    let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
    return try enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map {
      try String(contentsOfFile: root.appendingPathComponent($0).path, encoding: .utf8)
    }
  }

  static let document =
    (try? String(
      contentsOfFile: packageRoot().appendingPathComponent("docs/fidelity.md").path, encoding: .utf8)) ?? ""

  @Test func everyDocumentHasRows() {
    let documents = Set(Self.rows(of: Self.document).map(\.document))
    #expect(documents == ["000", "001", "002", "003", "004"])
  }

  @Test func everyRowHasAKnownStatusAndSaysWhere() {
    for row in Self.rows(of: Self.document) {
      #expect(Self.statuses.contains(row.status), "\(row): status '\(row.status)'")
      #expect(!row.place.isEmpty, "\(row): says nowhere")
      if row.status == "planned" {
        #expect(row.place.contains("#"), "\(row): planned rows name their issue (#N)")
      }
    }
  }

  @Test func everyImplementedBehaviourNamesExistingTests() throws {
    let sources = try Self.testSources()
    for row in Self.rows(of: Self.document) where row.status == "implemented" || row.status == "partial" {
      let references = Self.references(in: row.place)
      #expect(!references.isEmpty, "\(row): names no test (`Suite/test`)")
      for (suite, test) in references {
        let found = sources.contains {
          $0.contains("struct \(suite)") && $0.contains("func \(test)(")
        }
        #expect(found, "\(row): no test \(suite)/\(test)")
      }
    }
  }

  /// The parser itself: a row naming a test that does not exist is caught.
  @Test func aMissingTestIsCaught() throws {
    let text = """
      ## 000 Sequence

      | behaviour | status | where |
      |---|---|---|
      | a \\| b | implemented | `FidelityDocTests/noSuchTest` |
      """
    let rows = Self.rows(of: text)
    #expect(rows.count == 1)
    #expect(rows.first?.behaviour == "a | b")
    let references = Self.references(in: rows[0].place)
    #expect(references.map(\.test) == ["noSuchTest"])
    let sources = try Self.testSources()
    #expect(!sources.contains { $0.contains("func noSuchTest" + "(") })
  }
}
