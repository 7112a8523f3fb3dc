import FlowEngine
import FlowExpression
import FlowFormat
import FlowPattern

/// What a screen does, without where it is written: its type, the texts it shows, the fields
/// it collects, its rules and the actions of its controls, each as a short line. Two versions
/// of a screen that behave the same have equal summaries, however their JSON is laid out.
public struct ScreenSummary: Hashable, Sendable {
  public var id: String
  public var type: String
  public var texts: [String]
  /// `name (kind, required)` for each collecting block, in reading order.
  public var fields: [String: String]
  public var fieldOrder: [String]
  public var rules: [String]
  public var actions: [String]

  public init(_ screen: Screen) {
    id = screen.id
    type = screen.kind == .flow ? "flow \(screen.subflow ?? "?")" : screen.type
    var texts: [String] = []
    var fields: [String: String] = [:]
    var order: [String] = []
    var actions: [String] = []
    let content = screen.content
    if content.usesBlocks {
      for block in content.flatBlocks {
        block.forEachTemplate { texts.append($0.raw) }
        if let field = block.content.fieldName {
          fields[field] = Self.field(block)
          order.append(field)
        }
        if let control = block.content.control {
          actions.append("`\(control.label.raw)` → \(Self.describe(control.action))")
        }
        if case .choice(let choice) = block.content, !choice.allowMultiple, choice.autoAdvance {
          actions.append("choosing `\(choice.fieldName ?? block.id)` → \(Self.describe(choice.action))")
        }
      }
    } else {
      texts += [content.title?.raw, content.subtitle?.raw].compactMap { $0 }
    }
    if !content.usesBlocks || content.blocks.allSatisfy({ $0.content.control == nil }) {
      actions.append("`\(content.buttonText.raw)` → \(Self.describe(content.buttonAction))")
    }
    if let skip = content.skipText {
      actions.append("skip `\(skip.raw)` → \(content.skipAction.map(Self.describe) ?? "skip")")
    }
    if let onEnter = screen.onEnter { actions.append("on enter → \(Self.describe(onEnter))") }
    if let ms = screen.autoAdvanceMs { actions.append("after \(Int64(ms)) ms → next") }
    var rules = screen.rules.map { rule in
      let leads = rule.then.map(Self.describe) ?? rule.traceTarget
      return "\(rule.when.map { "when `\($0.source)`" } ?? "always") → \(leads)"
    }
    if let next = screen.next { rules.append("next → \(next)") }
    self.texts = texts
    self.fields = fields
    self.fieldOrder = order
    self.rules = rules
    self.actions = actions
  }

  static func field(_ block: Block) -> String {
    var parts: [String] = []
    switch block.content {
    case .input(let input):
      parts.append(input.kind.rawValue)
      if input.required { parts.append("required") }
      if let pattern = input.pattern { parts.append("pattern \(pattern.source)") }
      for (name, bound) in [("minLength", input.minLength), ("maxLength", input.maxLength)] {
        if let bound { parts.append("\(name) \(bound)") }
      }
      for (name, bound) in [("min", input.min), ("max", input.max)] {
        if let bound { parts.append("\(name) \(Value.number(bound).displayString)") }
      }
    case .choice(let choice):
      parts.append(choice.allowMultiple ? "multiple choice" : "choice")
      parts.append("options " + choice.items.map(\.value).joined(separator: ", "))
      if choice.required { parts.append("required") }
    case .slider(let slider):
      parts.append("slider \(Value.number(slider.min).displayString)…\(Value.number(slider.max).displayString)")
    case .toggle: parts.append("toggle")
    default: parts.append(block.type)
    }
    return parts.joined(separator: ", ")
  }

  /// An action as one line: `next`, `goto about_you`, `custom auth.apple (success → home)`.
  public static func describe(_ action: Action) -> String {
    switch action {
    case .next: return "next"
    case .previous: return "previous"
    case .screen(let id): return "goto \(id)"
    case .complete: return "complete"
    case .skip: return "skip"
    case .dismiss: return "dismiss"
    case .openURL(let url): return "open \(url)"
    case .unknown(let type): return "\(type) (unknown, runs as next)"
    case .custom(let custom):
      let outcomes = [("success", custom.onSuccess), ("failure", custom.onFailure), ("cancel", custom.onCancel)]
        .compactMap { name, action in action.map { "\(name) → \(describe($0))" } }
      let awaited = custom.awaitResult ? " awaited" : ""
      return "custom \(custom.identifier)\(awaited)"
        + (outcomes.isEmpty ? "" : " (\(outcomes.joined(separator: "; ")))")
    case .sequence(let actions): return actions.map(describe).joined(separator: " then ")
    case .back(let steps): return steps == 1 ? "back" : "back \(steps)"
    case .set(let path, let value): return "set \(path.joined(separator: ".")) = \(value.displayString)"
    case .emit(let name, _): return "send \(name)"
    case .branch(let branches, let otherwise):
      let arms =
        branches.map { "\($0.id) → \(describe($0.action))" }
        + [otherwise.map { "otherwise → \(describe($0))" }]
        .compactMap { $0 }
      return "branch (\(arms.joined(separator: "; ")))"
    case .experiment(let id, let arms):
      return "experiment \(id) (\(arms.map { "\($0.variant) → \(describe($0.action))" }.joined(separator: "; ")))"
    case .wait(let wait):
      return "\(wait.typeName) (then → \(describe(wait.then)); otherwise → \(describe(wait.otherwise)))"
    case .step(let id): return "step \(id)"
    }
  }
}
