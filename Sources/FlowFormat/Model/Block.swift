import FlowExpression

/// One block of a block-based screen: the envelope (id, order, visibility) and its content.
///
/// Its fields live in one shared, immutable box, as `Screen`'s do: copying a block's content
/// (a large enum of templates and arrays) cost about 1,100 instructions a copy, and blocks are
/// copied wherever screens are walked. A copy is now one retain.
public struct Block: Hashable, Sendable {
  /// The stored fields (compared and hashed as the block's value).
  @usableFromInline struct Fields: Hashable, Sendable {
    @usableFromInline var id: String
    @usableFromInline var order: Int
    /// A condition, or a type `typeNames` does not hold; nil for nearly every block.
    @usableFromInline var rare: SharedValue<Rare>?
    @usableFromInline var location: SourceLocation
    /// The type's index in `Block.typeNames`, or `otherType` (the type is then `rare`'s).
    @usableFromInline var typeCode: UInt8
    @usableFromInline var visible: Bool
    /// Last, after the 4-byte-aligned `location` and the two bytes: with the box's own flag the
    /// box is 135 bytes, in glibc's 144-byte chunks (137 would take 160). The content's largest
    /// inline kind (a text, 69 bytes) may grow by one byte (`ModelStorageTests`).
    @usableFromInline var content: BlockContent
  }

  /// The fields few blocks set: a `visibleWhen` (a `Condition?` is 41 bytes, set on 31 of the
  /// padded bundle's 66,363 blocks) and a type not in `typeNames` (other dialects' kinds).
  @usableFromInline struct Rare: RareFields {
    @usableFromInline var visibleWhen: Condition?
    @usableFromInline var type: String?

    @inlinable init() {}

    @inlinable var isEmpty: Bool { visibleWhen == nil && type == nil }
  }

  /// The block types stored as their index (Sequence's, as the loader knows them).
  static let typeNames = DecodeContext.knownBlockTypes
  static let otherType = UInt8.max

  /// The box: never written (a write builds a new box), so reads need no exclusivity checks.
  @usableFromInline final class Box: Sendable {
    @usableFromInline let fields: Fields
    /// Set by the loader when it compiled every template of the content and none interpolates
    /// (`hasOnlyPlainTexts`); a write builds a box without it. Not part of the block's value.
    @usableFromInline let plainTexts: Bool
    @usableFromInline init(_ fields: Fields, plainTexts: Bool = false) {
      self.fields = fields
      self.plainTexts = plainTexts
    }
  }

  @usableFromInline var box: Box

  /// The fields, written through: a write builds a new box (without the loader's `plainTexts`).
  /// Each field's `_modify` goes through this; its `_read` borrows from the box directly.
  @usableFromInline var fields: Fields {
    get { box.fields }
    set { box = Box(newValue) }
  }

  @inlinable public var id: String {
    _read { yield box.fields.id }
    _modify { yield &fields.id }
  }
  /// The type as written (`text`, `quiz-question`, ...), kept for messages and unknown types.
  public var type: String {
    get {
      let code = box.fields.typeCode
      return code == Block.otherType ? box.fields.rare?.value.type ?? "" : Block.typeNames[Int(code)]
    }
    set {
      var fields = box.fields
      var rare = self.rare
      (fields.typeCode, rare.type) = Block.stored(
        type: newValue, typeIndex: DecodeContext.knownBlockTypeSet.index(of: newValue))
      fields.rare = .holding(rare)
      box = Box(fields)
    }
  }
  @inlinable public var order: Int {
    _read { yield box.fields.order }
    _modify { yield &fields.order }
  }
  /// `visible: false` hides the block for good.
  @inlinable public var visible: Bool {
    _read { yield box.fields.visible }
    _modify { yield &fields.visible }
  }
  /// Extension: the block shows only while this holds.
  @inlinable public var visibleWhen: Condition? {
    get { box.fields.rare?.value.visibleWhen }
    set { rare.visibleWhen = newValue }
  }
  /// `visibleWhen` and an unknown type, their defaults when none is set (a write keeps nil then).
  @usableFromInline var rare: Rare {
    get { box.fields.rare?.value ?? Rare() }
    set { fields.rare = .holding(newValue) }
  }
  @inlinable public var content: BlockContent {
    _read { yield box.fields.content }
    _modify { yield &fields.content }
  }
  @inlinable public var location: SourceLocation {
    _read { yield box.fields.location }
    _modify { yield &fields.location }
  }

