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
///
/// Its fields live in one shared, immutable box, as `Block`'s do: binding an input out of a
/// block's content copied every field (about 350 instructions with the copy's release, on
/// every validation and answer of the engine). A copy is now one retain; a write builds a new
/// box.
public struct InputBlock: Hashable, Sendable {
  /// `text` `email` `number` `phone` `password` `url` `date`, and AppDNA's `location`
  /// (`LocationResult`: an object), `time`, `datetime`, `color` and `range` (`ValueShapes`;
  /// none of these is a Sequence `inputType`).
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    case text, email, number, phone, password, url, date, location, time, datetime, color, range

    /// The kinds a Sequence `inputType` names.
    public static let sequenceKinds: [Kind] = [.text, .email, .number, .phone, .password, .url, .date]
  }

  /// The stored fields (compared and hashed as the input's value).
  @usableFromInline struct Fields: Hashable, Sendable {
    @usableFromInline var fieldName: String?
    @usableFromInline var label: TextTemplate?
    @usableFromInline var placeholder: TextTemplate?
    @usableFromInline var kind: Kind
    @usableFromInline var required: Bool
    @usableFromInline var pattern: Pattern?
    @usableFromInline var patternMessage: String?
    @usableFromInline var minLength: Int?
    @usableFromInline var maxLength: Int?
    @usableFromInline var min: Double?
    @usableFromInline var max: Double?
    @usableFromInline var defaultValue: Value?
    @usableFromInline var secret: Bool
    @usableFromInline var storesISO = false
    @usableFromInline var rangeKeys = ["low", "high"]
    @usableFromInline var dateBounds: DateBounds?
  }

  /// The box: never written (a write builds a new box), so reads need no exclusivity checks.
  @usableFromInline typealias Box = SharedValue<Fields>

  @usableFromInline var box: Box

  /// The fields, written through: a write builds a new box.
  @usableFromInline var fields: Fields {
    get { box.value }
    set { box = Box(newValue) }
  }

  @inlinable public var fieldName: String? {
    _read { yield box.value.fieldName }
    _modify { yield &fields.fieldName }
  }
  @inlinable public var label: TextTemplate? {
    _read { yield box.value.label }
    _modify { yield &fields.label }
  }
  @inlinable public var placeholder: TextTemplate? {
    _read { yield box.value.placeholder }
    _modify { yield &fields.placeholder }
  }
  @inlinable public var kind: Kind {
    _read { yield box.value.kind }
    _modify { yield &fields.kind }
  }
  @inlinable public var required: Bool {
    _read { yield box.value.required }
    _modify { yield &fields.required }
  }
  /// Whole-string regular expression (extension), compiled at load.
  @inlinable public var pattern: Pattern? {
    _read { yield box.value.pattern }
    _modify { yield &fields.pattern }
  }
  @inlinable public var patternMessage: String? {
    _read { yield box.value.patternMessage }
    _modify { yield &fields.patternMessage }
  }
  @inlinable public var minLength: Int? {
    _read { yield box.value.minLength }
    _modify { yield &fields.minLength }
  }
  @inlinable public var maxLength: Int? {
    _read { yield box.value.maxLength }
    _modify { yield &fields.maxLength }
  }
  @inlinable public var min: Double? {
    _read { yield box.value.min }
    _modify { yield &fields.min }
  }
  @inlinable public var max: Double? {
    _read { yield box.value.max }
    _modify { yield &fields.max }
  }
  @inlinable public var defaultValue: Value? {
    _read { yield box.value.defaultValue }
    _modify { yield &fields.defaultValue }
  }
  /// Whether the answer is a secret (masked wherever flowrun shows or stores it, see
  /// docs/security.md): the extension key `secret`, else true for `inputType: password`.
  @inlinable public var secret: Bool {
    _read { yield box.value.secret }
    _modify { yield &fields.secret }
  }
  /// `date`, `time`, `datetime`: stored as a full ISO-8601 UTC string (AppDNA's input blocks),
  /// else as entered (`1990-05-14`, `09:30`, `2026-01-01T09:30:00`: AppDNA's form fields).
  @inlinable public var storesISO: Bool {
    _read { yield box.value.storesISO }
    _modify { yield &fields.storesISO }
  }
  /// `range`: the keys of the stored object (AppDNA: `low`/`high` for a form field, `min`/`max`
  /// for a block); `min`/`max` above are the bounds.
  @inlinable public var rangeKeys: [String] {
    _read { yield box.value.rangeKeys }
    _modify { yield &fields.rangeKeys }
  }
  /// `date`, `datetime`: the calendar dates (`YYYY-MM-DD`) the answer's date must lie within.
  @inlinable public var dateBounds: DateBounds? {
    _read { yield box.value.dateBounds }
    _modify { yield &fields.dateBounds }
  }

  public static func == (a: InputBlock, b: InputBlock) -> Bool {
    a.box.value == b.box.value
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(box.value)
  }

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
    box = Box(
      Fields(
        fieldName: fieldName, label: label, placeholder: placeholder, kind: kind, required: required,
        pattern: pattern, patternMessage: patternMessage, minLength: minLength, maxLength: maxLength, min: min,
        max: max, defaultValue: defaultValue, secret: secret ?? (kind == .password)))
  }
}

