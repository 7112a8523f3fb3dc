import FlowEngine
import FlowExpression
import FlowFormat
import FlowReplay

extension BehaviourModelReader {
  /// The keys of each part of a model (docs/simulate-model.schema.json lists the same).
  public static let topKeys = ["version", "defaults", "screens", "fields", "actions", "traits", "assignment"]
  public static let defaultsKeys = ["drop_off", "dismiss", "optional_skip", "dwell", "platform", "locale"]
  public static let screenKeys = ["drop_off", "dismiss", "dwell", "controls"]
  public static let fieldKeys = ["skip", "weights", "uniform", "normal", "integer", "pool"]
  public static let traitKeys = ["weights", "uniform", "normal", "integer"]

  mutating func model(_ root: ScriptNode) -> BehaviourModel {
    var model = BehaviourModel()
    guard let members = mapping(root, "the model", known: Self.topKeys) else { return model }
    for member in members {
      switch member.key {
      case "version":
        if number(member.value, "version") != 1 {
          report(.Model.invalidValue, "version must be 1 (this flowrun reads version 1)", at: member.value.location)
        }
      case "defaults": defaults(member.value, into: &model)
      case "screens":
        let known = document.flows.flatMap { $0.screens.map(\.id) }
        for screen in mapping(member.value, "screens") ?? [] {
          unknownName(screen, "screen", known: known)
          model.screens[screen.key] = self.screen(screen.value, screen.key)
        }
      case "fields":
        let known = document.flows.flatMap { $0.screens.flatMap { $0.content.flatBlocks.compactMap(\.fieldName) } }
        for field in mapping(member.value, "fields") ?? [] {
          unknownName(field, "field", known: known)
          model.fields[field.key] = self.field(field.value, field.key)
        }
      case "actions":
        let known = Self.actionIdentifiers(document)
        for action in mapping(member.value, "actions") ?? [] {
          unknownName(action, "custom action or native screen", known: known)
          model.actions[action.key] = outcomes(action.value, action.key, nested: true)
        }
      case "traits":
        for trait in mapping(member.value, "traits") ?? [] {
          if let value = self.trait(trait.value, trait.key) { model.traits.append((trait.key, value)) }
        }
      default: assignment(member.value, into: &model)
      }
    }
    return model
  }

  mutating func defaults(_ node: ScriptNode, into model: inout BehaviourModel) {
    for member in mapping(node, "defaults", known: Self.defaultsKeys) ?? [] {
      switch member.key {
      case "drop_off": probability(member.value, "drop_off").map { model.dropOff = $0 }
      case "dismiss": probability(member.value, "dismiss").map { model.dismiss = $0 }
      case "optional_skip": probability(member.value, "optional_skip").map { model.optionalSkip = $0 }
      case "dwell": dwell(member.value).map { model.dwell = $0 }
      case "platform": text(member.value, "platform").map { model.platform = $0 }
      default: text(member.value, "locale").map { model.locale = $0 }
      }
    }
  }

  mutating func screen(_ node: ScriptNode, _ id: String) -> BehaviourModel.ScreenModel {
    var screen = BehaviourModel.ScreenModel()
    for member in mapping(node, "screen '\(id)'", known: Self.screenKeys) ?? [] {
      switch member.key {
      case "drop_off": screen.dropOff = probability(member.value, "drop_off")
      case "dismiss": screen.dismiss = probability(member.value, "dismiss")
      case "dwell": screen.dwell = dwell(member.value)
      default:
        for (control, weight) in weights(member.value, "controls of '\(id)'") ?? [] {
          screen.controls[control] = weight
        }
      }
    }
    return screen
  }

  mutating func field(_ node: ScriptNode, _ name: String) -> BehaviourModel.FieldModel {
    var field = BehaviourModel.FieldModel()
    let members = mapping(node, "field '\(name)'", known: Self.fieldKeys) ?? []
    for member in members {
      switch member.key {
      case "skip": field.skip = probability(member.value, "skip")
      case "weights": field.weights = weights(member.value, "weights of '\(name)'") ?? []
      case "integer":
        guard case .scalar(.bool(let flag)) = member.value.kind else {
          report(.Model.typeMismatch, "integer must be true or false", at: member.value.location)
          continue
        }
        field.integer = flag
      case "pool":
        let texts = (member.value.elements ?? []).compactMap { text($0, "a pool entry") }
        if texts.isEmpty { report(.Model.typeMismatch, "pool must be a list of texts", at: member.value.location) }
        field.pool = texts
      default: break
      }
    }
    field.numbers = numbers(members, "field '\(name)'")
    return field
  }

