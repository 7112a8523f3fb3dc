import FlowExpression
import FlowFormat
import Testing

/// Decoding details: defaults, Sequence tolerances, ordering and the shape of the model.
@Suite struct ModelDecodingTests {
  static func load(_ json: String, file: String = "test.json") -> LoadResult {
    FlowLoader.load(bytes: Array(json.utf8), file: file)
  }

  static func flow(_ json: String) throws -> Flow {
    let result = load(json)
    return try #require(result.document?.entryFlow, "\(result.diagnostics)")
  }

  @Test func screensAreSortedByOrderStably() throws {
    let flow = try Self.flow(
      """
      {"version": 1, "screens": [
        {"id": "c", "name": "C", "type": "feature", "order": 2, "content": {}},
        {"id": "a", "name": "A", "type": "feature", "order": 1, "content": {}},
        {"id": "b", "name": "B", "type": "feature", "order": 1, "content": {}}
      ]}
      """)
    #expect(flow.screens.map(\.id) == ["a", "b", "c"])
    #expect(flow.startScreenID == "a")
    #expect(flow.id == "test")
  }

  @Test func legacyContentHasSequenceDefaults() throws {
    let flow = try Self.flow(
      """
      {"version": 1, "screens": [{"id": "w", "name": "W", "type": "welcome", "order": 0,
        "content": {"title": "Hi", "body": "Body text", "skipText": "Later"}}]}
      """)
    let content = flow.screens[0].content
    #expect(!content.usesBlocks)
    #expect(content.title?.raw == "Hi")
    #expect(content.subtitle?.raw == "Body text")
    #expect(content.buttonText.raw == "Continue")
    #expect(content.buttonAction == .next)
    #expect(content.skipText?.raw == "Later")
  }

  struct BlocksCase: Sendable, CustomTestStringConvertible {
    var useBlocks: String
    var blocks: String
    var expected: Bool
    var testDescription: String { "useBlocks \(useBlocks), blocks \(blocks)" }
  }