  /// True when the loader knows no template of `content` interpolates (false: it may), so a
  /// walk of the content for the names it reads can be skipped.
  @inlinable public var hasOnlyPlainTexts: Bool { box.plainTexts }

  public static func == (a: Block, b: Block) -> Bool {
    a.box.fields == b.box.fields
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(box.fields)
  }

  public init(
    id: String,
    type: String,
    order: Int,
    visible: Bool,
    visibleWhen: Condition?,
    content: BlockContent,
    location: SourceLocation,
    plainTexts: Bool = false
  ) {
    self.init(
      id: id, type: type, typeIndex: DecodeContext.knownBlockTypeSet.index(of: type), order: order, visible: visible,
      visibleWhen: visibleWhen, content: content, location: location, plainTexts: plainTexts)
  }

  /// A block whose type's index in `typeNames` (nil: not there) the loader looked up already.
  init(
    id: String,
    type: String,
    typeIndex: Int?,
    order: Int,
    visible: Bool,
    visibleWhen: Condition?,
    content: BlockContent,
    location: SourceLocation,
    plainTexts: Bool = false
  ) {
    let (typeCode, otherType) = Block.stored(type: type, typeIndex: typeIndex)
    // Nearly every block has neither: no `Rare` is built for it (2 M instructions on the
    // padded bundle's 66,363 blocks).
    var rare: SharedValue<Rare>?
    if visibleWhen != nil || otherType != nil {
      var fields = Rare()
      fields.visibleWhen = visibleWhen
      fields.type = otherType
      rare = SharedValue(fields)
    }
    box = Box(
      Fields(
        id: id, order: order, rare: rare, location: location, typeCode: typeCode, visible: visible,
        content: content), plainTexts: plainTexts)
  }

  /// A type as stored: its index in `typeNames`, or `otherType` and the type itself.
  private static func stored(type: String, typeIndex: Int?) -> (UInt8, String?) {
    guard let typeIndex, typeIndex < otherType else { return (otherType, type) }
    return (UInt8(typeIndex), nil)
  }

  /// `content.forEachText`, with the content read in place in the block's box: a caller that
  /// reads `content` copies it first, and a copy of an inline payload retains each of its
  /// references (a text's five; one when every kind was boxed).
  public func forEachText(_ body: (BlockText) -> Void) {
    box.fields.content.forEachText(body)
  }

  /// `content.forEachTemplate`, the content read in place (see `forEachText`).
  public func forEachTemplate(_ body: (TextTemplate) -> Void) {
    box.fields.content.forEachTemplate(body)
  }

  /// Calls `body` with the content read in place (see `forEachText`).
  @inlinable public func withContent<Result>(_ body: (BlockContent) throws -> Result) rethrows -> Result {
    try body(box.fields.content)
  }

  /// The field this block collects into, if it collects anything. Inlinable, as the facts
  /// below the engine reads per block and input: called from another module, they copy the block.
  @inlinable public var fieldName: String? { content.fieldName }

  /// Whether the field this block collects is a secret (see `InputBlock.secret`).
  public var isSecret: Bool { content.field?.isSecret ?? false }
}