  mutating func outcomes(_ node: ScriptNode, _ name: String, nested: Bool) -> BehaviourModel.Outcomes {
    var outcomes = BehaviourModel.Outcomes()
    let keys = ["success", "failure", "cancelled", "data"] + (nested ? ["variants"] : [])
    var given = false
    for member in mapping(node, "action '\(name)'", known: keys) ?? [] {
      switch member.key {
      case "success", "failure", "cancelled":
        guard let weight = number(member.value, member.key) else { continue }
        guard weight >= 0 else {
          report(.Model.invalidValue, "\(member.key) must not be negative", at: member.value.location)
          continue
        }
        if !given { (outcomes.success, given) = (0, true) }
        switch member.key {
        case "success": outcomes.success = weight
        case "failure": outcomes.failure = weight
        default: outcomes.cancelled = weight
        }
      case "data":
        guard case .mapping = member.value.kind else {
          report(.Model.typeMismatch, "data must be a mapping", at: member.value.location)
          continue
        }
        outcomes.data = member.value.value
      default:
        let declared = VariantAssignment.declaredVariants(in: document).flatMap(\.variants)
        for variant in mapping(member.value, "variants of '\(name)'") ?? [] {
          unknownName(variant, "variant", known: declared)
          outcomes.variants[variant.key] = self.outcomes(variant.value, "\(name)' in '\(variant.key)", nested: false)
        }
      }
    }
    if given && outcomes.success + outcomes.failure + outcomes.cancelled <= 0 {
      report(.Model.invalidValue, "action '\(name)' needs an outcome above 0", at: node.location)
    }
    return outcomes
  }

  mutating func trait(_ node: ScriptNode, _ name: String) -> BehaviourModel.Trait? {
    guard let members = mapping(node, "trait '\(name)'", known: Self.traitKeys) else {
      return nil
    }
    if let weights = members.first(where: { $0.key == "weights" }) {
      return self.weights(weights.value, "weights of '\(name)'").map { .weights($0.map(\.answer), $0.map(\.weight)) }
    }
    let integer =
      members.first { $0.key == "integer" }.map { if case .scalar(.bool(true)) = $0.value.kind { true } else { false } }
      ?? false
    guard let numbers = numbers(members, "trait '\(name)'") else {
      report(.Model.typeMismatch, "trait '\(name)' needs weights, uniform or normal", at: node.location)
      return nil
    }
    return .numbers(numbers, integer: integer)
  }

  /// `assignment: bucketed`, or `assignment: {forced: {experiment: {variant: weight}}}`.
  mutating func assignment(_ node: ScriptNode, into model: inout BehaviourModel) {
    if node.scalarText == "bucketed" { return }
    guard let members = mapping(node, "assignment (bucketed, or forced: …)", known: ["forced"]) else { return }
    let declared = VariantAssignment.declaredVariants(in: document)
    var splits: [String: [(variant: String, weight: Double)]] = [:]
    for member in members {
      for experiment in mapping(member.value, "forced") ?? [] {
        guard let known = declared.first(where: { $0.experiment == experiment.key }) else {
          let ids = declared.map(\.experiment)
          let guess = closestMatch(to: experiment.key, in: ids).map { " (did you mean '\($0)'?)" } ?? ""
          report(
            .Model.unknownVariant, "the flow declares no experiment '\(experiment.key)'\(guess)",
            at: experiment.keyLocation)
          continue
        }
        guard let weights = weights(experiment.value, "the split of '\(experiment.key)'") else { continue }
        for (variant, _) in weights where !known.variants.contains(variant) {
          report(
            .Model.unknownVariant,
            "experiment '\(experiment.key)' has no variant '\(variant)'; variants: \(known.variants.joined(separator: ", "))",
            at: experiment.value.location)
        }
        splits[experiment.key] = weights.map { (variant: $0.answer, weight: $0.weight) }
      }
    }
    model.assignment = .forced(splits)
  }

  /// Identifiers of custom actions and native screens the document holds.
  static func actionIdentifiers(_ document: FlowDocument) -> [String] {
    var names: [String] = []
    func add(_ action: Action?) { if case .custom(let custom) = action { names.append(custom.identifier) } }
    for flow in document.flows {
      for screen in flow.screens {
        if screen.kind == .native { names.append(screen.content.identifier ?? screen.id) }
        add(screen.onEnter)
        for rule in screen.rules { add(rule.then) }
        for block in screen.content.flatBlocks {
          add(block.content.control?.action)
          add(block.content.field?.answerAction)
        }
      }
    }
    return names
  }
}