  @Test(arguments: [
    BlocksCase(useBlocks: "true", blocks: "[]", expected: true),
    BlocksCase(
      useBlocks: "false", blocks: #"[{"id": "t", "type": "text", "order": 0, "content": {}}]"#, expected: false),
    BlocksCase(useBlocks: "null", blocks: #"[{"id": "t", "type": "text", "order": 0, "content": {}}]"#, expected: true),
    BlocksCase(useBlocks: "null", blocks: "[]", expected: false),
  ])
  func blocksAreUsedPerTheUseBlocksRule(_ c: BlocksCase) throws {
    let flow = try Self.flow(
      """
      {"version": 1, "screens": [{"id": "s", "name": "S", "type": "feature", "order": 0,
        "content": {"useBlocks": \(c.useBlocks), "blocks": \(c.blocks)}}]}
      """)
    #expect(flow.screens[0].content.usesBlocks == c.expected)
  }

  @Test func blocksFollowReadingOrder() throws {
    let flow = try Self.flow(
      """
      {"version": 1, "screens": [{"id": "s", "name": "S", "type": "feature", "order": 0, "content": {"blocks": [
        {"id": "low", "type": "text", "order": 0, "position": {"x": 0, "y": 300}, "content": {"text": "b"}},
        {"id": "high", "type": "text", "order": 1, "position": {"x": 0, "y": 100}, "content": {"text": "a"}},
        {"id": "box", "type": "scroll-container", "order": 2, "position": {"x": 0, "y": 400}, "content": {"children": [
          {"id": "inner", "type": "input", "order": 0, "content": {"fieldLabel": " email "}}]}}
      ]}}]}
      """)
    let content = flow.screens[0].content
    #expect(content.blocks.map(\.id) == ["high", "low", "box"])
    #expect(content.flatBlocks.map(\.id) == ["high", "low", "inner"])
    #expect(content.flatBlocks[2].fieldName == "email")
  }

  @Test func buttonWithoutActionMeansNextAndUnknownActionRunsAsNext() throws {
    let result = Self.load(
      """
      {"version": 1, "screens": [{"id": "s", "name": "S", "type": "feature", "order": 0, "content": {"blocks": [
        {"id": "b1", "type": "button", "order": 0, "content": {"text": "Go"}},
        {"id": "b2", "type": "button", "order": 1, "content": {"text": "Odd", "action": {"type": "teleport"}}}
      ]}}]}
      """)
    let blocks = try #require(result.document?.entryFlow?.screens[0].content.blocks)
    guard case .button(let first) = blocks[0].content, case .button(let second) = blocks[1].content else {
      Issue.record("expected buttons")
      return
    }
    #expect(first.action == .next)
    #expect(second.action == .unknown(type: "teleport"))
    #expect(result.diagnostics.map(\.id) == ["load.unknown-action-type"])
  }

  struct ExperimentCase: Sendable, CustomTestStringConvertible {
    var json: String
    var variant: String
    var testDescription: String { json }
  }

  @Test(arguments: [
    ExperimentCase(json: #"{"id": "e", "variantId": "b", "variantName": "Bee"}"#, variant: "b"),
    ExperimentCase(json: #"{"id": "e", "variant": "old"}"#, variant: "old"),
  ])
  func bothSequenceExperimentShapesLoad(_ c: ExperimentCase) throws {
    let flow = try Self.flow(
      """
      {"version": 1, "experiment": \(c.json), "screens": [{"id": "s", "name": "S", "type": "feature", "order": 0, "content": {}}]}
      """)
    #expect(flow.assignedExperiment?.variantID == c.variant)
  }

  @Test func bundleUsesActiveFlowAndKeysAsIds() throws {
    let result = Self.load(
      """
      {"activeFlow": "b", "flows": {
        "a": {"version": 1, "screens": [{"id": "s", "name": "S", "type": "feature", "order": 0, "content": {}}]},
        "b": {"version": 1, "screens": [{"id": "t", "name": "T", "type": "flow", "flow": "a", "order": 0, "content": {}}]}
      }}
      """)
    let document = try #require(result.document)
    #expect(document.shape == .bundle)
    #expect(document.entryFlowID == "b")
    #expect(document.flows.map(\.id) == ["a", "b"])
    #expect(document.entryFlow?.screens[0].subflow == "a")
    #expect(result.diagnostics.isEmpty)
  }

  @Test func everyProblemIsReportedInOnePass() {
    let result = Self.load(
      """
      {"version": 1, "screens": [
        {"id": "a", "name": "A", "type": "feature", "order": 0, "content": {"blocks": [
          {"id": "s", "type": "slider", "order": 0, "content": {"fieldName": "s", "min": "zero", "max": true}}]}},
        {"name": "B", "type": "feature", "order": 1, "content": {}},
        {"id": "c", "name": "C", "type": "feature", "order": 2, "content": {"buttonAction": {"type": "screen"}}}
      ]}
      """)
    #expect(
      result.diagnostics.map(\.message) == [
        "screens[0].content.blocks[0].content.min: expected a number, found a string",
        "screens[0].content.blocks[0].content.max: expected a number, found a boolean",
        "screen 2 is missing required key 'id'",
        "a 'screen' action is missing required key 'screenId'",
      ])
    #expect(result.diagnostics.allSatisfy { $0.location != nil })
    #expect(!result.isRunnable)
  }

  @Test func unknownTargetsAreErrorsThatStillRun() throws {
    let result = Self.load(
      """
      {"version": 1, "screens": [{"id": "a", "name": "A", "type": "feature", "order": 0,
        "content": {"buttonAction": {"type": "screen", "screenId": "nowhere"}}}]}
      """)
    #expect(result.diagnostics.map(\.id) == ["ref.unknown-screen"])
    #expect(result.diagnostics.hasErrors)
    #expect(result.isRunnable)
  }
}
