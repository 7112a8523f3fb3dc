import FlowEngine
import FlowExpression
import FlowFormat
import FlowPattern

/// Draws a user's answer to one collecting block: the model's distribution for the field when
/// it gives one, else a uniform draw over valid answers (docs/simulate.md, "Defaults"). A
/// class: the walk reads it from the plan once per user, and a struct copied its every field.
final class AnswerSampler: Sendable {
  /// The default text pool (names; e-mail addresses are built from them).
  static let names = ["Alex", "Sam", "Jordan", "Taylor", "Morgan", "Casey", "Riley", "Jamie"]

  let model: BehaviourModel
  /// An answer each input's pattern accepts (by pattern source and lengths), found once.
  let patternAnswers: [String: String]

  init(model: BehaviourModel, document: FlowDocument) {
    self.model = model
    var answers: [String: String] = [:]
    for flow in document.flows {
      for screen in flow.screens {
        for block in screen.content.flatBlocks {
          guard case .input(let input) = block.content, let pattern = input.pattern else { continue }
          let key = Self.patternKey(input)
          if answers[key] == nil, let answer = pattern.example(lengths: Self.lengths(input)) { answers[key] = answer }
        }
      }
    }
    patternAnswers = answers
  }

  static func lengths(_ input: InputBlock) -> ClosedRange<Int> {
    let shortest = max(0, input.minLength ?? 0)
    return shortest...max(shortest, input.maxLength ?? Int.max)
  }

  static func patternKey(_ input: InputBlock) -> String {
    "\(input.pattern?.source ?? "")\u{1F}\(lengths(input).lowerBound)\u{1F}\(lengths(input).upperBound)"
  }

  /// A choice block's weights by option: the model's (over values or ids) when it gives some,
  /// else 1 each; empty for other blocks.
  static func optionWeights(_ block: Block, _ fieldModel: BehaviourModel.FieldModel?) -> [Double] {
    guard case .choice(let choice) = block.content else { return [] }
    return choice.items.map { item in
      guard let fieldModel, !fieldModel.weights.isEmpty else { return 1.0 }
      return fieldModel.weights.first { $0.answer == item.value || $0.answer == item.id }?.weight ?? 0
    }
  }

  /// Whether a field must be answered (the user never skips it by default).
  static func isRequired(_ content: FieldContent) -> Bool {
    switch content {
    case .input(let input): input.required
    case .choice(let choice): choice.required || (choice.minSelections ?? 0) > 0
    case .slider, .toggle: false
    }
  }

  /// Writes the input that answers a collecting block into `input` and says true; false (and
  /// `input` untouched) when the user leaves it empty. The block's content is matched in place
  /// (binding it whole copied it per answer).
  func answer(_ target: SimulationPlan.FieldBlock, random: inout SimulationRandom, into input: inout Input) -> Bool {
    if case .none = target.content { return false }
    let field = target.field
    if random.chance(target.skip) { return false }
    if let choice = target.choice {
      guard !choice.ids.isEmpty else { return false }
      // A pick that runs no action stores what setting its values stores: the set builds no
      // list of ids, and none of values from it.
      if target.picksToAdvance {
        input = .pick(field: field, items: choice.pick(target.optionWeights, &random))
      } else {
        input = .set(field: field, value: choice.pickedValue(target.optionWeights, &random))
      }
      return true
    }
    // Read once the choice is ruled out: a copy of the field's model (its arrays retained).
    let fieldModel = target.model
    switch target.content {
    case nil, .choice?:
      return false
    case .toggle?:
      if let drawn = weighted(fieldModel, &random) {
        input = .set(field: field, value: .bool(drawn == "true"))
      } else {
        input = .set(field: field, value: .bool(random.chance(0.5)))
      }
    case .slider(let slider)?:
      let step = slider.step > 0 ? slider.step : 1
      // Stops counted in a Double: a range of 1e15 in steps of 1e-6 has more than Int.max.
      let stops = max(0, ((slider.max - slider.min) / step).rounded(.down))
      let stop = stops < 0x1p52 ? Double(random.integer(in: 0...Int64(stops))) : (random.unit() * stops).rounded(.down)
      var value = slider.min + stop * step
      if let drawn = weighted(fieldModel, &random), let number = Double(drawn) {
        value = number
      } else if let numbers = fieldModel?.numbers {
        let raw = draw(numbers, &random)
        value = slider.min + ((min(max(raw, slider.min), slider.max) - slider.min) / step).rounded() * step
      }
      input = .set(field: field, value: .number(value))
    case .input?:
      guard let inputField = target.input else { return false }
      input = .set(field: field, value: inputAnswer(inputField, fieldModel, &random))
    }
    return true
  }