/// What a block holds, by kind.
///
/// Everything the rest of flowrun needs to know about a kind is one of the facts below, each
/// an exhaustive switch: adding a kind is a compile error here (the facts), in the loader
/// (`DecodeContext.decodeBlockContent`) and in the renderer (`BlockDrawing`), and nowhere else
/// unless the kind collects a value (then `FieldContent`'s switches, CONTRIBUTING.md).
///
/// | kind | shows (`forEachText`) | collects (`field`) | numbered control (`control`) | children |
/// |---|---|---|---|---|
/// | text | its text, or its rich-text spans as one line | – | – | – |
/// | media | (a placeholder) | – | – | – |
/// | icon | the icon | – | – | – |
/// | button | its text | – | its text → its action | – |
/// | input | label, placeholder | text, or a number | – | – |
/// | choice | label, each item's label | one option, or a list | – | – |
/// | slider | label | a number | – | – |
/// | toggle | label | true/false | – | – |
/// | progress, spacer, divider, custom, unsupported | – | – | – | – |
/// | featureCard | headline, body | – | – | – |
/// | scrollContainer | – | – | – | its blocks (flattened into the screen) |
///
/// Stored inline in the block's box (`Block.Fields`), so a block is one allocation: the kinds
/// up to a text's 69 bytes are inline, the larger ones (`slider`, `featureCard`) `indirect`
/// (boxed: the largest kind inline made every block a few hundred bytes; docs/performance.md,
/// fourth round). Each kind boxed cost a text block 176 bytes of chunks (80 and 96), one box
/// 144 (fifteenth round). `ModelStorageTests` pins the size.
public enum BlockContent: Hashable, Sendable {
  case text(TextBlock)
  /// `image`, `video` and `lottie`: shown as a placeholder line.
  case media(kind: String, src: String?, alt: String?)
  case icon(String)
  case button(ButtonBlock)
  case input(InputBlock)
  /// `checklist`, `quiz-question` and `goal-selector`.
  case choice(ChoiceBlock)
  indirect case slider(SliderBlock)
  case toggle(ToggleBlock)
  case progress(variant: String)
  case spacer
  case divider
  indirect case featureCard(headline: TextTemplate?, body: TextTemplate?)
  /// Children behave as top-level blocks (they are flattened into the screen at load).
  case scrollContainer([Block])
  case custom(identifier: String?, props: Value)
  case unsupported
}

// MARK: Per-kind facts

extension BlockContent {
  /// The collecting kinds' content (their own facts: `FieldContent`); nil for every other kind.
  @inlinable public var field: FieldContent? {
    switch self {
    case .input(let input): .input(input)
    case .choice(let choice): .choice(choice)
    case .slider(let slider): .slider(slider)
    case .toggle(let toggle): .toggle(toggle)
    case .text, .media, .icon, .button, .progress, .spacer, .divider, .featureCard, .scrollContainer, .custom,
      .unsupported:
      nil
    }
  }

  /// `field?.fieldName` without copying the content out (the engine asks it in its inner loops).
  @inlinable public var fieldName: String? {
    switch self {
    case .input(let input): input.fieldName
    case .choice(let choice): choice.fieldName
    case .slider(let slider): slider.fieldName
    case .toggle(let toggle): toggle.fieldName
    case .text, .media, .icon, .button, .progress, .spacer, .divider, .featureCard, .scrollContainer, .custom,
      .unsupported:
      nil
    }
  }

  /// The value the block's field holds until it is answered (stored when the screen is left
  /// forward); nil for a choice and for kinds that collect nothing. Read from the content, not
  /// from `field` (a copy of it): `commitDefaults` asks it of every untouched field on every
  /// screen left.
  @inlinable public var fieldDefault: Value? {
    switch self {
    case .input(let input): input.defaultValue
    case .slider(let slider): .number(slider.defaultValue)
    case .toggle(let toggle): .bool(toggle.defaultValue)
    case .choice, .text, .media, .icon, .button, .progress, .spacer, .divider, .featureCard, .scrollContainer, .custom,
      .unsupported:
      nil
    }
  }

  /// The numbered control the block is (`[n] label` on the screen; a tap runs the action).
  @inlinable public var control: BlockControl? {
    switch self {
    case .button(let button): BlockControl(label: button.text, action: button.action)
    case .text, .media, .icon, .input, .choice, .slider, .toggle, .progress, .spacer, .divider, .featureCard,
      .scrollContainer, .custom, .unsupported:
      nil
    }
  }

  /// The blocks a container holds (nil: not a container). They act as blocks of the screen:
  /// `ScreenContent.flatBlocks` has them in place of their container.
  public var children: [Block]? {
    switch self {
    case .scrollContainer(let children): children
    case .text, .media, .icon, .button, .input, .choice, .slider, .toggle, .progress, .spacer, .divider,
      .featureCard, .custom, .unsupported:
      nil
    }
  }

