import FlowEngine
import FlowExpression
import FlowFormat

/// How steps reach the engine: the one mapping from a step to engine inputs, and the one way
/// they are sent. `flowrun test` (`Replayer`), `run --answers` and `paths --coverage` play
/// script steps with it, and `flowrun run` turns every answer and `:` command it reads into a
/// step first (`:set` is `fill`, `:ok` is `result`, an answer to a checklist is `select`, ...).
extension ScriptStep {
  /// The engine inputs this step sends to `session`, in order. `set` of a field that is not on
  /// the current screen sets a variable; `expect` and `snapshot` send nothing. A secret field
  /// given a placeholder (a recorded secret) gets a stand-in (`SecretStandIn`).
  public func inputs(on session: Session) -> [Input] {
    func value(_ item: FieldValue) -> Value {
      guard session.secrets.isSecret(item.field), let outcome = SecretStandIn.outcome(of: item.value) else {
        return item.value
      }
      return SecretStandIn.value(for: item.field, outcome: outcome, on: session)
    }
    switch kind {
    case .tap(let selector): return [.tap(selector)]
    case .fill(let fields): return fields.map { .set(field: $0.field, value: value($0)) }
    case .set(let fields):
      let screenFields = Set(session.currentScreen.content.flatBlocks.compactMap(\.fieldName))
      return fields.map {
        screenFields.contains($0.field)
          ? .set(field: $0.field, value: value($0)) : .setVariable(name: $0.field, value: value($0))
      }
    case .select(let picks): return picks.map { .pick(field: $0.field, items: $0.items) }
    case .result(let result): return [.result(result)]
    case .hook(let answer): return [.hookAnswered(answer)]
    case .webhook(let response): return [.webhookAnswered(response)]
    case .chat(let turn): return [.chat(turn)]
    case .next: return [.next]
    case .back: return [.back]
    case .skip: return [.skip]
    case .dismiss: return [.dismiss]
    case .complete: return [.complete]
    case .decline: return [.decline]
    case .wait(let ms): return [.wait(ms: ms)]
    case .goto(let screen): return [.goto(screenID: screen)]
    case .track(let name, let properties): return [.track(named: name, properties: properties)]
    case .expect, .snapshot, .campaignEvent, .campaignProfile: return []
    }
  }

  /// Sends one step's `inputs` through `send` in order and stops after the first one the
  /// session rejects: the rest of the step is not sent. Returns whether one was rejected; then
  /// a step without `expect_error` ends the script (`flowrun test` fails it, `run --answers`
  /// hands over to the lines, `paths --coverage` counts no further). A validation failure is no
  /// rejection: the session answered it, and the step goes on.
  @discardableResult
  public static func send(_ inputs: [Input], through send: (Input) -> [Output]) -> Bool {
    for input in inputs where send(input).isRejected { return true }
    return false
  }

  /// False for the steps that only check (`expect`, `snapshot`).
  var sendsInputs: Bool {
    switch kind {
    case .expect, .snapshot: false
    case .tap, .fill, .select, .set, .result, .hook, .webhook, .chat, .next, .back, .skip, .dismiss, .complete, .wait,
      .goto, .track, .decline, .campaignEvent, .campaignProfile:
      true
    }
  }

  /// Whether this step may answer an awaited action pending when it runs (see
  /// `ReplayScript.unhandledActionFailure`): a result, or a move that leaves or ends the wait.
  var mayAnswerPendingAction: Bool {
    switch kind {
    case .result, .dismiss, .next, .complete, .goto, .wait, .decline: true
    case .tap, .fill, .select, .set, .hook, .webhook, .chat, .back, .skip, .expect, .snapshot, .track, .campaignEvent,
      .campaignProfile:
      false
    }
  }
}

extension ReplayScript {
  /// The input that fails an awaited action still pending after input step `index`, or nil
  /// (also after a step that only checks: the step before it was asked already). A script
  /// has nobody to answer it (unlike `flowrun run`), so it fails as in the SDK's non-interactive
  /// run, `unhandled action: <identifier>`, unless the next input step may answer it, or the
  /// script ends there and its final `expect` says `awaiting:` (what `--record` writes for a
  /// session that ended while the action was pending).
  /// `index` -1: before the first step (the first screen may ask `onBeforeStepRender`).
  public func unhandledActionFailure(after index: Int, on session: Session) -> Input? {
    guard index < 0 || steps[index].sendsInputs, case .awaiting(let pending) = session.status else { return nil }
    let next = steps[(index + 1)...].first(where: \.sendsInputs)
    // A parked wait is no action: the script's `wait:` moves the clock on.
    if case .timer = pending.source { return nil }
    if case .hook(let request) = pending.source {
      // A hook the script does not answer next proceeds, as a delegate's default answer does
      // (an override answers only `onBeforeStepRender`, which shows the screen as authored
      // without one); a webhook nobody answers fails as unreachable.
      let render = request.kind == .beforeStepRender
      switch next?.kind {
      case .hook(.render)? where render, .webhook? where request.webhook != nil: return nil
      case .hook(let answer)? where request.webhook == nil && !render:
        if case .render = answer { break }
        return nil
      default: break
      }
      return .hookAnswered(.failed(reason: "the script does not answer it"))
    }
    if let next {
      if next.mayAnswerPendingAction { return nil }
    } else if expectation?.awaiting != nil {
      return nil
    }
    return .result(.failure("unhandled action: \(pending.identifier)"))
  }
}

extension [Output] {
  /// Whether the input these outputs answer was rejected (the session did not change).
  public var isRejected: Bool {
    contains { if case .rejected = $0 { true } else { false } }
  }
}
