/// One screen of a flow.
///
/// Its fields live in one shared, immutable box: a screen is copied wherever the model is
/// walked (graph building, lint rules, the engine's screen lookups), and copying the fields
/// themselves retained every string, array and template of the screen each time (about 580
/// instructions a copy, 314,000 copies in a `check` of a 20,000-screen flow). A copy is now
/// one retain and a read borrows the field in place; a write (the loaders' business) puts
/// the changed fields in a new box. Reads and writes look the same as on the plain struct
/// this was.
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
  @usableFromInline struct Fields: Hashable, Sendable {
    @usableFromInline var id: String
    @usableFromInline var name: String
    @usableFromInline var kind: Kind
    @usableFromInline var type: String
    @usableFromInline var order: Int
    @usableFromInline var content: ScreenContent
    @usableFromInline var rules: [Rule]
    @usableFromInline var next: Target?
    @usableFromInline var hideProgress: Bool
    @usableFromInline var hideBack: Bool
    @usableFromInline var subflow: String?
    @usableFromInline var autoAdvanceMs: Double?
    @usableFromInline var autoAdvanceValidates = false
    @usableFromInline var onEnter: Action?
    @usableFromInline var transition: ScreenTransition?
    @usableFromInline var webhook: Webhook?
    @usableFromInline var chat: ChatConfig?
    @usableFromInline var location: SourceLocation
  }

  /// The box: never written (a write builds a new box), so reads need no exclusivity checks.
  @usableFromInline final class Box: Sendable {
    @usableFromInline let fields: Fields
    @usableFromInline init(_ fields: Fields) { self.fields = fields }
  }

  @usableFromInline var box: Box

  @inlinable public var id: String {
    _read { yield box.fields.id }
    _modify {
      var fields = box.fields
      defer { box = Box(fields) }
      yield &fields.id
    }
  }
  @inlinable public var name: String {
    _read { yield box.fields.name }
    _modify {
      var fields = box.fields
      defer { box = Box(fields) }
      yield &fields.name
    }
  }
  @inlinable public var kind: Kind {
    _read { yield box.fields.kind }
    _modify {
      var fields = box.fields
      defer { box = Box(fields) }
      yield &fields.kind
    }
  }
  /// The type as written, for messages about unknown types.
  @inlinable public var type: String {
    _read { yield box.fields.type }
    _modify {
      var fields = box.fields
      defer { box = Box(fields) }
      yield &fields.type
    }
  }
  @inlinable public var order: Int {
    _read { yield box.fields.order }
    _modify {
      var fields = box.fields
      defer { box = Box(fields) }
      yield &fields.order
    }
  }
  @inlinable public var content: ScreenContent {
    _read { yield box.fields.content }
    _modify {
      var fields = box.fields
      defer { box = Box(fields) }
      yield &fields.content
    }
  }
  @inlinable public var rules: [Rule] {
    _read { yield box.fields.rules }
    _modify {
      var fields = box.fields
      defer { box = Box(fields) }
      yield &fields.rules
    }
  }
  /// Default successor (extension).
  @inlinable public var next: Target? {
    _read { yield box.fields.next }
    _modify {
      var fields = box.fields
      defer { box = Box(fields) }
      yield &fields.next
    }
  }
  @inlinable public var hideProgress: Bool {
    _read { yield box.fields.hideProgress }
    _modify {
      var fields = box.fields
      defer { box = Box(fields) }
      yield &fields.hideProgress
    }
  }
  @inlinable public var hideBack: Bool {
    _read { yield box.fields.hideBack }
    _modify {
      var fields = box.fields
      defer { box = Box(fields) }
      yield &fields.hideBack
    }
  }
  /// The sub-flow a `flow` screen runs.
  @inlinable public var subflow: String? {
    _read { yield box.fields.subflow }
    _modify {
      var fields = box.fields
      defer { box = Box(fields) }
      yield &fields.subflow
    }
  }
  /// A `filler` screen advances by itself after this much virtual time.
  @inlinable public var autoAdvanceMs: Double? {
    _read { yield box.fields.autoAdvanceMs }
    _modify {
      var fields = box.fields
      defer { box = Box(fields) }
      yield &fields.autoAdvanceMs
    }
  }
  /// Whether that advance validates the screen first, as a tap on `next` does (AppDNA's timers
  /// and loaders); a filler does not (extension).
  @inlinable public var autoAdvanceValidates: Bool {
    _read { yield box.fields.autoAdvanceValidates }
    _modify {
      var fields = box.fields
      defer { box = Box(fields) }
      yield &fields.autoAdvanceValidates
    }
  }
  /// Runs as soon as the screen is entered; if it navigates away the screen is never shown.
  @inlinable public var onEnter: Action? {
    _read { yield box.fields.onEnter }
    _modify {
      var fields = box.fields
      defer { box = Box(fields) }
      yield &fields.onEnter
    }
  }
  /// How the screen animates in (shown in traces).
  @inlinable public var transition: ScreenTransition? {
    _read { yield box.fields.transition }
    _modify {
      var fields = box.fields
      defer { box = Box(fields) }
      yield &fields.transition
    }
  }
  /// Called before a submitted screen is left when no host hook answers (AppDNA's step `hook`).
  @inlinable public var webhook: Webhook? {
    _read { yield box.fields.webhook }
    _modify {
      var fields = box.fields
      defer { box = Box(fields) }
      yield &fields.webhook
    }
  }
  /// An AppDNA `interactive_chat` step's conversation: the step parks for chat turns and its
  /// button submits the transcript.
  @inlinable public var chat: ChatConfig? {
    _read { yield box.fields.chat }
    _modify {
      var fields = box.fields
      defer { box = Box(fields) }
      yield &fields.chat
    }
  }
  @inlinable public var location: SourceLocation {
    _read { yield box.fields.location }
    _modify {
      var fields = box.fields
      defer { box = Box(fields) }
      yield &fields.location
    }
  }

  public static func == (a: Screen, b: Screen) -> Bool {
    a.box.fields == b.box.fields
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(box.fields)
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
    box = Box(
      Fields(
        id: id, name: name, kind: kind, type: type, order: order, content: content, rules: rules, next: next,
        hideProgress: hideProgress, hideBack: hideBack, subflow: subflow, autoAdvanceMs: autoAdvanceMs,
        onEnter: onEnter, transition: transition, location: location))
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

  /// True when the screen is made of blocks; false for the legacy layout.
  public var usesBlocks: Bool
  /// Top-level blocks in reading order (`position.y`, then `order`, then array order).
  public var blocks: [Block]
  /// Every block in reading order with containers' children in place of their container.
  public var flatBlocks: [Block]

  public var title: TextTemplate?
  /// `subtitle`, else `body`.
  public var subtitle: TextTemplate?
  public var icon: String?
  public var image: String?
  public var buttonText: TextTemplate
  public var buttonAction: Action
  public var skipText: TextTemplate?
  public var skipAction: Action?
  public var slides: [Slide]
  public var permissionType: String?
  /// The host's identifier of a `native` screen.
  public var identifier: String?

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
    self.usesBlocks = usesBlocks
    self.blocks = blocks
    // Shared with `blocks` unless a scroll container needs flattening: a copy per screen
    // showed in profiles of big files.
    let hasContainer = blocks.contains { $0.content.children != nil }
    self.flatBlocks = hasContainer ? blocks.flatMap(Self.flatten) : blocks
    self.title = title
    self.subtitle = subtitle
    self.icon = icon
    self.image = image
    self.buttonText = buttonText
    self.buttonAction = buttonAction
    self.skipText = skipText
    self.skipAction = skipAction
    self.slides = slides
    self.permissionType = permissionType
    self.identifier = identifier
  }

  private static func flatten(_ block: Block) -> [Block] {
    block.content.children?.flatMap(flatten) ?? [block]
  }
}
