import FlowEngine
import FlowExpression
import FlowFormat
import FlowRender
import FlowSupport
import Testing

/// Loads a document from JSON text; fails the test when it does not load runnable.
func document(_ json: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> FlowDocument {
  let result = FlowLoader.load(bytes: Array(json.utf8), file: "test.json")
  let errors = result.diagnostics.filter { $0.severity == .error }
  #expect(errors.isEmpty, "load errors: \(errors.map(\.message))", sourceLocation: sourceLocation)
  return try #require(result.document, sourceLocation: sourceLocation)
}

/// A one-flow document whose screens are given as JSON objects (text), plus flow-level keys.
func flowJSON(_ screens: [String], extra: String = "") -> String {
  """
  {"version": 1, "id": "t", "name": "T", \(extra.isEmpty ? "" : extra + ",")
   "screens": [\(screens.joined(separator: ","))]}
  """
}

/// A block screen with the given blocks (JSON objects) and optional screen keys.
func blockScreen(_ id: String, _ blocks: [String], extra: String = "", order: Int = 0) -> String {
  """
  {"id": "\(id)", "name": "\(id)", "type": "feature", "order": \(order), \(extra.isEmpty ? "" : extra + ",")
   "content": {"useBlocks": true, "blocks": [\(blocks.joined(separator: ","))]}}
  """
}

/// A session started on the first screen of a JSON flow.
func session(
  _ json: String, interactive: Bool = true, sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> Session {
  let doc = try document(json, sourceLocation: sourceLocation)
  let (session, _) = try Session.start(document: doc, config: SessionConfig(waitsForResults: interactive))
  return session
}

/// A session on a single block screen made of `blocks`.
func session(blocks: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Session {
  try session(flowJSON([blockScreen("s", blocks)]), sourceLocation: sourceLocation)
}

/// The rendered body without the header line(s) and the blank after them.
func body(_ session: Session, width: Int = 80, color: Bool = false) -> String {
  ScreenRenderer.render(session, options: RenderOptions(width: width, color: color, showHeader: false))
}

/// Every line of `text` is at most `width` display columns (ANSI removed).
func expectFits(_ text: String, width: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
  for line in stripANSI(text).split(separator: "\n", omittingEmptySubsequences: false) {
    #expect(
      DisplayWidth.of(line) <= width, "line wider than \(width): '\(line)'", sourceLocation: sourceLocation)
  }
}

func block(_ id: String, _ type: String, _ content: String, extra: String = "") -> String {
  "{\"id\": \"\(id)\", \"type\": \"\(type)\", \(extra.isEmpty ? "" : extra + ",") \"content\": \(content)}"
}
