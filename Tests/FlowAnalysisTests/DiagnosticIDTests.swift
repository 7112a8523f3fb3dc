import FlowAnalysis
import FlowFormat
import FlowReplay
import Foundation
import Testing
import _FlowTestSupport

/// The diagnostic-id catalogue (`DiagnosticID`): docs/loading.md's table is generated from it,
/// every id is written only there, and everything flowrun reports is in it.
@Suite struct DiagnosticIDDocTests {
  static let catalogued = DiagnosticIDDocumentation.ids + DiagnosticID.Check.all

  @Test func loadingDocTableIsUpToDate() throws {
    let url = packageRoot().appendingPathComponent("docs/loading.md")
    let committed = try String(contentsOf: url, encoding: .utf8)
    let generated = try #require(DiagnosticIDDocumentation.updating(committed), "docs/loading.md lost a marker line")
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"].map({ !$0.isEmpty }) ?? false {
      try generated.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    #expect(
      committed == generated,
      "docs/loading.md's id table is stale; regenerate it with: RECORD_SNAPSHOTS=1 swift test --filter DiagnosticIDDoc\n\(lineDiff(committed, generated))"
    )
  }

  @Test func idsAreUniqueAndNamedByTheirNamespace() {
    let namespaces: [(String, [DiagnosticID])] = [
      ("json.", DiagnosticID.JSON.all), ("load.", DiagnosticID.Load.all), ("ref.", DiagnosticID.Ref.all),
      ("appdna.", DiagnosticID.AppDNA.all),
      ("script.", DiagnosticID.Script.all), ("check.", DiagnosticID.Check.all),
      ("campaign.", DiagnosticID.Campaign.all),
      ("nuxie.", DiagnosticID.Nuxie.all),
      ("model.", DiagnosticID.Model.all),
    ]
    for (prefix, ids) in namespaces {
      for id in ids {
        #expect(id.id.hasPrefix(prefix), "\(id) is not in \(prefix)*")
        #expect(id.summary.first?.isUppercase == false && id.summary.last != ".", "\(id): \(id.summary)")
      }
    }
    #expect(Set(Self.catalogued.map(\.id)).count == Self.catalogued.count)
  }

  /// An id is a string literal only in its catalogue entry (a rule's id in its rule file), and
  /// every catalogue entry is listed in its namespace's `all` (so in the docs).
  @Test func idsAreWrittenOnlyInTheCatalogue() throws {
    let sources = packageRoot().appendingPathComponent("Sources")
    let literal = try NSRegularExpression(
      pattern: #""((?:json|load|ref|appdna|script|check|campaign|nuxie|model)\.[a-z0-9][a-z0-9.-]*)""#)
    let catalogues = [
      "FlowFormat/Diagnostics/DiagnosticID.swift", "FlowFormat/Diagnostics/DiagnosticID+Campaign.swift",
      "FlowFormat/Diagnostics/DiagnosticID+Nuxie.swift", "FlowFormat/Diagnostics/DiagnosticID+Model.swift",
      "FlowReplay/ScriptDiagnosticID.swift",
    ]
    let known = Set(Self.catalogued.map(\.id))
    var declared: Set<String> = []
    let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
    for file in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      let range = NSRange(text.startIndex..., in: text)
      for match in literal.matches(in: text, range: range) {
        let id = (text as NSString).substring(with: match.range(at: 1))
        // Nuxie's schema versions (`nuxie.journey-release.v2`) are document keys, not ids.
        if id.hasPrefix("nuxie."), id.range(of: #"\.v[0-9]+$"#, options: .regularExpression) != nil { continue }
        let isRuleID = id.hasPrefix("check.") && file.hasPrefix("FlowAnalysis/Check/Rules/")
        #expect(catalogues.contains(file) || isRuleID, "\(file) writes the id \(id); use its DiagnosticID")
        declared.insert(id)
      }
    }
    #expect(declared == known, "declared but not listed: \(declared.subtracting(known).sorted())")
  }

  /// Everything the loader, the lint rules and the script reader report on the bad inputs of
  /// the tests has a catalogued id.
  @Test func everyReportedIDIsCatalogued() throws {
    let root = packageRoot().appendingPathComponent("Tests")
    let known = Set(Self.catalogued.map(\.id))
    var reported: Set<String> = []
    for directory in ["FlowFormatTests/Fixtures", "FlowCLITests/BadInputs"] {
      let base = root.appendingPathComponent(directory).path
      for file in FileManager.default.enumerator(atPath: base)?.compactMap({ $0 as? String }) ?? [] {
        let path = base + "/" + file
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
          continue
        }
        reported.formUnion(FlowChecker.check(FlowLoader.load(path: path)).map(\.id))
      }
    }
    #expect(reported.count > 20, "the bad inputs report too few ids to say anything: \(reported.sorted())")
    #expect(reported.subtracting(known).isEmpty, "not catalogued: \(reported.subtracting(known).sorted())")
  }
}
