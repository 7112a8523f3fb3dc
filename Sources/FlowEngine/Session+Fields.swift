import FlowExpression
import FlowFormat
import OrderedCollections

extension Session {
  /// `set` and `pick` (`picking`): converts and checks the value for the field's block, then
  /// stores it; a pick may run the field's `answerAction`.
  mutating func setField(_ field: String, _ value: Value, picking: Bool) {
    // The document's blocks (an override changes none that collects a field).
    let blocks = documentBlocks
    let found = collectingBlock(of: field, in: blocks)
    guard let candidate = found.index else {
      if found.hidden {
        return reject("field '\(field)' is hidden on screen '\(currentScreenID)'")
      }
      let environment = environment
      let fields = blocks.filter { isVisible($0, in: environment) }.compactMap(\.fieldName)
      let list = fields.isEmpty ? "no fields" : "fields: " + fields.joined(separator: ", ")
      return reject("no field '\(field)' on screen '\(currentScreenID)' (\(list))")
    }
    // The content is read in place in the block's box: a copy of it retains each reference of
    // its payload.
    let outcome = blocks.withUnsafeBufferPointer { blocks in
      blocks[candidate].withContent { content -> Result<(Value?, Action?), Problem> in
        var answerAction: Action?
        if picking {
          guard case .choice(let choice) = content else {
            return .failure(Problem(message: "field '\(field)' is not a checklist; use set"))
          }
          if choice.runsActionOnPick { answerAction = choice.action }
        }
        do throws(Problem) {
          return .success((try convert(value, for: content, field: field), answerAction))
        } catch {
          return .failure(error)
        }
      }
    }
    let converted: Value?
    let answerAction: Action?
    switch outcome {
    case .success(let result): (converted, answerAction) = result
    case .failure(let problem): return reject(problem.message)
    }
    // No environment (a second reference to `fields`) is alive: the update below is in place.
    if let converted {
      fields.store(converted, forKey: field, print: found.print ?? FieldStore.fingerprint(field))
    } else {
      fields.removeValue(forKey: field)
    }
    if !validationErrors.isEmpty { validationErrors.removeValue(forKey: field) }
    guard picking, converted != nil else { return }
    if let action = answerAction {
      if tracing { record(.action, "checklist '\(field)' picked → auto-advance runs \(action.typeName)") }
      drive(perform(action, via: .checklist(field), validate: true))
    }
  }

  /// The first visible block of `blocks` (the current screen's, as the document has them) that
  /// collects `field`; `hidden` when a block collects it but none is visible; `print`: the
  /// field's fingerprint when the document's tables gave it. With the tables only the blocks
  /// that collect a field are asked.
  private func collectingBlock(of field: String, in blocks: [Block]) -> (index: Int?, hidden: Bool, print: UInt64?) {
    blocks.withUnsafeBufferPointer { blocks in
      var hidden = false
      guard let tables = context.tables else {
        for index in blocks.indices where blocks[index].fieldName == field {
          if isVisible(blockAt: index, of: blocks) { return (index, hidden, nil) }
          hidden = true
        }
        return (nil, hidden, nil)
      }
      return tables.withScreen(flow: frame.flow, screen: frame.screen) { screen in
        screen.pointee.collectors.withUnsafeBufferPointer { collectors in
          for index in collectors.indices where collectors[index].field == field {
            if isVisible(blockAt: collectors[index].block, of: blocks) {
              return (collectors[index].block, hidden, collectors[index].print)
            }
            hidden = true
          }
          return (nil, hidden, nil)
        }
      }
    }
  }

  struct Problem: Error {
    var message: String
  }

