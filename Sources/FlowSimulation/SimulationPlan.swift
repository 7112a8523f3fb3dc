import FlowEngine
import FlowExpression
import FlowFormat
import Foundation

/// What every user of a run shares: the document, the model, the seed and the lookups the walk
/// needs (screen keys by flow and screen id, the fields whose answers are counted).
public struct SimulationPlan: Sendable {
  public let document: FlowDocument
  public let model: BehaviourModel
  public let seed: UInt64
  let config: SessionConfig
  let answers: AnswerSampler
  /// Screen keys in document order (`screen`, or `flow/screen` in a bundle of several flows).
  public let screenKeys: [String]
  let flowIndex: [String: Int]
  private let screenIndex: [String: (offset: Int, screens: [String: Int])]
  /// Fields answered by blocks (secret ones left out): their answers are counted.
  let countedFields: [String]

  /// `recordsEvents`: sessions keep their analytics events (for the store); nothing else changes.
  public init(
    document: FlowDocument, model: BehaviourModel = BehaviourModel(), seed: UInt64, recordsEvents: Bool = false
  ) {
    self.document = document
    self.model = model
    self.seed = seed
    config = SessionConfig(
      now: model.start, platform: model.platform, locale: model.locale, waitsForResults: true,
      recordsHistory: recordsEvents, emitsEvents: recordsEvents)
    answers = AnswerSampler(model: model, document: document)
    var keys: [String] = []
    var index: [String: (offset: Int, screens: [String: Int])] = [:]
    var flows: [String: Int] = [:]
    var fields: [String] = []
    var known = Set<String>()
    for (position, flow) in document.flows.enumerated() {
      flows[flow.id] = flows[flow.id] ?? position
      var screens: [String: Int] = [:]
      for (number, screen) in flow.screens.enumerated() {
        screens[screen.id] = screens[screen.id] ?? number
        keys.append(document.flows.count > 1 ? "\(flow.id)/\(screen.id)" : screen.id)
        for block in screen.content.flatBlocks {
          guard let field = block.fieldName, !block.isSecret, known.insert(field).inserted else { continue }
          fields.append(field)
        }
      }
      if index[flow.id] == nil { index[flow.id] = (keys.count - flow.screens.count, screens) }
    }
    screenKeys = keys
    screenIndex = index
    flowIndex = flows
    countedFields = fields
  }

  /// The global index of a screen (nil for one the document does not hold).
  func screenKey(_ flowID: String, _ screenID: String) -> Int32? {
    guard let flow = screenIndex[flowID], let screen = flow.screens[screenID] else { return nil }
    return Int32(flow.offset + screen)
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
    config.userID = "sim-\(seed)-0"
    return config
  }
}
