import FlowEngine
import FlowExpression
import FlowFormat
import FlowPattern
import OrderedCollections

/// What the explorer tries on a screen: values for each collecting block (boundaries around
/// the numbers conditions and validation compare with, each option, valid and invalid text),
/// each control, back, dismiss, each result of a pending action.
struct InputChoices: Sendable {
  /// Literal values conditions compare each field with.
  let literals: [String: [Value]]
  /// Names conditions read that no block collects: action results may supply them.
  let resultNames: [String]
  /// Largest multi-select combination tried.
  let multiSelectBound: Int
  /// Success payloads tried for awaited actions and native screens.
  let payloads: [Value?]
  /// A text each input's pattern matches within its lengths (absent when none was found).
  let patternAnswers: [PatternAnswerKey: String]
  /// Inputs whose pattern no built answer matched (only answers it rejects are tried there),
  /// and checklists whose pairs of options were cut.
  let notes: [String]
  /// How states keep each field conditions read, and how the conditions use it (which
  /// options they tell apart).
  let fields: [String: PathExplorer.FieldAbstraction]
  let uses: [String: OptionClasses.FieldUse]

  init(document: FlowDocument, multiSelectBound: Int, fields: [String: PathExplorer.FieldAbstraction]) {
    let uses = fields.mapValues(OptionClasses.FieldUse.init)
    self.fields = fields
    self.uses = uses
    var literals: [String: [Value]] = [:]
    var literalSet: [String: Set<Value>] = [:]
    var read: [String] = []
    var readSet = Set<String>()
    var collected = Set<String>()
    var patternAnswers: [PatternAnswerKey: String?] = [:]
    var notes: [String] = []
    func addLiteral(_ literal: Value, for field: String) {
      if literalSet[field, default: []].insert(literal).inserted { literals[field, default: []].append(literal) }
    }
    for flow in document.flows {
      for screen in flow.screens {
        var conditions = screen.rules.compactMap(\.when)
        for block in screen.content.flatBlocks {
          if let field = block.fieldName { collected.insert(field) }
          if let condition = block.visibleWhen { conditions.append(condition) }
          if case .choice(let choice) = block.content, choice.allowMultiple, multiSelectBound >= 2,
            let field = block.fieldName
          {
            let leftOut = OptionClasses(choice, abstraction: fields[field], use: uses[field]).pairs.leftOut
            if leftOut > 0 {
              notes.append(
                "checklist '\(field)' of block '\(block.id)': only the first \(OptionClasses.pairBudget) pairs of options that conditions tell apart are tried (\(leftOut) more)"
              )
            }
          }
          // Built once per pattern and lengths: each answer costs at most a few bounded matches.
          if case .input(let input) = block.content, let key = PatternAnswerKey(input) {
            if patternAnswers[key] == nil { patternAnswers[key] = .some(key.pattern.example(lengths: key.lengths)) }
            if patternAnswers[key] == .some(nil) {
              notes.append(
                "no answer matching the pattern '\(key.pattern.source)' of block '\(block.id)' was found; only answers it rejects are tried"
              )
            }
          }
        }
        for condition in conditions {
          for name in condition.variableNames where !name.hasPrefix("$") && readSet.insert(name).inserted {
            read.append(name)
          }
          for comparison in condition.expression.fieldComparisons(in: condition.source) {
            for literal in comparison.literals { addLiteral(literal, for: comparison.field) }
            if let answer = comparison.pattern?.example() { addLiteral(.string(answer), for: comparison.field) }
          }
        }
      }
    }
    self.literals = literals
    self.patternAnswers = patternAnswers.compactMapValues { $0 }
    self.notes = notes
    self.multiSelectBound = multiSelectBound
    let resultNames = read.filter { !collected.contains($0) }
    self.resultNames = resultNames
    // Candidate values of each result name: its literals (numbers ±1), else true/false.
    var options: [(String, [Value])] = []
    for name in resultNames {
      var values: [Value] = []
      for literal in literals[name] ?? [] {
        switch literal {
        case .number(let n): values += [.number(n - 1), .number(n), .number(n + 1)]
        case .bool: values += [.bool(true), .bool(false)]
        default: values.append(literal)
        }
      }
      if values.isEmpty { values = [.bool(true), .bool(false)] }
      var unique: [Value] = []
      for value in values where !unique.contains(value) { unique.append(value) }
      options.append((name, unique))
    }
    var payloads: [Value?] = [nil]
    let product = options.reduce(1) { $0 * $1.1.count }
    if !options.isEmpty && product <= 32 {
      var combos: [[(String, Value)]] = [[]]
      for (name, values) in options {
        combos = combos.flatMap { combo in values.map { combo + [(name, $0)] } }
      }
      for combo in combos {
        payloads.append(.object(.init(uniqueKeysWithValues: combo)))
      }
    } else {
      for (name, values) in options {
        for value in values { payloads.append(.object([name: value])) }
      }
    }
    self.payloads = payloads
  }