  /// What drawing a choice block's options needs, found once per block.
  final class Choice: Sendable {
    /// The options' ids, in order.
    let ids: [String]
    let allowMultiple: Bool
    /// Options with a positive weight (0: every option is drawn uniformly).
    let available: Int
    /// A multi-select's selection bounds over the available options.
    let lowest: Int
    let highest: Int

    init(_ choice: ChoiceBlock, weights: [Double]) {
      ids = choice.items.map(\.id)
      allowMultiple = choice.allowMultiple
      available = weights.filter { $0 > 0 }.count
      lowest = min(max(1, choice.minSelections ?? 1), available)
      highest = max(lowest, min(choice.maxSelections ?? available, available))
    }

    /// `pick` as the value a set stores: the id, or a multi-select's list of ids (the same
    /// draws).
    func pickedValue(_ weights: [Double], _ random: inout SimulationRandom) -> Value {
      guard available > 0 else { return .string(ids[random.index(ids.count)]) }
      guard allowMultiple else { return .string(ids[random.weighted(weights)]) }
      return .list(picks(weights, &random, as: Value.string))
    }

    /// The ids of the options drawn by `weights` (`optionWeights`; uniform when none is
    /// positive); a multi-select takes a uniform count within its selection bounds.
    func pick(_ weights: [Double], _ random: inout SimulationRandom) -> [String] {
      guard available > 0 else { return [ids[random.index(ids.count)]] }
      guard allowMultiple else { return [ids[random.weighted(weights)]] }
      return picks(weights, &random) { $0 }
    }

    /// A multi-select's draw: a uniform count within its bounds, each option drawn by the
    /// weights of those not drawn yet (as `random.weighted` over the weights with the drawn
    /// ones zeroed), in option order. Up to 64 options are marked in a bit set: neither the
    /// weights nor the drawn indices are copied into arrays, and the result is built once.
    private func picks<Item>(
      _ weights: [Double], _ random: inout SimulationRandom, as item: (String) -> Item
    ) -> [Item] {
      let count = lowest + random.index(highest - lowest + 1)
      guard weights.count <= 64 else {
        var left = weights
        var picked: [Int] = []
        picked.reserveCapacity(count)
        for _ in 0..<count {
          let index = random.weighted(left)
          picked.append(index)
          left[index] = 0
        }
        picked.sort()
        return picked.map { item(ids[$0]) }
      }
      var drawn: UInt64 = 0
      // An option drawn again (only the last one can be: `weighted`'s fallback) is listed again,
      // as the sorted list of draws has it.
      var again: [Int] = []
      weights.withUnsafeBufferPointer { weights in
        for _ in 0..<count {
          let index = Self.weighted(weights, leaving: drawn, &random)
          if drawn & (1 << UInt64(index)) != 0 { again.append(index) }
          drawn |= 1 << UInt64(index)
        }
      }
      var items: [Item] = []
      items.reserveCapacity(count)
      var rest = drawn
      while rest != 0 {
        let index = rest.trailingZeroBitCount
        items.append(item(ids[index]))
        for repeated in again where repeated == index { items.append(item(ids[index])) }
        rest &= rest &- 1
      }
      return items
    }

    /// `random.weighted(weights)` with the weights of the options in `drawn` taken as 0: the
    /// same sum (adding 0 changes none) and the same walk (a 0 weight never ends it, but the
    /// last index is the fallback whatever its weight).
    private static func weighted(
      _ weights: UnsafeBufferPointer<Double>, leaving drawn: UInt64, _ random: inout SimulationRandom
    ) -> Int {
      var total = 0.0
      for index in weights.indices { total += drawn & (1 << UInt64(index)) == 0 ? weights[index] : 0 }
      var point = random.unit() * total
      for index in weights.indices {
        point -= drawn & (1 << UInt64(index)) == 0 ? weights[index] : 0
        if point < 0 { return index }
      }
      return weights.count - 1
    }
  }