  /// Calls `body` with each text the block shows, in reading order: the one walk over a
  /// block's templates (what `text:` expectations match, which names templates read, which
  /// names a preview fills). A `text` block's rich-text spans replace its `text`, as drawn.
  /// Inlinable, like `forEachTemplate`: `check` walks every template of a document with them.
  @inlinable public func forEachText(_ body: (BlockText) -> Void) {
    switch self {
    case .text(let text):
      if !text.richText.isEmpty {
        body(.spans(text.richText))
      } else if let template = text.text {
        body(.template(template))
      }
    case .icon(let icon): body(.literal(icon))
    case .button(let button): body(.template(button.text))
    case .featureCard(let headline, body: let text):
      if let headline { body(.template(headline)) }
      if let text { body(.template(text)) }
    case .input, .choice, .slider, .toggle:
      field?.forEachText(body)
    case .media, .progress, .spacer, .divider, .scrollContainer, .custom, .unsupported:
      break
    }
  }

  /// Every template the block shows (`forEachText` without the literals, spans one by one).
  @inlinable public func forEachTemplate(_ body: (TextTemplate) -> Void) {
    forEachText { text in
      switch text {
      case .template(let template): body(template)
      case .spans(let spans): for span in spans { body(span.text) }
      case .literal: break
      }
    }
  }
}

/// A numbered control of a block screen: its label and the action a tap runs.
public struct BlockControl: Hashable, Sendable {
  public var label: TextTemplate
  public var action: Action

  public init(label: TextTemplate, action: Action) {
    self.label = label
    self.action = action
  }
}

/// One text a block shows (see `BlockContent.forEachText`).
public enum BlockText: Hashable, Sendable {
  /// A template shown on its own: a label, a placeholder, an option, a button's text.
  case template(TextTemplate)
  /// Rich-text spans, shown together as one text.
  case spans([TextBlock.Span])
  /// Text shown as written (an icon).
  case literal(String)
}

/// A `text` block.
public struct TextBlock: Hashable, Sendable {
  /// A span of rich text.
  public struct Span: Hashable, Sendable {
    public var text: TextTemplate
    public var bold: Bool
    public var italic: Bool

    public init(text: TextTemplate, bold: Bool, italic: Bool) {
      self.text = text
      self.bold = bold
      self.italic = italic
    }
  }

  /// `h1` `h2` `h3` `body` `caption` `label`; nil means body.
  public var variant: String?
  /// When non-empty, replaces `text`.
  public var richText: [Span]
  /// Last: its 45 bytes end the struct at 69 (72 before the others), so that the content fits
  /// inline in a block's box (`Block.Fields.content`).
  public var text: TextTemplate?

  public init(text: TextTemplate?, variant: String?, richText: [Span]) {
    self.text = text
    self.variant = variant
    self.richText = richText
  }
}

/// A `button` block.
public struct ButtonBlock: Hashable, Sendable {
  public var text: TextTemplate
  public var action: Action
  /// `variant`, `preset` and `analytics`, nil when none is set (most buttons): inline they
  /// were half of every button's bytes.
  @usableFromInline var styling: SharedValue<Styling>?

  /// The fields few buttons set.
  @usableFromInline struct Styling: RareFields {
    @usableFromInline var variant: String?
    @usableFromInline var preset: String?
    @usableFromInline var analytics: Value?

    @inlinable init() {}

    @inlinable var isEmpty: Bool { variant == nil && preset == nil && analytics == nil }
  }

  public var variant: String? {
    get { styling?.value.variant }
    set { restyle { $0.variant = newValue } }
  }
  public var preset: String? {
    get { styling?.value.preset }
    set { restyle { $0.preset = newValue } }
  }
  /// `analytics`: the properties its `button_tapped` carries besides id, text and action
  /// (document 003's `EventButton(category:object:verb:params:)`): an object, in the order written.
  public var analytics: Value? {
    get { styling?.value.analytics }
    set { restyle { $0.analytics = newValue } }
  }

  private mutating func restyle(_ change: (inout Styling) -> Void) {
    var fields = styling?.value ?? Styling()
    change(&fields)
    styling = .holding(fields)
  }

  public init(text: TextTemplate, action: Action, variant: String?, preset: String?, analytics: Value? = nil) {
    self.text = text
    self.action = action
    var styling = Styling()
    styling.variant = variant
    styling.preset = preset
    styling.analytics = analytics
    self.styling = .holding(styling)
  }
}
