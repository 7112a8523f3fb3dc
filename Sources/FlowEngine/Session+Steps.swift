import FlowExpression
import FlowFormat
import OrderedCollections

/// The actions a flow document composes from steps (Nuxie's action lists): lists, `back` by
/// more than one screen, setting values, the flow's own events, conditions and experiments.
/// Every dialect may use them; the Nuxie compiler does (docs/dialects/nuxie.md).
extension Session {
  mutating func performSequence(_ actions: [Action], via: Via, validate: Bool) -> Move {
    for action in actions {
      let move = perform(action, via: via, validate: validate)
      if move != .stay || hasEnded || isPending { return move }
    }
    return .stay
  }

  /// `goBack` pops one entry; the others are dropped first, keeping the oldest (Nuxie: a
  /// stack shorter than `steps` goes to its oldest screen).
  mutating func back(steps: Int, via: Via) -> Move {
    var dropped = 0
    while dropped < steps - 1, backStack.count > 1 {
      _ = backStack.removeLast()
      dropped += 1
    }
    if tracing, steps > 1 { record(.action, "back \(steps) screens via \(via)") }
    return .back
  }

  mutating func set(_ path: [String], to value: Value, via: Via) -> Move {
    guard let key = path.first else { return .stay }
    fields[key] = Self.setting(fields[key], at: path.dropFirst(), to: value)
    if tracing { record(.action, "set \(path.joined(separator: ".")) = \(value) via \(via)") }
    return .stay
  }

  mutating func emitOwn(_ name: String, _ properties: Value) -> Move {
    if case .object(let object) = properties {
      emit(.flowEvent, .object(object), at: frame, named: name)
    } else {
      emit(.flowEvent, .object([:]), at: frame, named: name)
    }
    return .stay
  }

  mutating func branch(_ branches: [ActionBranch], otherwise: Action?, via: Via, validate: Bool) -> Move {
    let facts = currentFacts
    for branch in branches {
      let trace = branch.condition.trace(in: facts)
      if tracing { record(.action, "condition branch '\(branch.id)': \(trace.line())") }
      if trace.holds { return perform(branch.action, via: via, validate: validate) }
    }
    guard let otherwise else { return .stay }
    if tracing { record(.action, "condition: no branch holds → default actions") }
    return perform(otherwise, via: via, validate: validate)
  }

  mutating func experiment(_ id: String, _ arms: [ExperimentArm], via: Via, validate: Bool) -> Move {
    let variant = context.variants[id] ?? arms.first?.variant ?? ""
    if !exposedExperiments.contains(id) {
      exposedExperiments.insert(id)
      emit(
        .flowEvent,
        .object(["experiment_key": .string(id), "variant_key": .string(variant), "is_holdout": false]),
        at: frame, named: "$experiment_exposure")
    }
    guard let arm = arms.first(where: { $0.variant == variant }) else {
      if tracing { record(.noOp, "experiment '\(id)': variant '\(variant)' has no actions") }
      return .stay
    }
    if tracing { record(.action, "experiment '\(id)': variant '\(variant)'") }
    return perform(arm.action, via: via, validate: validate)
  }

  /// At most this many steps of a step graph run for one input: a cycle of steps that never
  /// waits fails the session instead of running for ever.
  static let stepHopLimit = 10_000

  /// One step of the graph (`Move.step`, run by `drive`'s loop).
  mutating func runStep(_ id: String) -> Move {
    guard let action = context.document.flows[frame.flow].steps[id] else {
      if tracing { record(.noOp, "step '\(id)' does not exist; the route ends") }
      return .stay
    }
    stepHops += 1
    guard stepHops <= Self.stepHopLimit else {
      let message =
        "more than \(Self.stepHopLimit) steps ran for one input at step '\(id)' (a cycle of steps that never waits?)"
      ended = .failed(message)
      pending = nil
      outbox.append(.error(message))
      outbox.append(.ended(.failed(message)))
      return .stay
    }
    if tracing { record(.action, "step \(id): \(action.typeName)") }
    return perform(action, via: .step(id), validate: false)
  }

  /// What a condition of the flow reads: `User` is the session's traits with the attributes
  /// the flow set (`customer`, Nuxie's `update_customer`), `Response.Field` the collected
  /// values, now the virtual clock.
  var currentFacts: Facts {
    var properties: [FactKey: Value] = [:]
    for (key, value) in user.traits { properties[FactKey(key)] = value }
    if case .object(let customer)? = fields["customer"] {
      for (key, value) in customer { properties[FactKey(key)] = value }
    }
    var responses: [String: Value] = [:]
    for (key, value) in fields.dictionary { Self.flatten(value, as: key, into: &responses) }
    return Facts(
      now: virtualNow, userProperties: properties, journeyID: context.sessionID(of: user), responses: responses)
  }

  /// A value under its key, and an object's members under `key.member` too (`Response.Field`
  /// reads `Paywall.plan`).
  static func flatten(_ value: Value, as key: String, into responses: inout [String: Value]) {
    responses[key] = value
    guard case .object(let object) = value else { return }
    for (member, inner) in object { flatten(inner, as: key + "." + member, into: &responses) }
  }

  /// `value` written at `path` inside `base` (objects are created on the way).
  static func setting(_ base: Value?, at path: ArraySlice<String>, to value: Value) -> Value {
    guard let key = path.first else { return value }
    var object: OrderedDictionary<String, Value> = [:]
    if case .object(let existing)? = base { object = existing }
    object[key] = setting(object[key], at: path.dropFirst(), to: value)
    return .object(object)
  }
}