  /// What answering an input block needs, found once per block (binding the block's
  /// `InputBlock` out of its content copied it per answer, and its pattern's answer was looked up
  /// by a key built each time).
  final class InputField: Sendable {
    let kind: InputBlock.Kind
    let min: Double?
    let max: Double?
    let minLength: Int?
    let maxLength: Int?
    let dateBounds: DateBounds?
    /// An answer the block's pattern accepts (nil: no pattern, or none found).
    let patternAnswer: String?
    /// `time`, `datetime`, `color`, `range`: `ValueShapes`' sample answer.
    let shapeSample: String?

    init(_ input: InputBlock, patternAnswers: [String: String]) {
      kind = input.kind
      min = input.min
      max = input.max
      minLength = input.minLength
      maxLength = input.maxLength
      dateBounds = input.dateBounds
      patternAnswer = input.pattern == nil ? nil : patternAnswers[AnswerSampler.patternKey(input)]
      switch input.kind {
      case .time, .datetime, .color, .range: shapeSample = ValueShapes.sample(input)
      default: shapeSample = nil
      }
    }
  }

  private func inputAnswer(
    _ input: InputField, _ fieldModel: BehaviourModel.FieldModel?, _ random: inout SimulationRandom
  ) -> Value {
    if let drawn = weighted(fieldModel, &random) {
      return input.kind == .number ? Double(drawn).map(Value.number) ?? .string(drawn) : .string(drawn)
    }
    if let pool = fieldModel?.pool, !pool.isEmpty { return .string(pool[random.index(pool.count)]) }
    if input.kind == .number {
      let lowest = input.min ?? (input.max.map { $0 - 100 } ?? 0)
      let highest = max(lowest, input.max ?? lowest + 100)
      if let numbers = fieldModel?.numbers {
        var value = min(max(draw(numbers, &random), lowest), highest)
        if fieldModel?.integer ?? true { value = min(max(value.rounded(), lowest.rounded(.up)), highest) }
        return .number(value)
      }
      // Whole numbers within the bounds (the bounds themselves when no whole number fits).
      let first = lowest.rounded(.up)
      guard first <= highest else { return .number(lowest) }
      let span = Int64(min((highest - first).rounded(.down), 1e15))
      return .number(first + Double(random.integer(in: 0...span)))
    }
    if let answer = input.patternAnswer { return .string(answer) }
    let name = Self.names[random.index(Self.names.count)]
    var text: String
    switch input.kind {
    case .email: text = "\(name.lowercased())@example.com"
    case .phone: text = "+1555555\(String(100 + random.index(100)).leftPadded(to: 4))"
    case .url: text = "https://example.com/\(name.lowercased())"
    case .date:
      text = String(Timestamp.iso8601(milliseconds: Int64(3_650 + random.index(14_600)) * 86_400_000).prefix(10))
      if let bounds = input.dateBounds { text = bounds.clamp(text) }
    case .password: text = "\(name)-secret-1"
    case .time, .datetime, .color, .range: text = input.shapeSample ?? name
    // Plain text: an AppDNA location field keeps it as the result's formatted address.
    case .location: text = "1 \(name) Street, Springfield"
    case .text, .number: text = name
    }
    if let lo = input.minLength, lo > text.count { text += String(repeating: "x", count: lo - text.count) }
    if let hi = input.maxLength, hi >= 0, hi < text.count { text = String(text.prefix(hi)) }
    return .string(text)
  }

  /// An answer drawn from the model's weights, if it gives any.
  private func weighted(_ fieldModel: BehaviourModel.FieldModel?, _ random: inout SimulationRandom) -> String? {
    guard let weights = fieldModel?.weights, weights.contains(where: { $0.weight > 0 }) else { return nil }
    return weights[random.weighted(weights.map(\.weight))].answer
  }

  func draw(_ numbers: BehaviourModel.Numbers, _ random: inout SimulationRandom) -> Double {
    switch numbers {
    case .uniform(let lo, let hi): lo + random.unit() * (hi - lo)
    case .normal(let mean, let sd): mean + sd * random.normal()
    }
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
