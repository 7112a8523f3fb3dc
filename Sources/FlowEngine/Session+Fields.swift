import FlowExpression
import FlowFormat
import OrderedCollections

extension Session {
  /// `set` and `pick` (`picking`): converts and checks the value for the field's block, then
  /// stores it; a pick may run the field's `answerAction`.
  mutating func setField(_ field: String, _ value: Value, picking: Bool) {
    let blocks = currentBlocks
    let converted: Value?
    // The pick's action, read with the rest of the field's content (building it again costs a copy).
    let answerAction: Action?
    do {
      let environment = environment
      let (candidate, hidden) = blocks.withUnsafeBufferPointer { blocks -> (Int?, Bool) in
        var hidden = false
        for index in blocks.indices where blocks[index].fieldName == field {
          if isVisible(blockAt: index, of: blocks, in: environment) { return (index, hidden) }
          hidden = true
        }
        return (nil, hidden)
      }
      guard let candidate else {
        if hidden {
          return reject("field '\(field)' is hidden on screen '\(currentScreenID)'")
        }
        let fields = blocks.filter { isVisible($0, in: environment) }.compactMap(\.fieldName)
        let list = fields.isEmpty ? "no fields" : "fields: " + fields.joined(separator: ", ")
        return reject("no field '\(field)' on screen '\(currentScreenID)' (\(list))")
      }
      // Read in place: `content.field` would copy the block's content out.
      let read = blocks.withUnsafeBufferPointer { blocks -> Result<(Value?, Action?), Problem> in
        guard blocks[candidate].content.fieldName != nil else {
          return .failure(Problem(message: "block '\(blocks[candidate].id)' does not collect a value"))
        }
        var action: Action?
        if picking {
          guard case .choice(let choice) = blocks[candidate].content else {
            return .failure(Problem(message: "field '\(field)' is not a checklist; use set"))
          }
          action = choice.runsActionOnPick ? choice.action : nil
        }
        return convert(value, for: blocks[candidate].content, field: field, environment: environment).map {
          ($0, action)
        }
      }
      switch read {
      case .success(let read): (converted, answerAction) = read
      case .failure(let problem): return reject(problem.message)
      }
    }
    // The environment (a second reference to `fields`) is gone: the update below is in place.
    if let converted {
      fields[field] = converted
    } else {
      fields.removeValue(forKey: field)
    }
    validationErrors.removeValue(forKey: field)
    guard picking, converted != nil else { return }
    if let action = answerAction {
      if tracing { record(.action, "checklist '\(field)' picked → auto-advance runs \(action.typeName)") }
      drive(perform(action, via: .checklist(field), validate: true))
    }
  }

  struct Problem: Error {
    var message: String
  }

