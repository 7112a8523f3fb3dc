import FlowExpression
import FlowPattern

/// The content of a block that collects a value (`BlockContent.field`), by kind. Engine,
/// renderer, driver and analysis switch over these kinds (each switch exhaustive), so a new
/// field type is a compile error wherever it must be handled; the facts below are shared.
///
/// | kind | value (`valueType`) | label | secret | default (`BlockContent.fieldDefault`) | runs on answer |
/// |---|---|---|---|---|---|
/// | input | `text`; `number` for `inputType: number` | `label` | `secret` | `defaultValue` | – |
/// | choice | `option`; `options` when `allowMultiple` | `label` | no | – | `action`, single-select with `autoAdvance` |
/// | slider | `number` | `label` | no | `defaultValue` (`min`) | – |
/// | toggle | `bool` | `label` | no | `defaultValue` (false) | – |
public enum FieldContent: Hashable, Sendable {
  case input(InputBlock)
  case choice(ChoiceBlock)
  case slider(SliderBlock)
  case toggle(ToggleBlock)

  /// The field the value is collected into (nil: the block collects nothing).
  public var fieldName: String? {
    switch self {
    case .input(let input): input.fieldName
    case .choice(let choice): choice.fieldName
    case .slider(let slider): slider.fieldName
    case .toggle(let toggle): toggle.fieldName
    }
  }

  /// The label shown with the field and in its prompt (the field name stands in when absent).
  public var label: TextTemplate? {
    switch self {
    case .input(let input): input.label
    case .choice(let choice): choice.label
    case .slider(let slider): slider.label
    case .toggle(let toggle): toggle.label
    }
  }

  /// What the field stores.
  public var valueType: FieldValueType {
    switch self {
    case .input(let input): input.kind == .number ? .number : .text
    case .choice(let choice): choice.allowMultiple ? .options : .option
    case .slider: .number
    case .toggle: .bool
    }
  }

  /// Whether the answer is a secret (masked wherever flowrun shows or stores it).
  public var isSecret: Bool {
    switch self {
    case .input(let input): input.secret
    case .choice, .slider, .toggle: false
    }
  }

  /// The action an answer runs at once (a single-select checklist with `autoAdvance`).
  public var answerAction: Action? {
    switch self {
    case .choice(let choice): choice.runsActionOnPick ? choice.action : nil
    case .input, .slider, .toggle: nil
    }
  }

  /// The texts the field shows, in reading order (see `BlockContent.forEachText`).
  @inlinable func forEachText(_ body: (BlockText) -> Void) {
    switch self {
    case .input(let input):
      if let label = input.label { body(.template(label)) }
      if let placeholder = input.placeholder { body(.template(placeholder)) }
    case .choice(let choice):
      if let label = choice.label { body(.template(label)) }
      for item in choice.items { body(.template(item.label)) }
    case .slider, .toggle:
      if let label { body(.template(label)) }
    }
  }
}

/// What a field stores.
public enum FieldValueType: String, Hashable, Sendable, CaseIterable {
  /// A string.
  case text
  /// A number.
  case number
  /// true or false.
  case bool
  /// One option's value (a string), answered with `pick`.
  case option
  /// A list of option values, answered with `pick`.
  case options

  /// Whether the field is answered by picking options (`pick`, a script's `select:`).
  public var isPicked: Bool {
    switch self {
    case .option, .options: true
    case .text, .number, .bool: false
    }
  }
}

/// An `input` block.
public struct InputBlock: Hashable, Sendable {
  /// `text` `email` `number` `phone` `password` `url` `date`, and AppDNA's `location`
  /// (`LocationResult`: an object), `time`, `datetime`, `color` and `range` (`ValueShapes`;
  /// none of these is a Sequence `inputType`).
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    case text, email, number, phone, password, url, date, location, time, datetime, color, range

    /// The kinds a Sequence `inputType` names.
    public static let sequenceKinds: [Kind] = [.text, .email, .number, .phone, .password, .url, .date]
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
  /// `date`, `time`, `datetime`: stored as a full ISO-8601 UTC string (AppDNA's input blocks),
  /// else as entered (`1990-05-14`, `09:30`, `2026-01-01T09:30:00`: AppDNA's form fields).
  public var storesISO = false
  /// `range`: the keys of the stored object (AppDNA: `low`/`high` for a form field, `min`/`max`
  /// for a block); `min`/`max` above are the bounds.
  public var rangeKeys = ["low", "high"]
  /// `date`, `datetime`: the calendar dates (`YYYY-MM-DD`) the answer's date must lie within.
  public var dateBounds: DateBounds?

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

  /// Whether a pick runs `action` at once: single-select with `autoAdvance` (a multi-select
  /// checklist waits for a button).
  public var runsActionOnPick: Bool { !allowMultiple && autoAdvance }

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
