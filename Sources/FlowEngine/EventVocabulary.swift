import FlowExpression
import FlowFormat
import OrderedCollections

/// The events a session sends, by the system its flow was written for. The engine has one set
/// of moments (started, a screen viewed, completed, skipped, the flow completed or dismissed,
/// ...); Sequence names them as session.md does, AppDNA as document 001 and its SDK do, with
/// their properties, and has no event for the moments it does not track (docs/dialects/appdna.md).
enum EventVocabulary {
  static func name(of type: EventType, in dialect: Dialect) -> EventType? {
    switch dialect {
    case .sequence: type
    case .appdna: appdna[type]
    case .nuxie: nuxie[type]
    }
  }

  /// Whether variant assignments come before the start: AppDNA's exposure precedes
  /// `onboarding_flow_started`; Sequence's assignment follows `onboarding_started`.
  static func assignsBeforeStart(_ dialect: Dialect) -> Bool { dialect == .appdna }

  /// How a shown screen is left.
  enum Leave {
    case forward, skip, back
  }

  /// Whether leaving a screen so sends its completion: Sequence always does; AppDNA only
  /// when the step is submitted (a skip or back stores nothing and sends no
  /// `onboarding_step_completed`).
  static func completes(_ leave: Leave, in dialect: Dialect) -> Bool {
    dialect == .sequence || leave == .forward
  }

  /// Nuxie's era B names (docs/dialects/nuxie.md): a screen left forward is `$screen_dismissed`
  /// (method `navigate`; none on back); action requests and results are not events (a Nuxie
  /// flow's compiled outlets send `$purchase_completed` and the like); experiments are exposed
  /// where the flow runs them (`Action.experiment`), not at the start.
  private static let nuxie: [EventType: EventType] = [
    .onboardingStarted: .flowShown,
    .screenViewed: .screenShown,
    .screenCompleted: .screenDismissed,
    .onboardingCompleted: .journeyCompleted,
    .onboardingDismissed: .flowDismissed,
    .flowEvent: .flowEvent,
  ]

  private static let appdna: [EventType: EventType] = [
    .onboardingStarted: .onboardingFlowStarted,
    .experimentVariantAssigned: .experimentExposure,
    .screenViewed: .onboardingStepViewed,
    .screenCompleted: .onboardingStepCompleted,
    .screenSkipped: .onboardingStepSkipped,
    .onboardingCompleted: .onboardingFlowCompleted,
    .onboardingDismissed: .onboardingFlowDismissed,
    .flowCompletedViaFallback: .flowCompletedViaFallback,
    .flowEvent: .flowEvent,
    .hookStarted: .hookStarted,
    .hookCompleted: .hookCompleted,
    .hookRetry: .hookRetry,
    .hookError: .hookError,
  ]
}

extension Session {
  /// The properties of an event named by `EventVocabulary`: Sequence's as built at the moment,
  /// AppDNA's from the session (flow, step, index, the step's answers).
  func vocabularyProperties(
    _ name: EventType, _ properties: Event.Properties, at screenFrame: Frame?
  )
    -> Event.Properties
  {
    if context.document.dialect == .nuxie { return nuxieProperties(name, properties, at: screenFrame) }
    guard context.document.dialect == .appdna else { return properties }
    let flow = context.document.flows[frame.flow]
    var object: OrderedDictionary<String, Value> = ["flow_id": .string(flow.id)]
    let step = screenFrame.map { flow.screens[$0.screen] }
    func stepProperties() {
      guard let step, let screenFrame else { return }
      object["step_id"] = .string(step.id)
      object["step_index"] = .number(Double(screenFrame.screen))
    }
    switch name {
    case .experimentExposure:
      object = [
        "experiment_id": properties.value("experiment_id") ?? .null,
        "variant": properties.value("variant_id") ?? .null, "source": "sdk",
      ]
    case .onboardingFlowStarted:
      object["flow_version"] =
        flow.versionGiven ? .number(Double(flow.version)) : context.settings.iosQuirks ? "nil" : .null
    case .onboardingStepViewed:
      stepProperties()
      object["step_type"] = step.map { .string($0.type) } ?? .null
    case .onboardingStepCompleted:
      stepProperties()
      object["selection_data"] = step.flatMap(questionAnswer) ?? .object(step.map(answers) ?? [:])
    case .onboardingStepSkipped, .flowCompletedViaFallback:
      stepProperties()
    case .flowEvent where properties.value("flow_id") != nil:
      // A chat event, built whole by `Session+Chat`.
      return properties
    case .flowEvent:
      // The SDK's analytics node event: {flow_id, node_id, step_id}.
      object["node_id"] = properties.value("node_id") ?? .null
      object["step_id"] = step.map { .string($0.id) } ?? .null
    case .onboardingFlowCompleted:
      var responses: OrderedDictionary<String, Value> = [:]
      for screen in flow.screens {
        let bag = answers(of: screen)
        if let answer = questionAnswer(of: screen) {
          responses[screen.id] = answer
        } else if screen.type == "question", bag.count == 1, let answer = bag[screen.id] {
          // Document 001 reads a question's answer as the step's value
          // (`responses["fitness_goal"] as? String`).
          responses[screen.id] = answer
        } else if !bag.isEmpty {
          responses[screen.id] = .object(bag)
        }
      }
      // The SDK's completion markers (`__permission_request`, `__screen_present`, `__sub_flow`)
      // sit next to the steps.
      for key in Self.completionMarkers { if let value = fields[key] { responses[key] = value } }
      object["total_steps"] = .number(Double(flow.screens.count))
      object["total_duration_ms"] = properties.value("duration_ms") ?? .null
      object["responses"] = .object(responses)
    case .onboardingFlowDismissed:
      object["last_step_id"] = properties.value("last_screen_id") ?? .null
      object["last_step_index"] = properties.value("last_screen_index") ?? .null
    default:
      return properties
    }
    return .object(object)
  }

