import FlowEngine
import FlowExpression
import FlowFormat
import Foundation

/// What every user of a run shares: the document, the model, the seed and the lookups the walk
/// needs (screen keys by flow and screen id, each screen's fields and model, the fields whose
/// answers are counted). A class: every user's walk refers to the one plan instead of copying it.
public final class SimulationPlan: Sendable {
  public let document: FlowDocument
  public let model: BehaviourModel
  public let seed: UInt64
  let config: SessionConfig
  /// The document's lookups, worked out once for every user's session.
  let tables: DocumentTables
  /// `sim-SEED-`: user `index`'s id is this and the index.
  let userIDPrefix: String
  let answers: AnswerSampler
  /// Screen keys in document order (`screen`, or `flow/screen` in a bundle of several flows).
  public let screenKeys: [String]
  private let screenIndex: [String: (offset: Int, screens: [String: Int])]
  /// By screen number (`Session.screenNumber`): the screen's flow id, id and key (`screenKey`
  /// of those ids; the first screen of a repeated id). Compared with a shown screen's ids
  /// instead of hashing them.
  let screenNumbers: [(flowID: String, screenID: String, key: Int32)]
  /// Fields answered by blocks (secret ones left out): their answers are counted.
  let countedFields: [String]
  /// Counted field → its index in `countedFields`.
  let countedFieldIndex: [String: Int]
  /// How many fields the flow's blocks collect (secret ones too): the room a session's data
  /// is given at start.
  let collectedFieldCount: Int
  /// By screen index: the blocks that collect a field, in reading order.
  let fieldBlocks: [[FieldBlock]]
  /// By screen index: how users behave there (the model's entry over its defaults).
  let screenBehaviours: [ScreenBehaviour]
  /// By screen number: the weight of each control when the model names none (`UserWalk.control`'s
  /// rule read once: back and dismiss 0, others 1), by flat block index and for the legacy button.
  let controlWeights: [ControlWeights]

  struct ControlWeights: Sendable {
    var blocks: [Double]
    var legacy: Double
    /// The screen's control slots when no session state changes them
    /// (`Session.fixedControlSlots`), and their weights: listed once here instead of per visit.
    var fixed: (slots: [ControlSlot], weights: [Double], drawable: Bool)?

    init(_ screen: Screen) {
      blocks = screen.content.flatBlocks.map { block in block.content.control.map { Self.weight($0.action) } ?? 0 }
      legacy = Self.weight(screen.content.buttonAction)
      if let slots = Session.fixedControlSlots(of: screen) {
        let weights = slots.map(weight)
        fixed = (slots, weights, weights.contains { $0 > 0 })
      }
    }

    /// A slot's weight: back and dismiss 0, skip 0 (the model names none), others 1.
    func weight(_ slot: ControlSlot) -> Double {
      switch slot.kind {
      case .button: blocks[slot.block]
      case .legacyButton: legacy
      case .skip: 0
      }
    }

    static func weight(_ action: Action) -> Double {
      switch action {
      case .previous, .dismiss: 0
      default: 1
      }
    }
  }

  /// A block that collects `field`; `alwaysVisible` spares evaluating its visibility. A class:
  /// the walk hands it to the sampler per answer, and a struct this size was copied each time.
  final class FieldBlock: Sendable {
    let block: Block
    let field: String
    let alwaysVisible: Bool
    /// A single-select with auto-advance: its pick is the screen's control.
    let picksToAdvance: Bool
    /// The block's field content and the model's entry for the field, found once for every
    /// user (asking the block copies its content out).
    let content: FieldContent?
    let required: Bool
    let model: BehaviourModel.FieldModel?
    /// The chance the user leaves it empty: the model's for the field, else 0 when required and
    /// the model's `optional_skip` when not.
    let skip: Double
    /// A choice's weights by option (the model's over values or ids, else 1 each).
    let optionWeights: [Double]
    /// A choice block's options as the sampler draws them; nil for other blocks. Read as one
    /// reference: binding the block's `ChoiceBlock` out of `content` copied it per answer.
    let choice: AnswerSampler.Choice?
    /// An input block's answering needs; nil for other blocks.
    let input: AnswerSampler.InputField?

    init(block: Block, field: String, model: BehaviourModel.FieldModel?, answers: AnswerSampler) {
      self.block = block
      self.field = field
      alwaysVisible = block.visible && block.visibleWhen == nil
      if case .choice(let choice) = block.content {
        picksToAdvance = choice.runsActionOnPick
      } else {
        picksToAdvance = false
      }
      content = block.content.field
      required = content.map(AnswerSampler.isRequired) ?? false
      self.model = model
      skip = model?.skip ?? (required ? 0 : answers.model.optionalSkip)
      optionWeights = AnswerSampler.optionWeights(block, model)
      if case .choice(let choice)? = content {
        self.choice = AnswerSampler.Choice(choice, weights: optionWeights)
      } else {
        choice = nil
      }
      if case .input(let input)? = content {
        self.input = AnswerSampler.InputField(input, patternAnswers: answers.patternAnswers)
      } else {
        input = nil
      }
    }
  }

  /// A screen's behaviour with the model's defaults filled in.
  struct ScreenBehaviour: Sendable {
    var dismiss: Double
    var dropOff: Double
    var dwell: BehaviourModel.Dwell
    /// Weights over controls by label or block id (`skip`: the skip control); empty when the
    /// model names none.
    var controls: [String: Double]
  }

