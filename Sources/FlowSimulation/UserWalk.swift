import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections

/// One simulated user through the engine: start a session, then on each screen decide (from
/// the model and the user's own random numbers) to leave, wait, answer and press a control;
/// answer awaited actions and native screens with the model's outcomes. Every transition is
/// the engine's; this only chooses inputs.
struct UserWalk {
  /// Validation failures in a row on one screen before the user is stuck.
  static let attemptsPerScreen = 3
  /// Decisions per user before the user is stuck (a loop the model never leaves).
  static let decisionBudget = 2_000
  /// Screens of a path the tally tells apart; longer ones end in `…`.
  static let pathLimit = 40

  let plan: SimulationPlan
  var random: SimulationRandom
  var session: Session
  var buffers: Buffers
  /// The screen shown last (its key): the current screen.
  var current: Int32 = -1
  /// Every screen shown, in order (screen keys).
  var path: [Int32] {
    get { buffers.path }
    set { buffers.path = newValue }
  }

  /// Arrays a walk empties and fills again on every step; a thread's counter hands them from
  /// one user to the next, so they are allocated once per thread instead of a few times per user.
  struct Buffers {
    var outputs: [Output] = []
    var path: [Int32] = []
    var controls: [ActionEntry] = []
    var slots: [ControlSlot] = []
    var weights: [Double] = []
  }

  /// How the walk ended.
  enum Ending: String { case completed, dismissed, droppedOff = "dropped_off", stuck, failed }

  /// Starts user `index`'s session with `starter` (nil when the engine refuses to start it),
  /// filling `buffers` (emptied first); `recycling`: the last user's session, whose storage the
  /// new one keeps. A static function, not a failable initialiser: one copied the whole walk
  /// (the session, its configuration and document) into its optional result.
  static func start(
    plan: SimulationPlan, starter: inout SessionStarter, index: Int, recycling old: consuming Session?,
    buffers: consuming Buffers
  ) -> UserWalk? {
    var random = SimulationRandom(seed: plan.seed, user: index)
    let session: Session
    do {
      // The user's parts: its id, traits and forced variants (the plan's configuration is the
      // starter's, shared).
      var traits = plan.config.traits
      for (name, trait) in plan.model.traits { traits[name] = plan.sample(trait, &random) }
      var overrides = plan.config.variantOverrides
      if case .forced(let splits) = plan.model.assignment {
        for (experiment, weights) in splits.sorted(by: { $0.key < $1.key }) {
          overrides[experiment] = weights[random.weighted(weights.map(\.weight))].variant
        }
      }
      session = try starter.start(
        userID: plan.userID(index), traits: traits, variantOverrides: overrides, recycling: old,
        into: &buffers.outputs)
    } catch {
      return nil
    }
    var walk = UserWalk(plan: plan, random: random, session: consume session, buffers: consume buffers)
    walk.session.reserveData(plan.collectedFieldCount)
    walk.note(walk.buffers.outputs)
    return walk
  }

  private init(plan: SimulationPlan, random: SimulationRandom, session: consuming Session, buffers: consuming Buffers) {
    self.plan = plan
    self.random = random
    self.session = session
    self.buffers = buffers
    self.buffers.path.removeAll(keepingCapacity: true)
  }

  /// Hands the session (copied) and the arrays (moved) to the next user's spare and buffers
  /// (both empty).
  mutating func finish(into spare: inout Session?, buffers taken: inout Buffers) {
    spare = session
    swap(&taken, &buffers)
  }

  /// Walks to the end; returns how it ended.
  mutating func run() -> Ending {
    var decisions = 0
    var failures = 0
    var lastScreen: Int32 = -1
    let answers = plan.answers
    while !session.status.isEnded {
      decisions += 1
      guard decisions <= Self.decisionBudget else { return quit(.stuck) }
      if session.isPending, let pending = session.pending {
        // A parked wait (Nuxie's delay, time_window, wait_until) wakes on the virtual clock;
        // one that only a condition can end keeps the user forever.
        if case .timer = pending.source {
          guard let left = session.millisecondsUntilWake, send(.wait(ms: left)) else { return quit(.stuck) }
          continue
        }
        // A webhook (a chat's or a step's) answers with a plain go-on; a host hook proceeds.
        if case .hook(let request) = pending.source {
          let reply: Input =
            request.webhook == nil ? .hookAnswered(.proceed(data: nil)) : .webhookAnswered(ChatState.plainReply)
          guard send(reply) else { return quit(.stuck) }
          continue
        }
        answer(pending)
        continue
      }
      // An open chat step: the user chats to its turn limit, then goes on.
      for input in session.chatAutopilot where !send(input) { return quit(.stuck) }
      let here = Int(current)
      guard here >= 0 else { return quit(.stuck) }
      if current != lastScreen { failures = 0 }
      lastScreen = current
      let behaviour = plan.screenBehaviours[here]
      if random.chance(behaviour.dismiss) {
        if send(.dismiss) { break }
        return quit(.droppedOff)
      }
      if random.chance(behaviour.dropOff) { return quit(.droppedOff) }
      if let left = session.millisecondsUntilAutoAdvance {
        send(.wait(ms: left))
        continue
      }
      let dwell = plan.sample(behaviour.dwell, &random)
      if dwell > 0 { send(.wait(ms: dwell)) }
      // Inputs are written into plain variables, a flag beside each: an `Input?` went through
      // the runtime's generic value witnesses to be destroyed (twice per screen and field).
      var input = Input.next
      var advance = Input.next
      var advances = false
      // Read in place: iterating the array would copy each `Block`.
      plan.fieldBlocks[here].withUnsafeBufferPointer { fieldBlocks in
        for fieldBlock in fieldBlocks.indices
        where fieldBlocks[fieldBlock].alwaysVisible || session.isVisible(fieldBlocks[fieldBlock].block) {
          guard answers.answer(fieldBlocks[fieldBlock], random: &random, into: &input) else { continue }
          if fieldBlocks[fieldBlock].picksToAdvance {
            swap(&advance, &input)
            advances = true
          } else {
            send(input)
          }
        }
      }
      let pressed: Bool
      if advances {
        pressed = send(advance)
      } else if behaviour.controls.isEmpty {
        pressed = pressUnnamed()
      } else if let entry = control(behaviour.controls) {
        pressed = press(entry)
      } else {
        pressed = send(.next)
      }
      guard pressed else { return quit(.stuck) }
      if buffers.outputs.contains(where: { if case .validationFailed = $0 { true } else { false } }) {
        failures += 1
        if failures >= Self.attemptsPerScreen { return quit(.stuck) }
      }
    }
    switch session.status {
    case .completed: return .completed
    case .dismissed: return .dismissed
    case .failed: return .failed
    default: return .droppedOff
    }
  }

