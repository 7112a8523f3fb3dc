/// One screen of a flow.
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

  public var id: String
  public var name: String
  public var kind: Kind
  /// The type as written, for messages about unknown types.
  public var type: String
  public var order: Int
  public var content: ScreenContent
  public var rules: [Rule]
  /// Default successor (extension).
  public var next: Target?
  public var hideProgress: Bool
  public var hideBack: Bool
  /// The sub-flow a `flow` screen runs.
  public var subflow: String?
  /// A `filler` screen advances by itself after this much virtual time.
  public var autoAdvanceMs: Double?
  /// Whether that advance validates the screen first, as a tap on `next` does (AppDNA's timers
  /// and loaders); a filler does not (extension).
  public var autoAdvanceValidates = false
  /// Runs as soon as the screen is entered; if it navigates away the screen is never shown.
  public var onEnter: Action?
  /// How the screen animates in (shown in traces).
  public var transition: ScreenTransition?
  /// Called before a submitted screen is left when no host hook answers (AppDNA's step `hook`).
  public var webhook: Webhook?
  /// An AppDNA `interactive_chat` step's conversation: the step parks for chat turns and its
  /// button submits the transcript.
  public var chat: ChatConfig?
  public var location: SourceLocation

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
    self.id = id
    self.name = name
    self.kind = kind
    self.type = type
    self.order = order
    self.content = content
    self.rules = rules
    self.next = next
    self.hideProgress = hideProgress
    self.hideBack = hideBack
    self.subflow = subflow
    self.autoAdvanceMs = autoAdvanceMs
    self.onEnter = onEnter
    self.transition = transition
    self.location = location
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