  /// The keys an AppDNA marker target (`permission_…`, `screen_…`, `flow_…`) sets before the
  /// flow completes.
  static let completionMarkers = ["__permission_request", "__screen_present", "__sub_flow"]

  /// With `--ios-quirks`, a legacy question step's answer as the SDK submits it: `{"selected":
  /// [option ids, in option order], "selection_mode": "single" | "multi"}`; nil otherwise, for
  /// other steps and for unanswered ones.
  private func questionAnswer(of screen: Screen) -> Value? {
    guard context.settings.iosQuirks, screen.type == "question",
      let block = screen.content.flatBlocks.first(where: { $0.fieldName == screen.id }),
      case .choice(let choice) = block.content, let stored = fields[screen.id]
    else { return nil }
    let picked: Set<String>
    switch stored {
    case .list(let items): picked = Set(items.map(\.displayString))
    default: picked = [stored.displayString]
    }
    let selected = choice.items.filter { picked.contains($0.value) }.map { Value.string($0.id) }
    return .object(["selected": .list(selected), "selection_mode": choice.allowMultiple ? "multi" : "single"])
  }

  /// A step's answers as AppDNA submits them: its fields that hold a value, secrets left out.
  private func answers(of screen: Screen) -> OrderedDictionary<String, Value> {
    var bag: OrderedDictionary<String, Value> = [:]
    for block in screen.content.flatBlocks where !block.isSecret {
      if let field = block.fieldName, let value = fields[field] { bag[field] = value }
    }
    // A permission step submits its outcome (`permission_<type>`) with the action that asked.
    if let type = screen.content.permissionType, let outcome = fields["permission_" + type] {
      bag["action"] = "permission"
      bag["action_value"] = .string(type)
      bag["permission_" + type] = outcome
    }
    // A chat step submits its transcript as its data.
    if screen.chat != nil, case .object(let transcript)? = fields[screen.id] { bag.merge(transcript) { _, new in new } }
    return bag
  }
}

extension Session {
  /// Era D/E names (research §1.7) for an era E leg's session; nil: the era B name.
  func experienceName(_ name: EventType) -> String? {
    guard context.document.experienceID != nil else { return nil }
    return Self.experienceNames[name]
  }

  static let experienceNames: [EventType: String] = [
    .flowShown: "$experience_shown", .flowDismissed: "$experience_dismissed", .journeyCompleted: "$journey_exited",
  ]

  /// Nuxie's properties (research §3): a run of a flow on its own is a journey without a
  /// campaign (`campaign_id` null), whose id is the session id. An era E leg's carry the
  /// experience instead of the campaign.
  func nuxieProperties(_ name: EventType, _ properties: Event.Properties, at screenFrame: Frame?) -> Event.Properties {
    let flowID = Value.string(context.document.flows[frame.flow].id)
    let journey = Value.string(context.sessionID(of: user))
    let screen = screenFrame.map { Value.string(context.document.flows[$0.flow].screens[$0.screen].id) } ?? .null
    if let experience = context.document.experienceID {
      switch name {
      case .flowShown, .flowDismissed:
        return ["experience_id": .string(experience), "experience_version": flowID, "journey_id": journey]
      case .journeyCompleted:
        return [
          "journey_id": journey, "epoch": 0, "reason": "completed",
          "at": .string(CivilTime.iso8601(milliseconds: virtualNow)),
        ]
      case .flowEvent:
        var object = properties.object
        object["journey_id"] = journey
        object["experience_id"] = .string(experience)
        object["screen_id"] = screen
        return .object(object)
      default: break
      }
    }
    switch name {
    case .flowShown, .flowDismissed:
      return ["journey_id": journey, "campaign_id": .null, "flow_id": flowID]
    case .screenShown:
      return ["screen_id": screen]
    case .screenDismissed:
      return ["screen_id": screen, "method": "navigate"]
    case .journeyCompleted:
      let duration = (virtualNow - context.startTime) / 1000
      return [
        "session_id": journey, "exit_reason": "completed", "goal_met": false, "goal_met_at": .null,
        "duration_seconds": .number(Double(duration)),
      ]
    case .flowEvent:
      // The flow's own events carry the journey, as the SDK's `send_event` does.
      var object = properties.object
      object["journey_id"] = journey
      object["campaign_id"] = .null
      object["screen_id"] = screen
      return .object(object)
    default:
      return properties
    }
  }
}