  /// The control pressed when the model names controls: drawn by its weights over the screen's
  /// controls (back and dismiss controls never; the skip control only when the model names
  /// it); nil: `next`. Labels are rendered to be matched.
  private mutating func control(_ named: [String: Double]) -> ActionEntry? {
    session.actions(renderingLabels: true, into: &buffers.controls)
    buffers.weights.removeAll(keepingCapacity: true)
    // Read in place: a loop over the array copies each entry (its action, label and id).
    buffers.controls.withUnsafeBufferPointer { controls in
      for index in controls.indices {
        guard SimulationPlan.ControlWeights.weight(controls[index].action) > 0 else {
          buffers.weights.append(0)
          continue
        }
        let skip = controls[index].kind == .skip
        let weight =
          named[controls[index].label] ?? controls[index].blockID.flatMap { named[$0] }
          ?? (skip ? named["skip"] : nil)
        buffers.weights.append(weight ?? (skip ? 0 : 1))
      }
    }
    guard buffers.weights.contains(where: { $0 > 0 }) else { return nil }
    return buffers.controls[random.weighted(buffers.weights)]
  }

  /// The control pressed when the model names none (the common case): uniform over the
  /// screen's control slots but back, dismiss and skip (the plan's weights by place), as
  /// `control(_:)` would draw; nothing but the pressed control is built. `next` when none.
  private mutating func pressUnnamed() -> Bool {
    let weights = plan.controlWeights[session.screenNumber]
    // Most screens' controls are the plan's, listed once; a screen whose controls depend on
    // the session (a `visibleWhen`) lists them per visit.
    if let fixed = weights.fixed {
      guard fixed.drawable else { return send(.next) }
      session.send(pressing: fixed.slots[random.weighted(fixed.weights)], into: &buffers.outputs)
      return noteAccepted()
    }
    session.controlSlots(into: &buffers.slots)
    buffers.weights.removeAll(keepingCapacity: true)
    for slot in buffers.slots { buffers.weights.append(weights.weight(slot)) }
    guard buffers.weights.contains(where: { $0 > 0 }) else { return send(.next) }
    session.send(pressing: buffers.slots[random.weighted(buffers.weights)], into: &buffers.outputs)
    return noteAccepted()
  }

  /// Answers an awaited action or native screen with the model's outcome for its identifier
  /// (per variant when the model says so; success by default).
  private mutating func answer(_ pending: PendingAction) {
    var outcomes = plan.model.actions[pending.identifier] ?? BehaviourModel.Outcomes()
    if let variant = session.variants.values.first(where: { outcomes.variants[$0] != nil }) {
      outcomes = outcomes.variants[variant] ?? outcomes
    }
    if case .nativeScreen = pending.source {
      let dwell = plan.sample(plan.model.screens[pending.screenID]?.dwell ?? plan.model.dwell, &random)
      if dwell > 0 { send(.wait(ms: dwell)) }
    }
    switch random.weighted([outcomes.success, outcomes.failure, outcomes.cancelled]) {
    case 0: send(.result(.success(outcomes.data)))
    case 1: send(.result(.failure("simulated failure")))
    default: send(.result(.cancelled))
    }
  }

  /// Ends the session where it stands (a drop-off row for the store) and says how.
  private mutating func quit(_ ending: Ending) -> Ending {
    send(.quit(reason: ending == .stuck ? .stuck : .quit))
    return ending
  }

  /// Sends `input`; true when the session accepted it.
  @discardableResult
  private mutating func send(_ input: Input) -> Bool {
    session.send(input, into: &buffers.outputs)
    return noteAccepted()
  }

  /// Taps a control just listed (the engine's tap of its number, without finding it again).
  private mutating func press(_ entry: ActionEntry) -> Bool {
    session.send(pressing: entry, into: &buffers.outputs)
    return noteAccepted()
  }

  /// Notes the outputs of an input; false when the session rejected it.
  private mutating func noteAccepted() -> Bool {
    // Swapped out, not copied (a retain and a release per input), while the path grows.
    var outputs: [Output] = []
    swap(&outputs, &buffers.outputs)
    defer { swap(&outputs, &buffers.outputs) }
    if outputs.contains(where: { if case .rejected = $0 { true } else { false } }) { return false }
    note(outputs)
    return true
  }

  /// Keeps the screens shown. Outputs are read in place (a loop over the array copies each).
  private mutating func note(_ outputs: [Output]) {
    let number = session.screenNumber
    outputs.withUnsafeBufferPointer { outputs in
      for index in outputs.indices {
        guard case .screenShown(let flowID, let screenID) = outputs[index],
          let key = plan.screenKey(flowID, screenID, current: number)
        else { continue }
        buffers.path.append(key)
        current = key
      }
    }
  }
}