  /// The value to store (nil: clear the field), or why the value does not fit.
  func convert(
    _ value: Value, for content: BlockContent, field: String, environment: SessionEnvironment
  ) -> Result<Value?, Problem> {
    switch content {
    case .text, .media, .icon, .button, .progress, .spacer, .divider, .featureCard, .scrollContainer, .custom,
      .unsupported:
      return .failure(Problem(message: "field '\(field)' does not collect a value"))
    case .input(let input) where input.kind == .location:
      switch value {
      case .null: return .success(nil)
      case .string(let text) where text.trimmingWhitespace.isEmpty: return .success(nil)
      default:
        guard let result = LocationResult.value(of: value, iosQuirks: context.settings.iosQuirks) else {
          return .failure(Problem(message: "field '\(field)' takes a place: text or \(LocationResult.shape)"))
        }
        return .success(result)
      }
    case .input(let input) where input.kind == .range:
      if value == .null || value.displayString.trimmingWhitespace.isEmpty { return .success(nil) }
      return ValueShapes.range(value, keys: input.rangeKeys, min: input.min, max: input.max)
        .map(Optional.some).mapError { Problem(message: "field '\(field)' \($0.message)") }
    case .input(let input):
      switch value {
      case .null: return .success(nil)
      case .list, .object: return .failure(Problem(message: "field '\(field)' takes text, not a \(value.typeName)"))
      default: break
      }
      if input.hasValueShape {
        // An entry of the wrong shape is kept as typed: validation says so on submit.
        let text = value.displayString
        return .success(
          .string(ValueShapes.stored(text, kind: input.kind, iso: input.storesISO, today: virtualDay) ?? text))
      }
      if input.kind == .number {
        if case .string(let text) = value, text.trimmingWhitespace.isEmpty { return .success(nil) }
        // `1e999` reads as infinity, which no JSON output could hold: not a number either.
        guard let number = value.numericValue, number.isFinite else {
          return .failure(
            Problem(message: "'\(context.secrets.text(value, of: field))' is not a number (field '\(field)')"))
        }
        return .success(.number(number))
      }
      return .success(.string(value.displayString))

    case .choice(let choice):
      // One value (a single pick, the common case) is taken alone: wrapping it builds a list.
      var wanted: [Value] = []
      var single = false
      switch value {
      case .null: break
      case .list(let items): wanted = items
      case .object: return .failure(Problem(message: "field '\(field)' takes options, not an object"))
      default: single = true
      }
      // The first value picked, then the others in order: a single pick (the common case)
      // builds no list.
      var first: String?
      var others: [String] = []
      // The options' names are rendered once, and each text is matched once, however long the list.
      var names: [OptionMatching.Names]?
      // One wanted value (a single pick, the common case) needs no memo.
      let memoizes = wanted.count > 1
      var outcomes = OutcomeMemo(room: memoizes ? wanted.count : 0)
      /// Takes one wanted value; the problem when it names no option or several.
      func take(_ wantedValue: Value) -> Problem? {
        let item = wantedValue.displayString
        let outcome: OptionMatching.Outcome
        if memoizes, let known = outcomes[item] {
          outcome = known
        } else {
          outcome = choiceItem(item, of: choice, names: &names, in: environment)
          if memoizes { outcomes.add(item, outcome) }
        }
        switch outcome {
        case .one(let match):
          let value = choice.items[match].value
          if first == nil {
            first = value
          } else if first != value, !others.contains(value) {
            others.append(value)
          }
          return nil
        case .several(let matches):
          let names = matches.map { optionDescription(choice.items[$0], in: environment) }
          return Problem(message: "'\(item)' could be several options of '\(field)': \(names.joined(separator: ", "))")
        case .none:
          let names = choice.items.map { optionDescription($0, in: environment) }
          return Problem(
            message: "no option '\(item)' in '\(field)' (options by id or label: \(names.joined(separator: ", ")))")
        }
      }
      if single {
        if let problem = take(value) { return .failure(problem) }
      } else {
        for wantedValue in wanted {
          if let problem = take(wantedValue) { return .failure(problem) }
        }
      }
      guard let first else { return .success(choice.allowMultiple ? .list([]) : nil) }
      if choice.allowMultiple {
        var values: [Value] = []
        values.reserveCapacity(1 + others.count)
        values.append(.string(first))
        for other in others { values.append(.string(other)) }
        return .success(.list(values))
      }
      guard others.isEmpty else {
        return .failure(Problem(message: "'\(field)' takes one option, got \(1 + others.count)"))
      }
      return .success(.string(first))

    case .slider(let slider):
      guard let number = value.numericValue else {
        return .failure(Problem(message: "'\(value.displayString)' is not a number (slider '\(field)')"))
      }
      let js = NumberFormatting.javaScriptString
      guard number >= slider.min, number <= slider.max else {
        return .failure(
          Problem(message: "\(js(number)) is out of range for '\(field)' (\(js(slider.min)) to \(js(slider.max)))"))
      }
      if slider.step > 0 {
        let steps = (number - slider.min) / slider.step
        if abs(steps - steps.rounded()) > 1e-9 {
          return .failure(
            Problem(
              message: "\(js(number)) is not a step of \(js(slider.step)) from \(js(slider.min)) for '\(field)'"))
        }
      }
      return .success(.number(number))

    case .toggle:
      switch value {
      case .bool(let b): return .success(.bool(b))
      case .number(let n) where n == 0 || n == 1: return .success(.bool(n == 1))
      case .string(let text):
        switch text.trimmingWhitespace.lowercased() {
        case "true", "yes", "y", "on", "1": return .success(.bool(true))
        case "false", "no", "n", "off", "0": return .success(.bool(false))
        default: break
        }
      default: break
      }
      return .failure(
        Problem(
          message: "toggle '\(field)' takes y or n (yes/no, true/false, on/off, 1/0), not '\(value.displayString)'"))
    }
  }

