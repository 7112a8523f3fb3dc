import FlowExpression
import Testing

@testable import FlowFormat

/// The model keeps rarely set fields out of line (`SharedValue`, nil when all are defaults):
/// every field reads back what was written, and a value written then reset is the same model
/// as one that never had it (equal and hashed alike), so no comparison depends on the history.
@Suite struct ModelStorageTests {
  static let location = SourceLocation(line: 3, column: 5, offset: 40)
  static func template(_ text: String) -> TextTemplate {
    TextTemplate(template: Template(parsing: text), location: location)
  }

  static let screen = Screen(
    id: "s1", name: "One", kind: .question, type: "question", order: 0,
    content: ScreenContent(usesBlocks: true, blocks: [], buttonText: template("Continue")), location: location)

  struct Change: Sendable, CustomTestStringConvertible {
    var name: String
    var apply: @Sendable (inout Screen) -> Void
    var reset: @Sendable (inout Screen) -> Void
    var check: @Sendable (Screen) -> Bool
    var testDescription: String { name }
  }

  static let changes: [Change] = [
    Change(name: "subflow", apply: { $0.subflow = "sub" }, reset: { $0.subflow = nil }, check: { $0.subflow == "sub" }),
    Change(
      name: "autoAdvanceMs", apply: { $0.autoAdvanceMs = 1500 }, reset: { $0.autoAdvanceMs = nil },
      check: { $0.autoAdvanceMs == 1500 }),
    Change(
      name: "autoAdvanceValidates", apply: { $0.autoAdvanceValidates = true },
      reset: { $0.autoAdvanceValidates = false }, check: { $0.autoAdvanceValidates }),
    Change(
      name: "onEnter", apply: { $0.onEnter = .screen("s2") }, reset: { $0.onEnter = nil },
      check: { $0.onEnter == .screen("s2") }),
    Change(
      name: "transition", apply: { $0.transition = .fade }, reset: { $0.transition = nil },
      check: { $0.transition == .fade }),
    Change(
      name: "chat", apply: { $0.chat = ChatConfig() }, reset: { $0.chat = nil }, check: { $0.chat == ChatConfig() }),
    Change(
      name: "content.title", apply: { $0.content.title = template("Hi") }, reset: { $0.content.title = nil },
      check: { $0.content.title?.raw == "Hi" }),
    Change(
      name: "content.buttonAction", apply: { $0.content.buttonAction = .skip },
      reset: { $0.content.buttonAction = .next }, check: { $0.content.buttonAction == .skip }),
    Change(
      name: "content.slides",
      apply: { $0.content.slides = [ScreenContent.Slide(title: template("a"), body: template("b"), icon: nil)] },
      reset: { $0.content.slides = [] }, check: { $0.content.slides.count == 1 }),
    Change(
      name: "content.permissionType", apply: { $0.content.permissionType = "camera" },
      reset: { $0.content.permissionType = nil }, check: { $0.content.permissionType == "camera" }),
  ]

  @Test(arguments: changes) func aWrittenFieldReadsBackAndAResetOneIsTheSameScreen(_ change: Change) {
    var screen = Self.screen
    change.apply(&screen)
    #expect(change.check(screen))
    #expect(screen != Self.screen)
    #expect(screen.id == "s1" && screen.kind == .question && screen.content.usesBlocks)
    change.reset(&screen)
    #expect(!change.check(screen))
    #expect(screen == Self.screen)
    #expect(screen.hashValue == Self.screen.hashValue)
  }

  @Test func theLoadersDefaultButtonIsNotStored() {
    let plain = ScreenContent(
      usesBlocks: true, blocks: [], buttonText: TextTemplate(template: Template(parsing: "Continue"), location: nil))
    #expect(plain.legacy == nil)
    #expect(plain.buttonText.raw == "Continue" && plain.buttonAction == .next)
    // Written at a place in the file, it is a different text and kept.
    #expect(Self.screen.content.legacy != nil)
    #expect(Self.screen.content.buttonText == Self.template("Continue"))
  }

