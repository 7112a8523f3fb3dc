import Foundation
import Testing
import _FlowTestSupport

/// Every command that loads a flow exits 2 only when no document could be built, and 1 when
/// the flow parsed but has model errors (docs/loading.md).
@Suite struct LoadExitCodeTests {
  static let modelError = """
    {"version": 1, "id": "t", "screens": [
      {"id": "a", "name": "A", "type": "form", "content": {"blocks": [
        {"id": "s", "type": "slider", "content": {"fieldName": "x", "min": "zero", "max": 5}},
        {"id": "b", "type": "button", "content": {"text": "Go"}}]}}]}
    """
  static let unparsable = #"{"version": 1, "id": "t", "screens": [{"id": "a""#

  @Test(arguments: ["check", "run", "render", "graph", "paths", "test"])
  func modelErrorsExit1AndUnparsableFilesExit2(_ command: String) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-load-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for (name, text, expected) in [
      ("model-error", Self.modelError, Int32(1)), ("unparsable", Self.unparsable, Int32(2)),
    ] {
      let flow = directory.appendingPathComponent("\(name).json")
      try text.write(to: flow, atomically: true, encoding: .utf8)
      var arguments = [command, flow.path]
      if command == "test" {
        let script = directory.appendingPathComponent("\(name).flow-test.yaml")
        try "flow: \(name).json\nsteps:\n  - next:\n".write(to: script, atomically: true, encoding: .utf8)
        arguments = [command, script.path]
      }
      let result = try runFlowrun(arguments)
      #expect(result.status == expected, "\(command) \(name): \(result.stdout)\(result.stderr)")
      #expect((result.stdout + result.stderr).contains("error:"), "\(command) \(name)")
    }
  }
}
