import FlowFormat
import Foundation
import Testing
import _FlowTestSupport

/// Every fixture under `Fixtures/` and every sample flow, loaded and compared with its golden
/// diagnostics under `Snapshots/`.
@Suite struct LoaderFixtureTests {
  static let fixtures = packageRoot().appendingPathComponent("Tests/FlowFormatTests/Fixtures")

  static func files(_ folder: String) -> [String] {
    let url = fixtures.appendingPathComponent(folder)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted()
  }

  /// Loads a fixture with a stable relative file name so golden text does not depend on the
  /// checkout's location.
  static func load(_ folder: String, _ name: String) throws -> (LoadResult, String) {
    let relative = "Fixtures/\(folder)/\(name)"
    let bytes = try [UInt8](Data(contentsOf: fixtures.appendingPathComponent("\(folder)/\(name)")))
    let result = FlowLoader.load(bytes: bytes, file: relative)
    let text = DiagnosticFormatter(sources: [relative: bytes]).text(result.diagnostics)
    return (result, text)
  }

  @Test(arguments: files("invalid"))
  func invalidFixtureReportsItsProblem(_ name: String) throws {
    let (result, text) = try Self.load("invalid", name)
    #expect(!result.diagnostics.isEmpty, "\(name) loaded without a diagnostic")
    let warningsOnly = ["duplicate-key.json", "unknown-key-typo.json"]
    if !warningsOnly.contains(name) {
      #expect(result.diagnostics.hasErrors, "\(name) should produce an error")
    }
    assertSnapshot(text, named: "invalid/\(name).txt")
  }

  @Test(arguments: files("valid"))
  func validFixtureLoadsWithoutErrors(_ name: String) throws {
    let (result, text) = try Self.load("valid", name)
    #expect(result.document != nil)
    #expect(!result.diagnostics.hasErrors, "\(text)")
    assertSnapshot(text, named: "valid/\(name).txt")
  }

  static let sampleFlows: [String] = {
    let url = packageRoot().appendingPathComponent("sample-flows")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted()
  }()

  @Test(arguments: sampleFlows)
  func sampleFlowIsClean(_ name: String) {
    let result = FlowLoader.load(path: packageRoot().appendingPathComponent("sample-flows/\(name)").path)
    #expect(result.document != nil)
    #expect(result.diagnostics.isEmpty, "\(DiagnosticFormatter().text(result.diagnostics))")
  }

  @Test func thereAreEnoughSampleFlows() {
    #expect(Self.sampleFlows.count >= 5)
  }
}
