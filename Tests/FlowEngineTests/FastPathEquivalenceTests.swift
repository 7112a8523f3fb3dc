import FlowEngine
import FlowExpression
import FlowFormat
import FlowGenerator
import OrderedCollections
import Testing

/// The engine's fast paths against the plain ones on generated flows: `send(_:into:)` against
/// `send(_:)`, `Condition.holds` (no trace) against `Condition.evaluate(in:).result`, and a
/// session with `emitsEvents: false` (and with `emitsActionResults`) against one with events, one keeping only its path against
/// one keeping its history, `tap(.label)` against the search of `actions` it replaced, and
/// `send(pressing:)` (of an entry or a slot) against `tap(.number)`.
@Suite struct FastPathEquivalenceTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var seed: UInt64
    var screens: Int
    var ruleDensity: Double
    var recordsHistory: Bool
    var testDescription: String { "seed \(seed), \(screens) screens, rules \(ruleDensity), history \(recordsHistory)" }
  }

  static let cases: [Case] = [
    Case(seed: 11, screens: 60, ruleDensity: 0.5, recordsHistory: true),
    Case(seed: 11, screens: 60, ruleDensity: 0.5, recordsHistory: false),
    Case(seed: 3, screens: 25, ruleDensity: 0.9, recordsHistory: true),
    Case(seed: 7, screens: 40, ruleDensity: 0.2, recordsHistory: false),
  ]

  static func document(_ testCase: Case) -> FlowDocument? {
    var options = FlowGenerator.Options()
    options.seed = testCase.seed
    options.screens = testCase.screens
    options.branching = 3
    options.ruleDensity = testCase.ruleDensity
    return FlowLoader.load(bytes: FlowGenerator(options).generate(), file: "generated.json").document
  }

  /// Inputs the current screen offers, plus a few it rejects.
  static func choices(_ session: Session) -> [Input] {
    var choices: [Input] = [.next, .back, .tap(.number(99)), .set(field: "no_such_field", value: 1)]
    choices += session.actions.map { .tap(.number($0.number)) }
    for block in session.visibleBlocks {
      guard let field = block.fieldName else { continue }
      switch block.content {
      case .input: choices += [.set(field: field, value: "Alex"), .set(field: field, value: "")]
      case .choice(let choice):
        choices += choice.items.map { .pick(field: field, items: [$0.id]) }
        choices.append(.pick(field: field, items: ["not an option"]))
      case .slider(let slider):
        choices += [.set(field: field, value: .number(slider.max)), .set(field: field, value: "x")]
      case .toggle: choices += [.set(field: field, value: true), .set(field: field, value: "maybe")]
      default: break
      }
    }
    if case .awaiting = session.status { choices = [.result(.success(nil)), .result(.cancelled)] }
    return choices
  }

  /// Every condition of the document (rules and `visibleWhen`).
  static func conditions(_ document: FlowDocument) -> [Condition] {
    document.flows.flatMap { flow in
      flow.screens.flatMap { screen in
        screen.rules.compactMap(\.when) + screen.content.flatBlocks.compactMap(\.visibleWhen)
      }
    }
  }

  @Test(arguments: cases)
  func bufferedSendMatchesSend(_ testCase: Case) throws {
    let document = try #require(Self.document(testCase))
    let conditions = Self.conditions(document)
    var random = SplitMix64(seed: testCase.seed)
    let config = SessionConfig(now: 1_767_225_600_000, recordsHistory: testCase.recordsHistory)
    var buffer: [Output] = []
    for _ in 0..<40 {
      var plain = try Session.start(document: document, config: config).0
      var buffered = plain
      for _ in 0..<60 where !plain.status.isEnded {
        let choices = Self.choices(plain)
        let input = choices[Int(random.next() % UInt64(choices.count))]
        let outputs = plain.send(input)
        buffered.send(input, into: &buffer)
        #expect(buffer == outputs)
        #expect(buffered == plain)
        let environment = plain.templateEnvironment
        for condition in conditions {
          #expect(condition.holds(in: environment) == condition.evaluate(in: environment).result, "\(condition.source)")
        }
      }
    }
  }

  /// Without events a session answers the same outputs minus the `.event`s, and stands where the
  /// session with events stands.
  @Test(arguments: cases)
  func sessionWithoutEventsMatchesWithEvents(_ testCase: Case) throws {
    let document = try #require(Self.document(testCase))
    var random = SplitMix64(seed: testCase.seed)
    let config = SessionConfig(now: 1_767_225_600_000, recordsHistory: testCase.recordsHistory)
    var quiet = config
    quiet.emitsEvents = false
    var results = quiet
    results.emitsActionResults = true
    func withoutEvents(_ outputs: [Output], but kept: EventType? = nil) -> [Output] {
      outputs.filter { if case .event(let event) = $0 { event.type == kept } else { true } }
    }
    for _ in 0..<40 {
      var (loud, loudStart) = try Session.start(document: document, config: config)
      var (silent, silentStart) = try Session.start(document: document, config: quiet)
      var (resulting, resultingStart) = try Session.start(document: document, config: results)
      #expect(silentStart == withoutEvents(loudStart))
      #expect(resultingStart == withoutEvents(loudStart, but: .actionResult))
      for _ in 0..<60 where !loud.status.isEnded {
        let choices = Self.choices(loud)
        let input = choices[Int(random.next() % UInt64(choices.count))]
        let outputs = loud.send(input)
        #expect(silent.send(input) == withoutEvents(outputs))
        #expect(resulting.send(input) == withoutEvents(outputs, but: .actionResult))
        #expect(resulting.currentFlowIndex == document.flowIndex(loud.currentFlowID))
        #expect(resulting.currentScreenIndex == loud.currentFlow.index(of: loud.currentScreenID))
        #expect(
          resulting.innermostSubflowIndices.map { [$0.flow, $0.screen] }
            == loud.subflowScreenIndices.last.map { [$0.flow, $0.screen] })
        #expect(silent.events.isEmpty)
        #expect(silent.status == loud.status && silent.data == loud.data && silent.path == loud.path)
        #expect(silent.trace == loud.trace && silent.validationErrors == loud.validationErrors)
        #expect(silent.currentScreen.id == loud.currentScreen.id && silent.history == loud.history)
        #expect(silent.actions == loud.actions && silent.virtualNow == loud.virtualNow)
      }
    }
  }

  /// A session keeping only its path (`recordsPath`, what `paths --emit` replays with) stands
  /// where a session with its whole history stands and has walked the same path, with no
  /// events and no trace kept.
  @Test(arguments: cases)
  func sessionKeepingPathMatchesHistory(_ testCase: Case) throws {
    let document = try #require(Self.document(testCase))
    var random = SplitMix64(seed: testCase.seed)
    let config = SessionConfig(now: 1_767_225_600_000, recordsHistory: true)
    var lean = config
    (lean.recordsHistory, lean.recordsPath, lean.emitsEvents) = (false, true, false)
    for _ in 0..<40 {
      var full = try Session.start(document: document, config: config).0
      var pathOnly = try Session.start(document: document, config: lean).0
      for _ in 0..<60 where !full.status.isEnded {
        let choices = Self.choices(full)
        let input = choices[Int(random.next() % UInt64(choices.count))]
        let outputs = full.send(input).filter { if case .event = $0 { false } else { true } }
        #expect(pathOnly.send(input) == outputs)
        #expect(pathOnly.path == full.path && !pathOnly.path.isEmpty)
        #expect(pathOnly.events.isEmpty && pathOnly.trace.isEmpty)
        #expect(pathOnly.status == full.status && pathOnly.data == full.data)
        #expect(pathOnly.actions == full.actions && pathOnly.currentScreen.id == full.currentScreen.id)
      }
    }
  }

  /// `tap(.label(text))` taps what the first `actions` entry with that label (trimmed,
  /// case-insensitive), else with that block id, is: the same outputs and session as tapping
  /// its number; no such entry is a rejection.
  @Test(arguments: cases)
  func tapByLabelMatchesActionsSearch(_ testCase: Case) throws {
    let document = try #require(Self.document(testCase))
    var random = SplitMix64(seed: testCase.seed)
    let config = SessionConfig(now: 1_767_225_600_000, recordsHistory: testCase.recordsHistory)
    for _ in 0..<30 {
      var session = try Session.start(document: document, config: config).0
      for _ in 0..<40 where !session.status.isEnded {
        let entries = session.actions
        let texts =
          entries.flatMap { [$0.label, " \($0.label.uppercased()) ", $0.blockID ?? "primary"] } + [
            "skip", "no such button",
          ]
        for text in texts {
          var byLabel = session
          let outputs = byLabel.send(.tap(.label(text)))
          func normalized(_ label: String) -> String {
            String(label.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()).lowercased()
          }
          let expected =
            entries.first { normalized($0.label) == normalized(text) }
            ?? entries.first { $0.blockID == text }
          if let expected {
            var byNumber = session
            #expect(outputs == byNumber.send(.tap(.number(expected.number))), "\(text)")
            #expect(byLabel == byNumber, "\(text)")
          } else {
            #expect(outputs.count == 1 && byLabel == session, "\(text)")
            if case .rejected = outputs.first {} else { Issue.record("'\(text)' was not rejected: \(outputs)") }
          }
        }
        let choices = Self.choices(session)
        _ = session.send(choices[Int(random.next() % UInt64(choices.count))])
      }
    }
  }

  /// `send(pressing:)` of a control `actions(renderingLabels:)` just listed, or of a slot
  /// `controlSlots` just listed, leaves the same outputs and session as tapping its number, and
  /// the slots are the controls `actions` lists (numbers, kinds, blocks): on every screen of
  /// random walks, quiet (the simulator's sessions: no events, no history) or not, pending or not.
  @Test(arguments: cases)
  func pressingAListedControlMatchesTap(_ testCase: Case) throws {
    let document = try #require(Self.document(testCase))
    var random = SplitMix64(seed: testCase.seed)
    var config = SessionConfig(now: 1_767_225_600_000, recordsHistory: testCase.recordsHistory)
    config.emitsEvents = testCase.recordsHistory
    var buffer: [Output] = []
    var slots: [ControlSlot] = []
    for _ in 0..<30 {
      var session = try Session.start(document: document, config: config).0
      for _ in 0..<40 where !session.status.isEnded {
        for labelled in [false, true] {
          for entry in session.actions(renderingLabels: labelled) {
            var pressed = session
            pressed.send(pressing: entry, into: &buffer)
            var tapped = session
            #expect(buffer == tapped.send(.tap(.number(entry.number))), "\(entry)")
            #expect(pressed == tapped, "\(entry)")
          }
        }
        session.controlSlots(into: &slots)
        let entries = session.actions(renderingLabels: false)
        let blocks = session.currentScreen.content.flatBlocks
        #expect(slots.map(\.number) == entries.map(\.number))
        #expect(slots.map(\.kind) == entries.map(\.kind))
        #expect(slots.map { $0.block >= 0 ? blocks[$0.block].id : nil } == entries.map(\.blockID))
        for slot in slots {
          var pressed = session
          pressed.send(pressing: slot, into: &buffer)
          var tapped = session
          #expect(buffer == tapped.send(.tap(.number(slot.number))), "\(slot)")
          #expect(pressed == tapped, "\(slot)")
        }
        let choices = Self.choices(session)
        _ = session.send(choices[Int(random.next() % UInt64(choices.count))])
      }
    }
  }

  /// `setVariables` leaves the session where sending `setVariable` for each value leaves it:
  /// taken whole by a fresh session, one by one after answers, with a trace, or once ended.
  @Test(arguments: cases)
  func setVariablesMatchesOneSendEach(_ testCase: Case) throws {
    let document = try #require(Self.document(testCase))
    var random = SplitMix64(seed: testCase.seed)
    let config = SessionConfig(now: 1_767_225_600_000, recordsHistory: testCase.recordsHistory)
    let fields = document.flows.flatMap { $0.screens.flatMap { $0.content.flatBlocks.compactMap(\.fieldName) } }
    for walk in 0..<20 {
      var session = try Session.start(document: document, config: config).0
      for _ in 0..<(walk % 5 * 10) where !session.status.isEnded {
        let choices = Self.choices(session)
        _ = session.send(choices[Int(random.next() % UInt64(choices.count))])
      }
      var values: OrderedDictionary<String, Value> = [:]
      for field in fields where random.next() % 3 != 0 { values[field] = .number(Double(random.next() % 10)) }
      var one = session
      for (name, value) in values { _ = one.send(.setVariable(name: name, value: value)) }
      var all = session
      all.setVariables(values)
      #expect(all == one)
      #expect(all.data == one.data && all.trace == one.trace)
    }
  }
}