  /// The values ``candidates(for:field:)`` gave each block, by screen number and block id:
  /// they depend on the block alone, and the explorer asks again in every state on the screen.
  /// A hit must be the same block (ids need not be unique on a screen).
  struct CandidateMemo {
    struct Key: Hashable {
      var screen: Int
      var block: String
    }
    var entries: [Key: [(block: Block, field: String, values: [Value])]] = [:]

    mutating func values(for block: Block, field: String, screen: Int, _ make: () -> [Value]) -> [Value] {
      let key = Key(screen: screen, block: block.id)
      if let hit = entries[key]?.first(where: { $0.field == field && $0.block == block }) { return hit.values }
      let values = make()
      entries[key, default: []].append((block, field, values))
      return values
    }
  }

  /// Input sequences to try from `session` (each applied to a copy; a rejected `set` is skipped,
  /// any other rejected input drops the sequence). `actions` and `visibleBlocks` are the
  /// session's (the caller reads them too, and the session builds them on every read).
  func sequences(
    for session: Session, actions: [ActionEntry], visibleBlocks: [Block], memo: inout CandidateMemo
  ) -> [[Input]] {
    if let pending = session.pending {
      // A parked wait: time moves it on (to its wake-up), or the user closes the flow.
      if case .timer(_, let wakeAt) = pending.source {
        guard let wakeAt else { return [[.dismiss]] }
        return [[.wait(ms: max(0, wakeAt - session.virtualNow))], [.dismiss]]
      }
      // A webhook (a step's or a chat's) answers with a plain proceed; a host hook proceeds.
      if case .hook(let request) = pending.source {
        let answer: Input =
          request.webhook == nil ? .hookAnswered(.proceed(data: nil)) : .webhookAnswered(ChatState.plainReply)
        return [[answer], [.dismiss]]
      }
      var results: [[Input]] = payloads.map { [.result(.success($0))] }
      results.append([.result(.failure("error"))])
      results.append([.result(.cancelled)])
      if case .nativeScreen = pending.source {
        results.append([.next])
        results.append([.complete])
      }
      results.append([.dismiss])
      return results
    }
    let screen = session.currentScreen
    var sequences: [[Input]] = []
    var fields: [(field: String, values: [Value])] = []
    var picks: [(field: String, items: [String])] = []
    for block in visibleBlocks {
      guard let field = block.fieldName else { continue }
      if case .choice(let choice) = block.content.field, choice.runsActionOnPick {
        for index in classes(choice, field: field).singles { picks.append((field, [choice.items[index].id])) }
        continue
      }
      let values = memo.values(for: block, field: field, screen: session.screenNumber) {
        candidates(for: block, field: field)
      }
      if !values.isEmpty { fields.append((field, values)) }
    }
    // Cartesian product of field values when small, else one field varied at a time.
    var plans: [[Input]] = []
    let product = fields.reduce(1) { $0 * $1.values.count }
    if product <= 48 {
      var combos: [[Input]] = [[]]
      for (field, values) in fields {
        combos = combos.flatMap { combo in values.map { combo + [Input.set(field: field, value: $0)] } }
      }
      plans = combos
    } else {
      let base = fields.map { Input.set(field: $0.field, value: $0.values[0]) }
      plans.append(base)
      for (index, (field, values)) in fields.enumerated() {
        for value in values.dropFirst() {
          var plan = base
          plan[index] = .set(field: field, value: value)
          plans.append(plan)
        }
      }
    }
    let base = plans.first ?? []
    let chat = session.chatAutopilot
    for plan in plans {
      for entry in actions { sequences.append(chat + plan + [.tap(.number(entry.number))]) }
    }
    for pick in picks {
      sequences.append(
        base.filter { if case .set(let f, _) = $0 { return f != pick.field } else { return true } } + [
          .pick(field: pick.field, items: pick.items)
        ])
    }
    if screen.kind == .filler, let delay = screen.autoAdvanceMs {
      sequences.append([.wait(ms: Limits.milliseconds(delay))])
    }
    sequences.append([.back])
    sequences.append([.dismiss])
    return sequences
  }