  /// The value to store (nil: clear the field), or why the value does not fit.
  func convert(_ value: Value, for content: BlockContent, field: String) throws(Problem) -> Value? {
    switch content {
    case .text, .media, .icon, .button, .progress, .spacer, .divider, .featureCard, .scrollContainer, .custom,
      .unsupported:
      throw Problem(message: "field '\(field)' does not collect a value")
    case .input(let input):
      return try convert(value, for: input, field: field)
    case .choice(let choice):
      return try convert(value, for: choice, field: field)
    case .slider(let slider):
      guard let number = value.numericValue else {
        throw Problem(message: "'\(value.displayString)' is not a number (slider '\(field)')")
      }
      let js = NumberFormatting.javaScriptString
      guard number >= slider.min, number <= slider.max else {
        throw Problem(message: "\(js(number)) is out of range for '\(field)' (\(js(slider.min)) to \(js(slider.max)))")
      }
      if slider.step > 0 {
        let steps = (number - slider.min) / slider.step
        if abs(steps - steps.rounded()) > 1e-9 {
          throw Problem(
            message: "\(js(number)) is not a step of \(js(slider.step)) from \(js(slider.min)) for '\(field)'")
        }
      }
      return .number(number)

    case .toggle:
      switch value {
      case .bool(let b): return .bool(b)
      case .number(let n) where n == 0 || n == 1: return .bool(n == 1)
      case .string(let text):
        switch text.trimmingWhitespace.lowercased() {
        case "true", "yes", "y", "on", "1": return .bool(true)
        case "false", "no", "n", "off", "0": return .bool(false)
        default: break
        }
      default: break
      }
      throw Problem(
        message: "toggle '\(field)' takes y or n (yes/no, true/false, on/off, 1/0), not '\(value.displayString)'")
    }
  }

  /// `convert` for an input block.
  private func convert(_ value: Value, for input: InputBlock, field: String) throws(Problem) -> Value? {
    switch input.kind {
    case .location:
      switch value {
      case .null: return nil
      case .string(let text) where text.trimmingWhitespace.isEmpty: return nil
      default:
        guard let result = LocationResult.value(of: value, iosQuirks: context.settings.iosQuirks) else {
          throw Problem(message: "field '\(field)' takes a place: text or \(LocationResult.shape)")
        }
        return result
      }
    case .range:
      if value == .null || value.displayString.trimmingWhitespace.isEmpty { return nil }
      switch ValueShapes.range(value, keys: input.rangeKeys, min: input.min, max: input.max) {
      case .success(let range): return range
      case .failure(let problem): throw Problem(message: "field '\(field)' \(problem.message)")
      }
    default:
      break
    }
    switch value {
    case .null: return nil
    case .list, .object: throw Problem(message: "field '\(field)' takes text, not a \(value.typeName)")
    default: break
    }
    if input.hasValueShape {
      // An entry of the wrong shape is kept as typed: validation says so on submit.
      let text = value.displayString
      return .string(ValueShapes.stored(text, kind: input.kind, iso: input.storesISO, today: virtualDay) ?? text)
    }
    if input.kind == .number {
      if case .string(let text) = value, text.trimmingWhitespace.isEmpty { return nil }
      // `1e999` reads as infinity, which no JSON output could hold: not a number either.
      guard let number = value.numericValue, number.isFinite else {
        throw Problem(message: "'\(context.secrets.text(value, of: field))' is not a number (field '\(field)')")
      }
      return .number(number)
    }
    return .string(value.displayString)
  }

