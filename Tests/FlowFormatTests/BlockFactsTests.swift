import FlowExpression
import Testing

@testable import FlowFormat

/// The per-kind block facts (`BlockContent`, `FieldContent`): one row per block type the loader
/// knows, and the rules every kind's facts keep.
@Suite struct BlockFactsTests {
  struct Kind: Sendable, CustomTestStringConvertible {
    var type: String
    var content: String
    /// What the block collects (nil: nothing).
    var stores: FieldValueType? = nil
    var control = false
    /// The texts it shows, as written (rich-text spans joined).
    var texts: [String] = []
    var container = false
    var secret = false
    /// Whether an answer runs an action at once.
    var runsAction = false
    var testDescription: String { "\(type) {\(content)}" }
  }

  static let kinds: [Kind] = [
    Kind(type: "text", content: #""text": "Hello {name}", "variant": "h1""#, texts: ["Hello {name}"]),
    Kind(
      type: "text", content: #""text": "plain", "richText": [{"text": "Bold", "bold": true}, {"text": " move"}]"#,
      texts: ["Bold move"]),
    Kind(type: "image", content: #""src": "a.png", "alt": "A""#),
    Kind(type: "video", content: #""src": "a.mp4""#),
    Kind(type: "lottie", content: #""src": "a.json""#),
    Kind(type: "icon", content: #""icon": "🔥""#, texts: ["🔥"]),
    Kind(type: "button", content: #""text": "Go", "action": {"type": "next"}"#, control: true, texts: ["Go"]),
    Kind(type: "button", content: "", control: true, texts: ["Continue"]),
    Kind(
      type: "input", content: #""fieldName": "name", "label": "Name", "placeholder": "e.g. Alex""#, stores: .text,
      texts: ["Name", "e.g. Alex"]),
    Kind(
      type: "input", content: #""fieldName": "age", "label": "Age", "inputType": "number""#, stores: .number,
      texts: ["Age"]),
    Kind(
      type: "input", content: #""fieldName": "pw", "label": "Password", "inputType": "password""#, stores: .text,
      texts: ["Password"], secret: true),
    Kind(
      type: "checklist",
      content: #""fieldName": "g", "label": "Goals", "items": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]"#,
      stores: .option, texts: ["Goals", "A", "B"], runsAction: true),
    Kind(
      type: "checklist",
      content: #""fieldName": "g", "label": "Goals", "items": [{"id": "a", "label": "A"}], "autoAdvance": false"#,
      stores: .option, texts: ["Goals", "A"]),
    Kind(
      type: "checklist",
      content: #""fieldName": "g", "label": "Goals", "items": [{"id": "a", "label": "A"}], "allowMultiple": true"#,
      stores: .options, texts: ["Goals", "A"]),
    Kind(
      type: "quiz-question", content: #""fieldName": "q", "label": "Q", "items": [{"id": "a", "label": "A"}]"#,
      stores: .option, texts: ["Q", "A"], runsAction: true),
    Kind(
      type: "goal-selector", content: #""fieldName": "s", "label": "S", "items": [{"id": "a", "label": "A"}]"#,
      stores: .options, texts: ["S", "A"]),
    Kind(
      type: "slider", content: #""fieldName": "h", "label": "Hours", "min": 0, "max": 8"#, stores: .number,
      texts: ["Hours"]),
    Kind(type: "toggle", content: #""fieldName": "t", "label": "Opt in""#, stores: .bool, texts: ["Opt in"]),
    Kind(type: "progress", content: #""variant": "dots""#),
    Kind(type: "spacer", content: ""),
    Kind(type: "divider", content: ""),
    Kind(type: "feature-card", content: #""headline": "Fast", "body": "Really""#, texts: ["Fast", "Really"]),
    Kind(
      type: "scroll-container", content: #""children": [{"id": "c", "type": "text", "content": {"text": "child"}}]"#,
      container: true),
    Kind(type: "custom", content: #""identifier": "map""#),
    Kind(type: "loading-indicator", content: ""),
  ]

  static func block(_ kind: Kind) throws -> Block {
    let json = """
      {"version": 1, "id": "f", "screens": [{"id": "s", "name": "S", "type": "form", "content": {"blocks": [
        {"id": "b", "type": "\(kind.type)", "content": {\(kind.content)}}]}}]}
      """
    let result = FlowLoader.load(bytes: Array(json.utf8), file: "f.json")
    let document = try #require(result.document, "\(result.diagnostics)")
    return try #require(document.entryFlow?.screens.first?.content.blocks.first)
  }

  @Test func everyKnownBlockTypeHasARow() {
    #expect(Set(Self.kinds.map(\.type)) == Set(DecodeContext.knownBlockTypes))
  }

  @Test(arguments: kinds)
  func factsOfEachKind(_ kind: Kind) throws {
    let content = try Self.block(kind).content
    #expect(content.field?.valueType == kind.stores)
    #expect((content.control != nil) == kind.control)
    #expect((content.children != nil) == kind.container)
    #expect((content.field?.isSecret ?? false) == kind.secret)
    #expect((content.field?.answerAction != nil) == kind.runsAction)
    var texts: [String] = []
    content.forEachText { text in
      switch text {
      case .template(let template): texts.append(template.raw)
      case .spans(let spans): texts.append(spans.map(\.text.raw).joined())
      case .literal(let literal): texts.append(literal)
      }
    }
    #expect(texts == kind.texts)
  }

  /// What holds for every kind: a collecting kind names its field, has a label (its first
  /// text) and a value type its default fits; a control has a label; only fields are secret;
  /// only a picked field runs an action when answered.
  @Test(arguments: kinds)
  func factsAgree(_ kind: Kind) throws {
    let block = try Self.block(kind)
    let content = block.content
    #expect(block.fieldName == content.field?.fieldName)
    #expect(block.isSecret == (content.field?.isSecret ?? false))
    if let control = content.control {
      #expect(!control.label.raw.isEmpty)
    }
    var templates: [String] = []
    content.forEachTemplate { templates.append($0.raw) }
    if let field = content.field {
      #expect(field.fieldName != nil)
      #expect(field.label != nil && templates.first == field.label?.raw)
      if field.answerAction != nil { #expect(field.valueType.isPicked) }
      switch (field.valueType, content.fieldDefault) {
      case (_, nil), (.number, .number(_)?), (.bool, .bool(_)?), (.text, .string(_)?): break
      case (let type, let value?): Issue.record("a \(type) field defaults to \(value)")
      }
    } else {
      #expect(content.fieldName == nil && content.fieldDefault == nil)
    }
  }
}
