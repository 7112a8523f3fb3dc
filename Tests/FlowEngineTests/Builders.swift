import FlowEngine
import FlowExpression
import FlowFormat
import FlowPattern

// Flows built in code with the model's initialisers, so each test shows the whole flow it uses.

let here = SourceLocation(line: 1, column: 1, offset: 0)

func tpl(_ text: String) -> TextTemplate { TextTemplate(template: Template(parsing: text), location: nil) }

func cond(_ text: String) -> Condition {
  // swift-format-ignore
  try! Condition.parse(text)
}

func rule(_ when: String?, _ goto: String) -> Rule {
  Rule(when: when.map(cond), goto: Target(goto), location: here)
}

func block(
  _ id: String, _ type: String, _ content: BlockContent, visible: Bool = true, when: String? = nil
)
  -> Block
{
  Block(id: id, type: type, order: 0, visible: visible, visibleWhen: when.map(cond), content: content, location: here)
}

func button(_ id: String, _ text: String, _ action: Action = .next, when: String? = nil) -> Block {
  block(id, "button", .button(ButtonBlock(text: tpl(text), action: action, variant: nil, preset: nil)), when: when)
}

func text(_ id: String, _ text: String) -> Block {
  block(id, "text", .text(TextBlock(text: tpl(text), variant: nil, richText: [])))
}

func input(
  _ field: String, kind: InputBlock.Kind = .text, required: Bool = false, pattern: String? = nil,
  patternMessage: String? = nil, minLength: Int? = nil, maxLength: Int? = nil, min: Double? = nil,
  max: Double? = nil, defaultValue: Value? = nil, visible: Bool = true, when: String? = nil
) -> Block {
  block(
    "in_\(field)", "input",
    .input(
      InputBlock(
        fieldName: field, label: tpl(field), placeholder: nil, kind: kind, required: required,
        pattern: pattern.map { try! Pattern($0) },
        patternMessage: patternMessage, minLength: minLength, maxLength: maxLength, min: min, max: max,
        defaultValue: defaultValue)), visible: visible, when: when)
}

func checklist(
  _ field: String, _ items: [(id: String, label: String, value: String?)], multiple: Bool = false,
  min: Int? = nil, max: Int? = nil, required: Bool = false, action: Action = .next, autoAdvance: Bool = true
) -> Block {
  block(
    "cl_\(field)", "checklist",
    .choice(
      ChoiceBlock(
        fieldName: field, label: tpl(field),
        items: items.map { ChoiceBlock.Item(id: $0.id, label: tpl($0.label), value: $0.value ?? $0.id) },
        allowMultiple: multiple, minSelections: min, maxSelections: max, required: required, action: action,
        autoAdvance: autoAdvance)))
}

let goals: [(id: String, label: String, value: String?)] = [
  ("lose", "Lose weight", nil), ("build", "Build muscle", "muscle"), ("fit", "Stay fit", nil),
]

func slider(_ field: String, min: Double = 0, max: Double = 10, step: Double = 1, defaultValue: Double = 2) -> Block {
  block(
    "sl_\(field)", "slider",
    .slider(
      SliderBlock(
        fieldName: field, label: tpl(field), min: min, max: max, step: step, defaultValue: defaultValue,
        valuePrefix: nil, valueSuffix: nil)))
}

func toggle(_ field: String, defaultValue: Bool = false) -> Block {
  block("tg_\(field)", "toggle", .toggle(ToggleBlock(fieldName: field, label: tpl(field), defaultValue: defaultValue)))
}

func screen(
  _ id: String, _ blocks: [Block], kind: Screen.Kind = .feature, rules: [Rule] = [], next: String? = nil,
  skipText: String? = nil, skipAction: Action? = nil, hideBack: Bool = false, subflow: String? = nil,
  autoAdvanceMs: Double? = nil, onEnter: Action? = nil, identifier: String? = nil
) -> Screen {
  Screen(
    id: id, name: id.uppercased(), kind: kind, type: kind.rawValue, order: 0,
    content: ScreenContent(
      usesBlocks: !blocks.isEmpty, blocks: blocks, title: tpl(id), buttonText: tpl("Continue"),
      skipText: skipText.map(tpl), skipAction: skipAction, identifier: identifier),
    rules: rules, next: next.map(Target.init), hideBack: hideBack, subflow: subflow, autoAdvanceMs: autoAdvanceMs,
    onEnter: onEnter, location: here)
}

func legacy(
  _ id: String, button: String = "Continue", action: Action = .next, kind: Screen.Kind = .welcome,
  skipText: String? = nil, skipAction: Action? = nil, onEnter: Action? = nil, autoAdvanceMs: Double? = nil,
  identifier: String? = nil, subflow: String? = nil, rules: [Rule] = []
) -> Screen {
  Screen(
    id: id, name: id.uppercased(), kind: kind, type: kind.rawValue, order: 0,
    content: ScreenContent(
      usesBlocks: false, blocks: [], title: tpl(id), buttonText: tpl(button), buttonAction: action,
      skipText: skipText.map(tpl), skipAction: skipAction, identifier: identifier),
    rules: rules, subflow: subflow, autoAdvanceMs: autoAdvanceMs, onEnter: onEnter, location: here)
}

func flow(
  _ id: String, _ screens: [Screen], settings: FlowSettings = FlowSettings(), version: Int = 3,
  assigned: AssignedExperiment? = nil, experiments: [Experiment] = []
) -> Flow {
  let ordered = screens.enumerated().map { index, screen in
    var copy = screen
    copy.order = index
    return copy
  }
  return Flow(
    id: id, name: id, version: version, screens: ordered, settings: settings, assignedExperiment: assigned,
    experiments: experiments, location: here)
}

func document(_ flows: Flow..., experiments: [Experiment] = []) -> FlowDocument {
  FlowDocument(
    shape: flows.count > 1 ? .bundle : .flow, flows: flows, entryFlowID: flows[0].id,
    experiments: experiments + flows[0].experiments)
}

let jan2026: Int64 = 1_767_225_600_000

func begin(_ document: FlowDocument, _ config: SessionConfig = SessionConfig(now: jan2026)) -> (Session, [Output]) {
  do {
    return try Session.start(document: document, config: config)
  } catch {
    fatalError("start failed: \(error)")
  }
}

func begin(_ flow: Flow, _ config: SessionConfig = SessionConfig(now: jan2026)) -> Session {
  begin(document(flow), config).0
}

extension Array where Element == Output {
  var eventTypes: [String] {
    compactMap { if case .event(let event) = $0 { event.type.rawValue } else { nil } }
  }
  var events: [Event] {
    compactMap { if case .event(let event) = $0 { event } else { nil } }
  }
  var rejection: String? {
    for output in self { if case .rejected(let message) = output { return message } }
    return nil
  }
}

/// A linear three-screen flow of legacy screens: a → b → c.
func abc(settings: FlowSettings = FlowSettings()) -> Flow {
  flow("abc", [legacy("a"), legacy("b"), legacy("c")], settings: settings)
}
