import FlowExpression

/// One screen of a flow.
///
/// Its fields live in one shared, immutable box: a screen is copied wherever the model is
/// walked (graph building, lint rules, the engine's screen lookups), and copying the fields
/// themselves retained every string, array and template of the screen each time (about 580
/// instructions a copy, 314,000 copies in a `check` of a 20,000-screen flow). A copy is now
/// one retain and a read borrows the field in place; a write (the loaders' business) puts
/// the changed fields in a new box. Reads and writes look the same as on the plain struct
/// this was. The fields few screens set (`Rare`) and the legacy layout's (`ScreenContent.Legacy`)
/// live out of line, so a block screen's box is about 150 bytes instead of 720.
public struct Screen: Hashable, Sendable {
  /// The screen types flowrun knows; anything else loads as `unknown` and behaves like `feature`.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    case welcome, feature, carousel, permission, celebration, native, filler
    case question, form
    case valueProp = "value_prop"
    case custom
    case flow
    case unknown
  }

  /// The stored fields (compared and hashed as the screen's value).
  ///
  /// Ordered so that the box is 131 bytes, in glibc's 144-byte chunks: `location` (4-byte
  /// aligned) fills the padding after `content`'s flag, and the type is not stored when it is
  /// the kind's own name (`Rare.type`). With a `type` string and `location` after `next`, the
  /// box was 155 bytes (176-byte chunks: 0.7 MB of `lint-chain`'s 21,714 screens).
  @usableFromInline struct Fields: Hashable, Sendable {
    @usableFromInline var id: String
    @usableFromInline var name: String
    @usableFromInline var order: Int
    @usableFromInline var content: ScreenContent
    @usableFromInline var location: SourceLocation
    @usableFromInline var rules: [Rule]
    @usableFromInline var next: Target?
    /// The fields few screens set; nil when all have their defaults.
    @usableFromInline var rare: SharedValue<Rare>?
    // The one-byte fields last, packed together.
    @usableFromInline var kind: Kind
    @usableFromInline var hideProgress: Bool
    @usableFromInline var hideBack: Bool
  }

  /// The fields few screens set (sub-flows, timers, `onEnter`, transitions, AppDNA's hooks and
  /// chats): inline they made every screen's box about 720 bytes, most of it empty.
  @usableFromInline struct Rare: RareFields {
    /// The type as written when it is not the kind's raw value (an unknown type, another
    /// dialect's name for a kind); nil on nearly every screen.
    @usableFromInline var type: String?
    @usableFromInline var subflow: String?
    @usableFromInline var autoAdvanceMs: Double?
    @usableFromInline var autoAdvanceValidates = false
    @usableFromInline var onEnter: Action?
    @usableFromInline var transition: ScreenTransition?
    @usableFromInline var webhook: Webhook?
    @usableFromInline var chat: ChatConfig?

    @inlinable init() {}

    @inlinable var isEmpty: Bool {
      type == nil && subflow == nil && autoAdvanceMs == nil && !autoAdvanceValidates && onEnter == nil
        && transition == nil
        && webhook == nil && chat == nil
    }
  }

  /// The box: never written (a write builds a new box), so reads need no exclusivity checks.
  @usableFromInline typealias Box = SharedValue<Fields>

  @usableFromInline var box: Box

  /// The fields, written through: a write (the loaders') puts the changed fields in a new box.
  /// Each field's `_modify` goes through this; its `_read` borrows from the box directly.
  @usableFromInline var fields: Fields {
    get { box.value }
    set { box = Box(newValue) }
  }

  /// The rarely set fields, their defaults when none is set; a write keeps nil for all-default.
  @usableFromInline var rare: Rare {
    get { box.value.rare?.value ?? Rare() }
    set { fields.rare = .holding(newValue) }
  }

  @inlinable public var id: String {
    _read { yield box.value.id }
    _modify { yield &fields.id }
  }
  @inlinable public var name: String {
    _read { yield box.value.name }
    _modify { yield &fields.name }
  }
  /// Setting it keeps `type` as it reads.
  @inlinable public var kind: Kind {
    get { box.value.kind }
    set {
      let type = self.type
      var fields = self.fields
      fields.kind = newValue
      Screen.store(type: type, in: &fields)
      box = Box(fields)
    }
  }
  /// The type as written, for messages about unknown types.
  @inlinable public var type: String {
    get { box.value.rare?.value.type ?? box.value.kind.rawValue }
    set {
      var fields = self.fields
      Screen.store(type: newValue, in: &fields)
      box = Box(fields)
    }
  }

  /// Stores `type` out of line only when it is not `fields.kind`'s raw value: one form for
  /// each screen, so equal screens compare equal whatever was written first.
  @usableFromInline static func store(type: String, in fields: inout Fields) {
    var rare = fields.rare?.value ?? Rare()
    rare.type = type == fields.kind.rawValue ? nil : type
    fields.rare = .holding(rare)
  }
  @inlinable public var order: Int {
    _read { yield box.value.order }
    _modify { yield &fields.order }
  }
  @inlinable public var content: ScreenContent {
    _read { yield box.value.content }
    _modify { yield &fields.content }
  }
  @inlinable public var rules: [Rule] {
    _read { yield box.value.rules }
    _modify { yield &fields.rules }
  }
  /// Default successor (extension).
  @inlinable public var next: Target? {
    _read { yield box.value.next }
    _modify { yield &fields.next }
  }
  @inlinable public var hideProgress: Bool {
    _read { yield box.value.hideProgress }
    _modify { yield &fields.hideProgress }
  }
  @inlinable public var hideBack: Bool {
    _read { yield box.value.hideBack }
    _modify { yield &fields.hideBack }
  }
  /// The sub-flow a `flow` screen runs.
  @inlinable public var subflow: String? {
    _read { yield box.value.rare?.value.subflow }
    _modify { yield &rare.subflow }
  }
  /// A `filler` screen advances by itself after this much virtual time.
  @inlinable public var autoAdvanceMs: Double? {
    _read { yield box.value.rare?.value.autoAdvanceMs }
    _modify { yield &rare.autoAdvanceMs }
  }
  /// Whether that advance validates the screen first, as a tap on `next` does (AppDNA's timers
  /// and loaders); a filler does not (extension).
  @inlinable public var autoAdvanceValidates: Bool {
    _read { yield box.value.rare?.value.autoAdvanceValidates ?? false }
    _modify { yield &rare.autoAdvanceValidates }
  }
  /// Runs as soon as the screen is entered; if it navigates away the screen is never shown.
  @inlinable public var onEnter: Action? {
    _read { yield box.value.rare?.value.onEnter }
    _modify { yield &rare.onEnter }
  }
  /// How the screen animates in (shown in traces).
  @inlinable public var transition: ScreenTransition? {
    _read { yield box.value.rare?.value.transition }
    _modify { yield &rare.transition }
  }
  /// Called before a submitted screen is left when no host hook answers (AppDNA's step `hook`).
  @inlinable public var webhook: Webhook? {
    _read { yield box.value.rare?.value.webhook }
    _modify { yield &rare.webhook }
  }
  /// An AppDNA `interactive_chat` step's conversation: the step parks for chat turns and its
  /// button submits the transcript.
  @inlinable public var chat: ChatConfig? {
    _read { yield box.value.rare?.value.chat }
    _modify { yield &rare.chat }
  }
  @inlinable public var location: SourceLocation {
    _read { yield box.value.location }
    _modify { yield &fields.location }
  }

  public static func == (a: Screen, b: Screen) -> Bool {
    a.box.value == b.box.value
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(box.value)
  }

  public init(
    id: String,
    name: String,
    kind: Kind,
    type: String,
    order: Int,
    content: ScreenContent,
    rules: [Rule] = [],
    next: Target? = nil,
    hideProgress: Bool = false,
    hideBack: Bool = false,
    subflow: String? = nil,
    autoAdvanceMs: Double? = nil,
    onEnter: Action? = nil,
    transition: ScreenTransition? = nil,
    location: SourceLocation
  ) {
    var rare = Rare()
    rare.type = type == kind.rawValue ? nil : type
    rare.subflow = subflow
    rare.autoAdvanceMs = autoAdvanceMs
    rare.onEnter = onEnter
    rare.transition = transition
    box = Box(
      Fields(
        id: id, name: name, order: order, content: content, location: location, rules: rules, next: next,
        rare: .holding(rare), kind: kind, hideProgress: hideProgress, hideBack: hideBack))
  }
}

