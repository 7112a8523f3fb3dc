import FlowAnalysis
import FlowFormat
import FlowGenerator
import Testing

/// The large-input shapes of the benchmarks: the size asked for, the same bytes every time, and
/// what each is made to hold (clean flows, a misspelt reference per screen, a warning per read).
@Suite struct LargeShapeTests {
  @Test(arguments: LargeShape.allCases, [20_000, 300_000])
  func shapeHasItsSizeAndContent(_ shape: LargeShape, _ bytes: Int) throws {
    let json = shape.generate(targetBytes: bytes)
    #expect(json == shape.generate(targetBytes: bytes))
    #expect(json.count > bytes * 8 / 10 && json.count < bytes * 12 / 10, "\(json.count) bytes for \(bytes)")
    let result = FlowLoader.load(bytes: json, file: "\(shape.rawValue).json")
    let document = try #require(result.document)
    let screens = document.flows.reduce(0) { $0 + $1.screens.count }
    let ids = Dictionary(grouping: result.diagnostics, by: \.id).mapValues(\.count)
    switch shape {
    case .checklists, .manyFlows, .manyScreens:
      #expect(result.diagnostics.isEmpty)
      #expect(FlowChecker.check(result).isEmpty)
    case .misspelt:
      // Each screen: a reference to a misspelt screen id and a misspelt key, both with a guess.
      #expect(ids == ["ref.unknown-screen": screens, "load.unknown-key": screens])
      #expect(result.diagnostics.allSatisfy { $0.notes.contains { $0.message.hasPrefix("did you mean") } })
      #expect(result.isRunnable)
    case .lintChain:
      #expect(result.diagnostics.isEmpty)
      let warnings = FlowChecker.check(result).filter { $0.id == "check.uncollected-variable" }
      #expect(warnings.count == screens - 1)
    }
  }
}