  /// The item a picked text names (`OptionMatching`: id or value, else the rendered label,
  /// else the start of one).
  func choiceItem(
    _ item: String, of choice: ChoiceBlock, names: inout [OptionMatching.Names]?, in environment: SessionEnvironment
  ) -> OptionMatching.Outcome {
    let items = choice.items
    // The common case, an id or a value as recorded, needs no label rendered.
    if let index = items.indices.first(where: { items[$0].id == item || items[$0].value == item }) {
      return .one(index)
    }
    let all = names ?? items.map { optionNames($0, in: environment) }
    names = all
    return OptionMatching.match(item, among: all)
  }

  func optionNames(_ item: ChoiceBlock.Item, in environment: SessionEnvironment) -> OptionMatching.Names {
    OptionMatching.Names(
      ids: item.value == item.id ? [item.id] : [item.id, item.value],
      label: EngineExpressions.render(item.label, in: environment))
  }

  /// `strength (💪 Strength)`: an option as messages list it.
  func optionDescription(_ item: ChoiceBlock.Item, in environment: SessionEnvironment) -> String {
    "\(item.id) (\(EngineExpressions.render(item.label, in: environment)))"
  }

  /// The names a checklist's options answer to, in order (`OptionMatching`).
  public func optionNames(of choice: ChoiceBlock) -> [OptionMatching.Names] {
    let environment = environment
    return choice.items.map { optionNames($0, in: environment) }
  }

  /// The session as a screen should be drawn: the defaults its untouched visible fields will
  /// store on leaving are stored already, so a template reading a slider shows its value
  /// rather than the raw template (issue 19 item 4). For display only: never sent inputs.
  public var showingDefaults: Session {
    var shown = self
    shown.commitDefaults()
    return shown
  }

  /// Stores the defaults of untouched visible fields (slider, toggle, input `defaultValue`) when
  /// the screen is left forward.
  mutating func commitDefaults() {
    // The blocks with a default, from the document's tables when the session has them (an
    // override changes only text blocks, but then everything is found again here).
    let table = overrides.isEmpty ? context.tables?.screens[frame.flow][frame.screen].defaults : nil
    if let table, table.isEmpty { return }
    let blocks = currentBlocks
    guard !blocks.isEmpty else { return }
    let carriers = table ?? DocumentTables.defaults(of: blocks)
    // Visibility is decided before any default is stored (as if read from `visibleBlocks`).
    let defaults = blocks.withUnsafeBufferPointer { blocks in
      let environment = environment
      var defaults: [(String, Value)] = []
      for carrier in carriers
      where fields[carrier.field] == nil && isVisible(blockAt: carrier.block, of: blocks, in: environment) {
        defaults.append((carrier.field, carrier.value))
      }
      return defaults
    }
    for (field, value) in defaults where fields[field] == nil {
      fields[field] = value
    }
  }
}

/// The outcomes of the texts of one multiple pick matched so far: a short list searched in
/// order (a simulated user picks a few options; a dictionary cost an allocation and a hash per
/// text), moved into a dictionary once the list is long.
private struct OutcomeMemo {
  static let listed = 16
  var listedOutcomes: [(item: String, outcome: OptionMatching.Outcome)] = []
  var hashed: [String: OptionMatching.Outcome] = [:]

  /// Room for `count` texts in the list (allocated once, not at 1, 2, 4 and 8).
  init(room count: Int) {
    if count > 0 { listedOutcomes.reserveCapacity(min(count, Self.listed)) }
  }

  subscript(item: String) -> OptionMatching.Outcome? {
    if let found = listedOutcomes.first(where: { $0.item == item }) { return found.outcome }
    return hashed.isEmpty ? nil : hashed[item]
  }

  mutating func add(_ item: String, _ outcome: OptionMatching.Outcome) {
    if listedOutcomes.count < Self.listed {
      listedOutcomes.append((item, outcome))
    } else {
      hashed[item] = outcome
    }
  }
}
