import FlowFormat
import FlowSimulation
import Foundation
import Testing
import _FlowTestSupport

/// The behaviour model: docs/simulate.md's example reads, the JSON Schema names the keys the
/// reader takes, and bad models get located diagnostics.
@Suite struct BehaviourModelTests {
  static let goals = packageRoot().appendingPathComponent("sample-flows/goals.json").path

  static func read(_ yaml: String) throws -> (BehaviourModel?, [Diagnostic]) {
    let document = try #require(FlowLoader.load(path: goals).document)
    return BehaviourModelReader.read(Array(yaml.utf8), file: "model.yaml", document: document)
  }

  @Test func theDocumentedExampleReads() throws {
    let doc = try String(contentsOf: packageRoot().appendingPathComponent("docs/simulate.md"), encoding: .utf8)
    let start = try #require(doc.range(of: "```yaml\nversion: 1\n"))
    let end = try #require(doc[start.upperBound...].range(of: "```\n"))
    let yaml = "version: 1\n" + doc[start.upperBound..<end.lowerBound]
    let (model, diagnostics) = try Self.read(yaml)
    #expect(!diagnostics.hasErrors, "\(diagnostics)")
    let read = try #require(model)
    #expect(read.dropOff == 0.02)
    #expect(read.screens["about_you"]?.controls == ["Continue": 9, "skip": 1])
    #expect(read.traits.map(\.name) == ["country", "age"])
    // The example names an action and a field goals.json does not have: warnings, not errors.
    #expect(diagnostics.map(\.id) == ["model.unknown-name", "model.unknown-name"])
  }

  @Test func theSchemaNamesTheReadersKeys() throws {
    let url = packageRoot().appendingPathComponent("docs/simulate-model.schema.json")
    let schema = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    func keys(_ object: Any?, _ path: [String]) -> [String] {
      var node = object
      for step in path { node = (node as? [String: Any])?[step] }
      return ((node as? [String: Any])?.keys).map { $0.sorted() } ?? []
    }
    #expect(keys(schema, ["properties"]) == BehaviourModelReader.topKeys.sorted())
    #expect(keys(schema, ["properties", "defaults", "properties"]) == BehaviourModelReader.defaultsKeys.sorted())
    #expect(
      keys(schema, ["properties", "screens", "additionalProperties", "properties"])
        == BehaviourModelReader.screenKeys.sorted())
    #expect(
      keys(schema, ["properties", "fields", "additionalProperties", "properties"])
        == BehaviourModelReader.fieldKeys.sorted())
    #expect(
      keys(schema, ["properties", "traits", "additionalProperties", "properties"])
        == BehaviourModelReader.traitKeys.sorted())
  }

  @Test(arguments: [
    ("defaults: {drop_off: -0.1}", "model.invalid-value", "1:22"),
    ("screens:\n  intro: {dwel: {fixed: 1}}", "model.unknown-key", "2:11"),
    ("fields:\n  goal: {weights: [lose]}", "model.type-mismatch", "2:19"),
    ("fields:\n  goal: {uniform: [9, 1]}", "model.invalid-value", "2:19"),
    ("assignment: {forced: {plan_copy: {control: 1, couch: 1}}}", "model.unknown-variant", "1:34"),
    ("assignment: {forced: {plan: {control: 1}}}", "model.unknown-variant", "1:23"),
    ("actions: {x: {success: 0, failure: 0}}", "model.invalid-value", "1:14"),
    ("a: [", "model.syntax", "2:1"),
    ("- 1", "model.type-mismatch", "1:1"),
  ])
  func badModels(yaml: String, id: String, location: String) throws {
    let (model, diagnostics) = try Self.read(yaml)
    #expect(model == nil)
    let first = try #require(diagnostics.first { $0.severity == .error })
    #expect(first.id == id)
    #expect(first.location?.description == location)
  }
}