/// What a screen shows: either legacy fields (title, subtitle, one button) or blocks.
public struct ScreenContent: Hashable, Sendable {
  /// A carousel slide (legacy content).
  public struct Slide: Hashable, Sendable {
    public var title: TextTemplate
    public var body: TextTemplate
    public var icon: String?

    public init(title: TextTemplate, body: TextTemplate, icon: String?) {
      self.title = title
      self.body = body
      self.icon = icon
    }
  }

  /// Top-level blocks in reading order (`position.y`, then `order`, then array order).
  public var blocks: [Block]
  /// Every block in reading order with containers' children in place of their container.
  public var flatBlocks: [Block]
  /// The legacy layout's fields; nil when all have their defaults (as on every block screen:
  /// inline they were about 280 bytes of each screen).
  @usableFromInline var legacy: SharedValue<Legacy>?
  /// True when the screen is made of blocks; false for the legacy layout.
  public var usesBlocks: Bool

  /// The legacy layout's fields (`Legacy.empty`: none set).
  @usableFromInline struct Legacy: RareFields {
    @usableFromInline var title: TextTemplate?
    @usableFromInline var subtitle: TextTemplate?
    @usableFromInline var icon: String?
    @usableFromInline var image: String?
    @usableFromInline var buttonText: TextTemplate
    @usableFromInline var buttonAction: Action
    @usableFromInline var skipText: TextTemplate?
    @usableFromInline var skipAction: Action?
    @usableFromInline var slides: [Slide]
    @usableFromInline var permissionType: String?
    @usableFromInline var identifier: String?