  /// The options of `choice` (collecting `field`) the conditions tell apart.
  func classes(_ choice: ChoiceBlock, field: String) -> OptionClasses {
    OptionClasses(choice, abstraction: fields[field], use: uses[field])
  }

  /// Values to try for one block, a plausible valid one first.
  func candidates(for block: Block, field: String) -> [Value] {
    var values: [Value] = []
    var seen = Set<Value>()
    func add(_ value: Value) { if seen.insert(value).inserted { values.append(value) } }
    let compared = literals[field] ?? []
    switch block.content.field {
    case .input(let input):
      switch input.kind {
      case .number:
        var numbers: [Double] = []
        if let lo = input.min { numbers += [lo, lo - 1] }
        if let hi = input.max { numbers += [hi, hi + 1] }
        for literal in compared {
          if let n = literal.numericValue { numbers += [n - 1, n, n + 1] }
        }
        if numbers.isEmpty { numbers = [25] }
        let valid = numbers.filter { n in (input.min.map { n >= $0 } ?? true) && (input.max.map { n <= $0 } ?? true) }
        for n in valid + numbers { add(.number(n)) }
        add(.string("abc"))
      case .email:
        add(.string("alex@example.com"))
        add(.string("not-an-email"))
      case .phone:
        add(.string("+15555550100"))
        add(.string("call me"))
      case .url:
        add(.string("https://example.com"))
        add(.string("not a url"))
      case .date:
        add(.string(input.dateBounds?.clamp("2026-01-01") ?? "2026-01-01"))
        add(.string("someday"))
      case .location:
        add(.string("New York"))
      case .time, .datetime, .color, .range:
        if let sample = ValueShapes.sample(input) { add(.string(sample)) }
        add(.string("someday"))
      case .text, .password:
        for literal in compared { if case .string = literal { add(literal) } }
        if let key = PatternAnswerKey(input), let answer = patternAnswers[key] { add(.string(answer)) }
        // A plausible valid value: "Alex", padded to minLength, cut to maxLength.
        var valid = "Alex"
        if let lo = input.minLength, lo > valid.count { valid += String(repeating: "x", count: lo - valid.count) }
        if let hi = input.maxLength, hi >= 1, hi < valid.count { valid = String(valid.prefix(hi)) }
        add(.string(valid))
        add(.string("Alex"))
        if let lo = input.minLength, lo > 1 { add(.string(String(repeating: "a", count: lo - 1))) }
        if let hi = input.maxLength { add(.string(String(repeating: "a", count: hi + 1))) }
        if input.pattern != nil { add(.string("12345")) }
      }
      if input.required { add(.string("")) }
    case .slider(let slider):
      let step = slider.step > 0 ? slider.step : 1
      func snap(_ v: Double) -> Double {
        let clamped = Swift.min(Swift.max(v, slider.min), slider.max)
        return slider.min + ((clamped - slider.min) / step).rounded() * step
      }
      add(.number(slider.defaultValue))
      for literal in compared {
        if let n = literal.numericValue {
          for v in [n - step, n, n + step] { add(.number(snap(v))) }
        }
      }
      add(.number(slider.min))
      add(.number(slider.max))
    case .toggle(let toggle):
      add(.bool(!toggle.defaultValue))
      add(.bool(toggle.defaultValue))
    case .choice(let choice):
      // One option per class the conditions tell apart (`OptionClasses`).
      let classes = classes(choice, field: field)
      let ids = choice.items.map(\.id)
      if choice.allowMultiple {
        for fill in classes.multiSelectFills(pairsWanted: multiSelectBound >= 2) {
          add(.list(fill.map { .string(ids[$0]) }))
        }
      } else {
        for index in classes.singles { add(.string(ids[index])) }
      }
    case nil:
      break
    }
    return values
  }
}

/// An input's pattern and the lengths its answers may have.
struct PatternAnswerKey: Hashable, Sendable {
  var pattern: Pattern
  var lengths: ClosedRange<Int>

  init?(_ input: InputBlock) {
    guard let pattern = input.pattern else { return nil }
    let shortest = max(0, input.minLength ?? 0)
    self.pattern = pattern
    lengths = shortest...max(shortest, input.maxLength ?? Int.max)
  }
}