  /// `recordsEvents`: sessions keep their analytics events (for the store); nothing else changes.
  public init(
    document: FlowDocument, model: BehaviourModel = BehaviourModel(), seed: UInt64, recordsEvents: Bool = false
  ) {
    self.document = document
    self.model = model
    self.seed = seed
    userIDPrefix = "sim-\(seed)-"
    tables = DocumentTables(document)
    config = SessionConfig(
      now: model.start, platform: model.platform, locale: model.locale, waitsForResults: true,
      recordsHistory: recordsEvents, emitsEvents: recordsEvents)
    let answers = AnswerSampler(model: model, document: document)
    self.answers = answers
    var keys: [String] = []
    var index: [String: (offset: Int, screens: [String: Int])] = [:]
    var fields: [String] = []
    var known = Set<String>()
    var collected = Set<String>()
    var fieldBlocks: [[FieldBlock]] = []
    var behaviours: [ScreenBehaviour] = []
    var weights: [ControlWeights] = []
    for flow in document.flows {
      var screens: [String: Int] = [:]
      for (number, screen) in flow.screens.enumerated() {
        screens[screen.id] = screens[screen.id] ?? number
        keys.append(document.flows.count > 1 ? "\(flow.id)/\(screen.id)" : screen.id)
        let screenModel = model.screens[screen.id]
        behaviours.append(
          ScreenBehaviour(
            dismiss: screenModel?.dismiss ?? model.dismiss, dropOff: screenModel?.dropOff ?? model.dropOff,
            dwell: screenModel?.dwell ?? model.dwell, controls: screenModel?.controls ?? [:]))
        weights.append(ControlWeights(screen))
        var collecting: [FieldBlock] = []
        for block in screen.content.usesBlocks ? screen.content.flatBlocks : [] {
          guard let field = block.fieldName else { continue }
          collecting.append(FieldBlock(block: block, field: field, model: model.fields[field], answers: answers))
          if !block.isSecret, known.insert(field).inserted { fields.append(field) }
          collected.insert(field)
        }
        fieldBlocks.append(collecting)
      }
      if index[flow.id] == nil { index[flow.id] = (keys.count - flow.screens.count, screens) }
    }
    screenKeys = keys
    screenIndex = index
    screenNumbers = document.flows.flatMap { flow in
      flow.screens.map { screen in
        let key = index[flow.id].flatMap { flowIndex in flowIndex.screens[screen.id].map { flowIndex.offset + $0 } }
        return (flow.id, screen.id, Int32(key ?? -1))
      }
    }
    countedFields = fields
    countedFieldIndex = Dictionary(uniqueKeysWithValues: fields.enumerated().map { ($1, $0) })
    collectedFieldCount = collected.count
    self.fieldBlocks = fieldBlocks
    screenBehaviours = behaviours
    controlWeights = weights
  }

  /// User `index`'s id: `userIDPrefix` and the index in decimal, written at once (`+ String(index)`
  /// went through the generic `description` and an append, per user).
  func userID(_ index: Int) -> String {
    var prefix = userIDPrefix
    var digits = 1
    var rest = index.magnitude / 10
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    let sign = index < 0 ? 1 : 0
    return prefix.withUTF8 { head in
      let count = head.count + sign + digits
      return String(unsafeUninitializedCapacity: count) { buffer in
        _ = UnsafeMutableBufferPointer(rebasing: buffer[..<head.count]).initialize(fromContentsOf: head)
        if sign > 0 { buffer[head.count] = UInt8(ascii: "-") }
        var value = index.magnitude
        for place in (head.count + sign..<count).reversed() {
          buffer[place] = UInt8(ascii: "0") + UInt8(value % 10)
          value /= 10
        }
        return count
      }
    }
  }

  /// The global index of a screen (nil for one the document does not hold).
  func screenKey(_ flowID: String, _ screenID: String) -> Int32? {
    guard let flow = screenIndex[flowID], let screen = flow.screens[screenID] else { return nil }
    return Int32(flow.offset + screen)
  }

  /// The key of a shown screen: the session's current screen when the ids are its own (the
  /// common case, no hashing), else looked up.
  func screenKey(_ flowID: String, _ screenID: String, current number: Int) -> Int32? {
    let current = screenNumbers[number]
    if current.screenID == screenID, current.flowID == flowID { return current.key }
    return screenKey(flowID, screenID)
  }

  /// A user's trait value.
  func sample(_ trait: BehaviourModel.Trait, _ random: inout SimulationRandom) -> Value {
    switch trait {
    case .weights(let values, let weights): .string(values[random.weighted(weights)])
    case .numbers(let numbers, let integer):
      .number(integer ? answers.draw(numbers, &random).rounded() : answers.draw(numbers, &random))
    }
  }

  /// A dwell time in milliseconds.
  func sample(_ dwell: BehaviourModel.Dwell, _ random: inout SimulationRandom) -> Int64 {
    switch dwell {
    case .fixed(let ms): max(0, ms)
    case .uniform(let lo, let hi): random.integer(in: min(lo, hi)...max(lo, hi))
    case .normal(let mean, let sd, let lowest): max(lowest, Self.milliseconds(mean + sd * random.normal()))
    case .logNormal(let mu, let sigma): Self.milliseconds(exp(mu + sigma * random.normal()))
    }
  }

  /// A drawn time as whole milliseconds from 0 to a day (a model's 1e300 stays a day).
  static func milliseconds(_ value: Double) -> Int64 {
    value.isNaN ? 0 : Int64(min(max(value, 0), 8.64e7).rounded())
  }
}

extension SimulationPlan {
  /// The configuration of user 0, to check before a run that a session starts at all.
  public var probeConfig: SessionConfig {
    var config = config
    config.userID = userIDPrefix + "0"
    return config
  }
}