    /// No field set, the button `Continue` going `next` (the loaders' default).
    @usableFromInline static let empty = Legacy(
      buttonText: TextTemplate(template: Template(parsing: "Continue"), location: nil), buttonAction: .next,
      slides: [])

    /// Equal to `empty`, told field by field.
    @inlinable var isEmpty: Bool {
      guard case .next = buttonAction, buttonText.location == nil, buttonText.translations.isEmpty,
        buttonText.template.isPlainText, buttonText.template.source == "Continue"
      else { return false }
      return title == nil && subtitle == nil && icon == nil && image == nil && skipText == nil && skipAction == nil
        && slides.isEmpty && permissionType == nil && identifier == nil
    }
  }

  /// The legacy fields, written through (`Legacy.empty` when none is set); a write keeps nil
  /// for all-default. Each field's `_modify` goes through this; its `_read` reads `legacy`.
  @usableFromInline var legacyFields: Legacy {
    get { legacy?.value ?? Legacy.empty }
    set { legacy = .holding(newValue) }
  }

  @inlinable public var title: TextTemplate? {
    _read { yield legacy?.value.title }
    _modify { yield &legacyFields.title }
  }
  /// `subtitle`, else `body`.
  @inlinable public var subtitle: TextTemplate? {
    _read { yield legacy?.value.subtitle }
    _modify { yield &legacyFields.subtitle }
  }
  @inlinable public var icon: String? {
    _read { yield legacy?.value.icon }
    _modify { yield &legacyFields.icon }
  }
  @inlinable public var image: String? {
    _read { yield legacy?.value.image }
    _modify { yield &legacyFields.image }
  }
  @inlinable public var buttonText: TextTemplate {
    _read { yield legacy?.value.buttonText ?? Legacy.empty.buttonText }
    _modify { yield &legacyFields.buttonText }
  }
  @inlinable public var buttonAction: Action {
    _read { yield legacy?.value.buttonAction ?? Legacy.empty.buttonAction }
    _modify { yield &legacyFields.buttonAction }
  }
  @inlinable public var skipText: TextTemplate? {
    _read { yield legacy?.value.skipText }
    _modify { yield &legacyFields.skipText }
  }
  @inlinable public var skipAction: Action? {
    _read { yield legacy?.value.skipAction }
    _modify { yield &legacyFields.skipAction }
  }
  @inlinable public var slides: [Slide] {
    _read { yield legacy?.value.slides ?? Legacy.empty.slides }
    _modify { yield &legacyFields.slides }
  }
  @inlinable public var permissionType: String? {
    _read { yield legacy?.value.permissionType }
    _modify { yield &legacyFields.permissionType }
  }
  /// The host's identifier of a `native` screen.
  @inlinable public var identifier: String? {
    _read { yield legacy?.value.identifier }
    _modify { yield &legacyFields.identifier }
  }

  public init(
    usesBlocks: Bool,
    blocks: [Block],
    title: TextTemplate? = nil,
    subtitle: TextTemplate? = nil,
    icon: String? = nil,
    image: String? = nil,
    buttonText: TextTemplate,
    buttonAction: Action = .next,
    skipText: TextTemplate? = nil,
    skipAction: Action? = nil,
    slides: [Slide] = [],
    permissionType: String? = nil,
    identifier: String? = nil
  ) {
    self.blocks = blocks
    // Shared with `blocks` unless a scroll container needs flattening: a copy per screen
    // showed in profiles of big files.
    let hasContainer = blocks.contains { $0.content.children != nil }
    self.flatBlocks = hasContainer ? blocks.flatMap(Self.flatten) : blocks
    self.usesBlocks = usesBlocks
    self.legacy = .holding(
      Legacy(
        title: title, subtitle: subtitle, icon: icon, image: image, buttonText: buttonText,
        buttonAction: buttonAction, skipText: skipText, skipAction: skipAction, slides: slides,
        permissionType: permissionType, identifier: identifier))
  }

  private static func flatten(_ block: Block) -> [Block] {
    block.content.children?.flatMap(flatten) ?? [block]
  }
}
