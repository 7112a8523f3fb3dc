import FlowExpression
import FlowPattern

/// One block of a block-based screen: the envelope (id, order, visibility) and its content.
public struct Block: Hashable, Sendable {
  public var id: String
  /// The type as written (`text`, `quiz-question`, ...), kept for messages and unknown types.
  public var type: String
  public var order: Int
  /// `visible: false` hides the block for good.
  public var visible: Bool
  /// Extension: the block shows only while this holds.
  public var visibleWhen: Condition?
  public var content: BlockContent
  public var location: SourceLocation

  public init(
    id: String,
    type: String,
    order: Int,
    visible: Bool,
    visibleWhen: Condition?,
    content: BlockContent,
    location: SourceLocation
  ) {
    self.id = id
    self.type = type
    self.order = order
    self.visible = visible
    self.visibleWhen = visibleWhen
    self.content = content
    self.location = location
  }

  /// The field this block collects into, if it collects anything.
  public var fieldName: String? {
    switch content {
    case .input(let input): input.fieldName
    case .choice(let choice): choice.fieldName
    case .slider(let slider): slider.fieldName
    case .toggle(let toggle): toggle.fieldName
    default: nil
    }
  }

  /// Whether the field this block collects is a secret (today: inputs, see `InputBlock.secret`).
  public var isSecret: Bool {
    if case .input(let input) = content { return input.secret }
    return false
  }
}

/// What a block holds, by kind.
public enum BlockContent: Hashable, Sendable {
  case text(TextBlock)
  /// `image`, `video` and `lottie`: shown as a placeholder line.
  case media(kind: String, src: String?, alt: String?)
  case icon(String)
  case button(ButtonBlock)
  case input(InputBlock)
  /// `checklist`, `quiz-question` and `goal-selector`.
  case choice(ChoiceBlock)
  case slider(SliderBlock)
  case toggle(ToggleBlock)
  case progress(variant: String)
  case spacer
  case divider
  case featureCard(headline: TextTemplate?, body: TextTemplate?)
  /// Children behave as top-level blocks (they are flattened into the screen at load).
  case scrollContainer([Block])
  case custom(identifier: String?, props: Value)
  case unsupported
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

  public var text: TextTemplate?
  /// `h1` `h2` `h3` `body` `caption` `label`; nil means body.
  public var variant: String?
  /// When non-empty, replaces `text`.
  public var richText: [Span]

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
  public var variant: String?
  public var preset: String?

  public init(text: TextTemplate, action: Action, variant: String?, preset: String?) {
    self.text = text
    self.action = action
    self.variant = variant
    self.preset = preset
  }
}

/// An `input` block.
public struct InputBlock: Hashable, Sendable {
  /// `text` `email` `number` `phone` `password` `url` `date`.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    case text, email, number, phone, password, url, date
  }

  public var fieldName: String?
  public var label: TextTemplate?
  public var placeholder: TextTemplate?
  public var kind: Kind
  public var required: Bool
  /// Whole-string regular expression (extension), compiled at load.
  public var pattern: Pattern?
  public var patternMessage: String?
  public var minLength: Int?
  public var maxLength: Int?
  public var min: Double?
  public var max: Double?
  public var defaultValue: Value?
  /// Whether the answer is a secret (masked wherever flowrun shows or stores it, see
  /// docs/security.md): the extension key `secret`, else true for `inputType: password`.
  public var secret: Bool

  public init(
    fieldName: String?,
    label: TextTemplate?,
    placeholder: TextTemplate?,
    kind: Kind,
    required: Bool,
    pattern: Pattern?,
    patternMessage: String?,
    minLength: Int?,
    maxLength: Int?,
    min: Double?,
    max: Double?,
    defaultValue: Value?,
    secret: Bool? = nil
  ) {
    self.fieldName = fieldName
    self.label = label
    self.placeholder = placeholder
    self.kind = kind
    self.required = required
    self.pattern = pattern
    self.patternMessage = patternMessage
    self.minLength = minLength
    self.maxLength = maxLength
    self.min = min
    self.max = max
    self.defaultValue = defaultValue
    self.secret = secret ?? (kind == .password)
  }
}

/// A `checklist`, `quiz-question` or `goal-selector` block.
public struct ChoiceBlock: Hashable, Sendable {
  /// One option.
  public struct Item: Hashable, Sendable {
    public var id: String
    public var label: TextTemplate
    /// What is collected: `value` when given, else `id`.
    public var value: String

    public init(id: String, label: TextTemplate, value: String) {
      self.id = id
      self.label = label
      self.value = value
    }
  }

  public var fieldName: String?
  public var label: TextTemplate?
  public var items: [Item]
  public var allowMultiple: Bool
  public var minSelections: Int?
  public var maxSelections: Int?
  public var required: Bool
  public var action: Action
  /// A single-select pick runs `action` at once.
  public var autoAdvance: Bool

  public init(
    fieldName: String?,
    label: TextTemplate?,
    items: [Item],
    allowMultiple: Bool,
    minSelections: Int?,
    maxSelections: Int?,
    required: Bool,
    action: Action,
    autoAdvance: Bool
  ) {
    self.fieldName = fieldName
    self.label = label
    self.items = items
    self.allowMultiple = allowMultiple
    self.minSelections = minSelections
    self.maxSelections = maxSelections
    self.required = required
    self.action = action
    self.autoAdvance = autoAdvance
  }
}

/// A `slider` block.
public struct SliderBlock: Hashable, Sendable {
  public var fieldName: String?
  public var label: TextTemplate?
  public var min: Double
  public var max: Double
  public var step: Double
  public var defaultValue: Double
  public var valuePrefix: String?
  public var valueSuffix: String?

  public init(
    fieldName: String?,
    label: TextTemplate?,
    min: Double,
    max: Double,
    step: Double,
    defaultValue: Double,
    valuePrefix: String?,
    valueSuffix: String?
  ) {
    self.fieldName = fieldName
    self.label = label
    self.min = min
    self.max = max
    self.step = step
    self.defaultValue = defaultValue
    self.valuePrefix = valuePrefix
    self.valueSuffix = valueSuffix
  }
}

/// A `toggle` block (extension).
public struct ToggleBlock: Hashable, Sendable {
  public var fieldName: String?
  public var label: TextTemplate?
  public var defaultValue: Bool

  public init(fieldName: String?, label: TextTemplate?, defaultValue: Bool) {
    self.fieldName = fieldName
    self.label = label
    self.defaultValue = defaultValue
  }
}