  /// `convert` for a choice: the options the value names (ids, values or labels; a list for
  /// several), in the order first picked, each once.
  private func convert(_ value: Value, for choice: ChoiceBlock, field: String) throws(Problem) -> Value? {
    // One value (a single pick, the common case) is taken alone: wrapping it builds a list.
    var wanted: [Value] = []
    var single = false
    switch value {
    case .null: break
    case .list(let items): wanted = items
    case .object: throw Problem(message: "field '\(field)' takes options, not an object")
    default: single = true
    }
    // The options picked, in the order first picked, each once: one list, sized once.
    var picked: [Value] = []
    if !single { picked.reserveCapacity(wanted.count) }
    var first: String?
    // The options' names are rendered once, and each text is matched once, however long the list.
    var names: [OptionMatching.Names]?
    // A long list's texts are matched once each (a few picks cost less matched again).
    var outcomes = wanted.count > OutcomeMemo.listed ? OutcomeMemo(room: wanted.count) : nil
    /// Takes one wanted value; the problem when it names no option or several.
    func take(_ wantedValue: Value) -> Problem? {
      let item = wantedValue.displayString
      let outcome: OptionMatching.Outcome
      if let known = outcomes?[item] {
        outcome = known
      } else {
        outcome = choiceItem(item, of: choice, names: &names)
        outcomes?.add(item, outcome)
      }
      switch outcome {
      case .one(let match):
        let value = choice.items[match].value
        if single {
          first = value
        } else if !picked.contains(where: { if case .string(let taken) = $0 { taken == value } else { false } }) {
          picked.append(.string(value))
        }
        return nil
      case .several(let matches):
        let environment = environment
        let names = matches.map { optionDescription(choice.items[$0], in: environment) }
        return Problem(message: "'\(item)' could be several options of '\(field)': \(names.joined(separator: ", "))")
      case .none:
        let environment = environment
        let names = choice.items.map { optionDescription($0, in: environment) }
        return Problem(
          message: "no option '\(item)' in '\(field)' (options by id or label: \(names.joined(separator: ", ")))")
      }
    }
    if single {
      if let problem = take(value) { throw problem }
      guard let first else { return choice.allowMultiple ? .list([]) : nil }
      return choice.allowMultiple ? .list([.string(first)]) : .string(first)
    }
    for wantedValue in wanted {
      if let problem = take(wantedValue) { throw problem }
    }
    if choice.allowMultiple { return .list(picked) }
    guard picked.count <= 1 else {
      throw Problem(message: "'\(field)' takes one option, got \(picked.count)")
    }
    return picked.first
  }

  /// The item a picked text names (`OptionMatching`: id or value, else the rendered label,
  /// else the start of one).
  func choiceItem(
    _ item: String, of choice: ChoiceBlock, names: inout [OptionMatching.Names]?
  )
    -> OptionMatching.Outcome
  {
    let items = choice.items
    // The common case, an id or a value as recorded, needs no label rendered.
    if let index = items.indices.first(where: { items[$0].id == item || items[$0].value == item }) {
      return .one(index)
    }
    let environment = environment
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
    // The blocks with a default, from the document's tables when the session has them (the
    // document's blocks either way: an override changes none that holds a default).
    let defaults =
      context.tables?.withScreen(flow: frame.flow, screen: frame.screen) { $0.pointee.defaults }
      ?? DocumentTables.defaults(of: documentBlocks)
    guard !defaults.carriers.isEmpty else { return }
    defaults.carriers.withUnsafeBufferPointer { carriers in
      guard defaults.conditional else {
        // Every one of them shows (`visible`, no condition): stored in order, the first of two
        // blocks of one field winning.
        for index in carriers.indices {
          fields.storeIfAbsent(carriers[index].value, forKey: carriers[index].field, print: carriers[index].print)
        }
        return
      }
      // Visibility is decided before any default is stored (as if read from `visibleBlocks`).
      let shown = documentBlocks.withUnsafeBufferPointer { blocks in
        carriers.map { fields[$0.field, print: $0.print] == nil && isVisible(blockAt: $0.block, of: blocks) }
      }
      for index in carriers.indices where shown[index] {
        fields.storeIfAbsent(carriers[index].value, forKey: carriers[index].field, print: carriers[index].print)
      }
    }
  }
}

/// The outcomes of the texts of one long multiple pick (more than `listed` texts: a few are
/// matched again instead) matched so far: a short list searched in order, moved into a
/// dictionary once the list is long.
private struct OutcomeMemo {
  static let listed = 16
  var listedOutcomes: [(item: String, outcome: OptionMatching.Outcome)] = []
  var hashed: [String: OptionMatching.Outcome] = [:]

  /// Room for `count` texts in the list (allocated once, not at 1, 2, 4 and 8).
  init(room count: Int) {
    listedOutcomes.reserveCapacity(min(count, Self.listed))
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