  @Test func aButtonsStylingAndABlocksConditionReadBack() throws {
    var button = ButtonBlock(text: Self.template("Go"), action: .next, variant: nil, preset: nil)
    let plain = button
    #expect(button.styling == nil)
    button.variant = "primary"
    button.analytics = .string("tap")
    #expect(button.variant == "primary" && button.preset == nil && button.analytics == .string("tap"))
    button.variant = nil
    button.analytics = nil
    #expect(button == plain && button.styling == nil)

    let condition = try Condition.parse("age > 3")
    var block = Block(
      id: "b", type: "button", order: 0, visible: true, visibleWhen: nil, content: .button(plain),
      location: Self.location)
    let unconditional = block
    block.visibleWhen = condition
    #expect(block.visibleWhen == condition && block != unconditional)
    block.visibleWhen = nil
    #expect(block == unconditional)
  }

  /// A block's type is stored as a byte when the loader knows it, else out of line: either
  /// way it reads back as written, and a block whose type went and came back is the same block.
  @Test(arguments: ["text", "scroll-container", "loading-indicator", "nuxie", "", "Text", "text "])
  func blockTypesReadBack(_ type: String) throws {
    let condition = try Condition.parse("age > 3")
    let content = BlockContent.text(TextBlock(text: Self.template("Hi"), variant: nil, richText: []))
    var block = Block(
      id: "b", type: type, order: 2, visible: false, visibleWhen: nil, content: content, location: Self.location)
    let original = block
    #expect(block.type == type && block.order == 2 && !block.visible && block.visibleWhen == nil)
    #expect(block.box.fields.rare == nil || !DecodeContext.knownBlockTypes.contains(type))
    block.visibleWhen = condition
    #expect(block.type == type && block.visibleWhen == condition)
    block.type = "custom"
    #expect(block.type == "custom" && block.visibleWhen == condition)
    block.type = type
    block.visibleWhen = nil
    #expect(block == original && block.hashValue == original.hashValue)
    #expect(block.box.fields.rare == nil || !DecodeContext.knownBlockTypes.contains(type))
  }

  /// A screen's type is stored only when it is not its kind's name: either way it reads back as
  /// written, a new kind keeps it, and a screen whose type went and came back is the same screen.
  @Test(arguments: [
    (Screen.Kind.question, "question"), (.valueProp, "value_prop"), (.unknown, "quiz"), (.unknown, "unknown"),
    (.native, "interactive_chat"), (.feature, ""),
  ])
  func screenTypesReadBack(_ kind: Screen.Kind, _ type: String) {
    var screen = Self.screen
    screen.kind = kind
    screen.type = type
    let original = screen
    #expect(screen.kind == kind && screen.type == type && screen.id == "s1")
    #expect((screen.box.value.rare == nil) == (type == kind.rawValue))
    screen.kind = .form
    #expect(screen.kind == .form && screen.type == type)
    screen.subflow = "sub"
    #expect(screen.type == type && screen.subflow == "sub")
    screen.type = "form"
    #expect(screen.type == "form" && screen.box.value.rare?.value.type == nil)
    screen.subflow = nil
    screen.type = type
    screen.kind = kind
    #expect(screen == original && screen.hashValue == original.hashValue)
  }

  /// The strides the model's memory was measured with (docs/performance.md, eleventh and
  /// thirteenth rounds): a template's location after its translations leaves it 45 bytes, so a
  /// rich-text span with its two flags is 48 (56 before; 34,537 spans in the padded bundle).
  @Test(arguments: [
    ("TextTemplate", MemoryLayout<TextTemplate>.size, 45),
    ("TextBlock.Span", MemoryLayout<TextBlock.Span>.stride, 48),
    // With the box's 16-byte header, 131 bytes: glibc's 144-byte chunks (176 at 139 bytes).
    ("Screen.Fields", MemoryLayout<Screen.Fields>.size, 115),
    // A block's content inline in its box: the text kind (69 bytes) and the enum's tag, so the
    // box (header, fields, `plainTexts`) is 135 bytes, in 144-byte chunks (fifteenth round).
    ("TextBlock", MemoryLayout<TextBlock>.size, 69),
    ("BlockContent", MemoryLayout<BlockContent>.size, 70),
    ("Block.Fields", MemoryLayout<Block.Fields>.size, 118),
  ])
  func modelStrides(_ type: String, _ measured: Int, _ expected: Int) {
    #expect(measured == expected, "\(type)")
  }
}