/// A `checklist`, `quiz-question` or `goal-selector` block.
///
/// Its fields live in one shared, immutable box, as `InputBlock`'s do (a pick bound the choice
/// out of the block's content, copying every field).
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

  /// The stored fields (compared and hashed as the choice's value).
  @usableFromInline struct Fields: Hashable, Sendable {
    @usableFromInline var fieldName: String?
    @usableFromInline var label: TextTemplate?
    @usableFromInline var items: [Item]
    @usableFromInline var allowMultiple: Bool
    @usableFromInline var minSelections: Int?
    @usableFromInline var maxSelections: Int?
    @usableFromInline var required: Bool
    @usableFromInline var action: Action
    @usableFromInline var autoAdvance: Bool
  }

  /// The box: never written (a write builds a new box), so reads need no exclusivity checks.
  @usableFromInline typealias Box = SharedValue<Fields>

  @usableFromInline var box: Box

  /// The fields, written through: a write builds a new box.
  @usableFromInline var fields: Fields {
    get { box.value }
    set { box = Box(newValue) }
  }

  @inlinable public var fieldName: String? {
    _read { yield box.value.fieldName }
    _modify { yield &fields.fieldName }
  }
  @inlinable public var label: TextTemplate? {
    _read { yield box.value.label }
    _modify { yield &fields.label }
  }
  @inlinable public var items: [Item] {
    _read { yield box.value.items }
    _modify { yield &fields.items }
  }
  @inlinable public var allowMultiple: Bool {
    _read { yield box.value.allowMultiple }
    _modify { yield &fields.allowMultiple }
  }
  @inlinable public var minSelections: Int? {
    _read { yield box.value.minSelections }
    _modify { yield &fields.minSelections }
  }
  @inlinable public var maxSelections: Int? {
    _read { yield box.value.maxSelections }
    _modify { yield &fields.maxSelections }
  }
  @inlinable public var required: Bool {
    _read { yield box.value.required }
    _modify { yield &fields.required }
  }
  @inlinable public var action: Action {
    _read { yield box.value.action }
    _modify { yield &fields.action }
  }
  /// A single-select pick runs `action` at once.
  @inlinable public var autoAdvance: Bool {
    _read { yield box.value.autoAdvance }
    _modify { yield &fields.autoAdvance }
  }

  /// Whether a pick runs `action` at once: single-select with `autoAdvance` (a multi-select
  /// checklist waits for a button).
  @inlinable public var runsActionOnPick: Bool { !allowMultiple && autoAdvance }

  public static func == (a: ChoiceBlock, b: ChoiceBlock) -> Bool {
    a.box.value == b.box.value
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(box.value)
  }

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
    box = Box(
      Fields(
        fieldName: fieldName, label: label, items: items, allowMultiple: allowMultiple,
        minSelections: minSelections, maxSelections: maxSelections, required: required, action: action,
        autoAdvance: autoAdvance))
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
