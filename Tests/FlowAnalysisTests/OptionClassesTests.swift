import FlowEngine
import FlowExpression
import FlowFormat
import Foundation
import Testing
import _FlowTestSupport

@testable import FlowAnalysis

/// Flows whose checklists are read by conditions of every kind `OptionClasses` distinguishes:
/// membership, equality, `in`, `len`, emptiness, text containment, numbers, ordering, a whole
/// list compared with another field, and a field read by no condition.
enum ChecklistFlows {
  struct Shape: CustomTestStringConvertible, Sendable {
    var name: String
    var items: [String]
    var multiple = true
    var autoAdvance = false
    /// Extra checklist content, e.g. `"minSelections": 3`.
    var extra = ""
    /// Rule conditions of the screen after the checklist, each going to its own screen.
    var conditions: [String]
    /// A second checklist `g` with the same items before the rules.
    var second = false

    var testDescription: String { name }

    var json: String {
      func checklist(_ field: String, _ screen: String) -> String {
        let options = items.map { #"{"id": "\#($0)", "label": "Option \#($0)"}"# }.joined(separator: ", ")
        let action = autoAdvance ? #", "action": {"type": "next"}"# : ""
        let button = autoAdvance ? "" : #", {"id": "\#(screen)_go", "type": "button", "content": {"text": "Go"}}"#
        return
          #"{"id": "\#(screen)", "name": "\#(screen)", "type": "question", "content": {"blocks": [{"id": "\#(screen)_c", "type": "checklist", "content": {"fieldName": "\#(field)", "allowMultiple": \#(multiple), "autoAdvance": \#(autoAdvance), "items": [\#(options)]\#(action)\#(extra)}}\#(button)]}}"#
      }
      var screens = [checklist("f", "pick")]
      if second { screens.append(checklist("g", "pick2")) }
      var rules = conditions.enumerated().map {
        #"{"when": "\#($1.replacingOccurrences(of: "\"", with: "\\\""))", "goto": "t\#($0)"}"#
      }
      rules.append(#"{"goto": "done"}"#)
      screens.append(
        #"{"id": "route", "name": "Route", "type": "feature", "rules": [\#(rules.joined(separator: ", "))], "content": {"blocks": [{"id": "route_t", "type": "text", "content": {"text": "You picked {f | join}"}}, {"id": "route_go", "type": "button", "content": {"text": "Go"}}]}}"#
      )
      for index in conditions.indices {
        screens.append(
          #"{"id": "t\#(index)", "name": "T\#(index)", "type": "feature", "next": "done", "content": {"title": "T\#(index)"}}"#
        )
      }
      screens.append(#"{"id": "done", "name": "Done", "type": "celebration", "content": {"title": "Done"}}"#)
      return #"{"version": 1, "id": "\#(name)", "screens": [\#(screens.joined(separator: ",\n"))]}"#
    }
  }

  static let ids = (0..<12).map { "o\($0)" }

  static let shapes: [Shape] = [
    Shape(
      name: "membership", items: ids,
      conditions: ["f contains 'o1'", "f contains 'o2' && len(f) > 1", "'o4' in f", "f in ['o5', 'o6']", "f == 'o3'"]),
    Shape(
      name: "counts", items: ids, extra: #", "minSelections": 1, "maxSelections": 4"#,
      conditions: ["len(f) >= 2", "len(f) == 0"]),
    Shape(
      name: "conjunctions", items: ids,
      conditions: ["f contains 'o1' && f contains 'o2'", "!(f contains 'o7') && len(f) == 2"]),
    Shape(name: "unread", items: ids, conditions: []),
    Shape(name: "whole list", items: ids, conditions: ["f == g"], second: true),
    Shape(
      name: "numbers", items: ["1", "2", "10", "20", "3", "2.0"], multiple: false,
      conditions: ["f == 2", "f contains '1'"]),
    Shape(name: "ordering", items: ["1", "2", "10", "20", "3"], multiple: false, conditions: ["f > 5"]),
    Shape(
      name: "text", items: ["ab", "abc", "b", "c", "d", "e"], multiple: false, autoAdvance: true,
      conditions: ["f contains 'b'", "'abcd' contains f"]),
    Shape(
      name: "pairs", items: ids, extra: #", "minSelections": 3"#,
      conditions: ["f contains 'o9' && f contains 'o10'", "f == ['o0', 'o1']"]),
  ]

  static func document(_ shape: Shape) throws -> FlowDocument {
    let result = FlowLoader.load(bytes: Array(shape.json.utf8), file: "\(shape.name).json")
    #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty, "\(result.diagnostics.map(\.message))")
    return try #require(result.document)
  }
}

@Suite struct OptionClassesTests {
  /// The exhaustive list the explorer tried before `OptionClasses`: every option, every pair,
  /// `minSelections` and `maxSelections + 1` options, none.
  static func exhaustive(_ choice: ChoiceBlock, pairs: Bool) -> [Value] {
    let ids = choice.items.map(\.id)
    var values: [Value] = []
    func add(_ value: Value) { if !values.contains(value) { values.append(value) } }
    guard choice.allowMultiple else { return ids.map(Value.string) }
    for id in ids { add(.list([.string(id)])) }
    if pairs {
      for i in ids.indices {
        for j in ids.indices where j > i { add(.list([.string(ids[i]), .string(ids[j])])) }
      }
    }
    if let low = choice.minSelections, low > 2, low <= ids.count { add(.list(ids.prefix(low).map(Value.string))) }
    if let high = choice.maxSelections, high + 1 <= ids.count, high + 1 > 2 {
      add(.list(ids.prefix(high + 1).map(Value.string)))
    }
    add(.list([]))
    return values
  }

  /// The options the explorer still tries are exhaustive ones in the same order, and among them
  /// is the first exhaustive option of each outcome through the engine (the field as states
  /// keep it, and how many options are picked): every state the exhaustive list reached is
  /// reached, first by the same option.
  @Test(arguments: ChecklistFlows.shapes)
  func keptOptionsReachWhatEveryOptionReaches(_ shape: ChecklistFlows.Shape) throws {
    let document = try ChecklistFlows.document(shape)
    let explorer = PathExplorer(document: document)
    let screen = try #require(document.flows[0].screen("pick"))
    guard case .choice(let choice) = screen.content.flatBlocks[0].content else {
      Issue.record("no checklist")
      return
    }
    let abstraction = explorer.relevantFields.first { $0.name == "f" }
    func outcome(_ value: Value) throws -> Value {
      var (session, _) = try Session.start(document: document, config: SessionConfig(startScreen: "pick"))
      let outputs = session.send(.set(field: "f", value: value))
      #expect(!outputs.contains { if case .rejected = $0 { true } else { false } }, "\(value)")
      let stored = session.data.first { $0.key == "f" }?.value
      let count: Double = if case .list(let items)? = stored { Double(items.count) } else { stored == nil ? 0 : 1 }
      return .list([.number(count), abstraction.flatMap { $0.key(stored) } ?? .null])
    }
    let old = Self.exhaustive(choice, pairs: true)
    let kept = explorer.choices.candidates(for: screen.content.flatBlocks[0], field: "f")
    // Kept options are exhaustive ones, in the same order.
    var position = 0
    for value in kept {
      let found = try #require(old[position...].firstIndex(of: value), "\(value) is not in the exhaustive list")
      position = found + 1
    }
    var firstOfOutcome: [Value: Value] = [:]
    for value in old where firstOfOutcome[try outcome(value)] == nil { firstOfOutcome[try outcome(value)] = value }
    // Where the conditions use the field in ways it cannot see through (ordering, text), it
    // keeps more than one option per outcome; never fewer.
    #expect(Set(firstOfOutcome.values).isSubset(of: Set(kept)), "the first option of every outcome")
    #expect(kept.count <= old.count)
  }

  @Test func fewerOptionsWhereConditionsCannotTellThemApart() throws {
    let counts = try ChecklistFlows.shapes.map { shape -> (String, Int, Int) in
      let document = try ChecklistFlows.document(shape)
      let block = try #require(document.flows[0].screen("pick")).content.flatBlocks[0]
      guard case .choice(let choice) = block.content else { return (shape.name, 0, 0) }
      let kept = PathExplorer(document: document).choices.candidates(for: block, field: "f").count
      return (shape.name, kept, Self.exhaustive(choice, pairs: true).count)
    }
    let table = Dictionary(uniqueKeysWithValues: counts.map { ($0.0, ($0.1, $0.2)) })
    #expect(table["unread"]! == (3, 79))  // one option, one pair, none (of 12 + 66 + 1)
    #expect(table["membership"]!.0 < 40)
    #expect(table["whole list"]! == (79, 79))  // compared whole: every selection kept
    #expect(table["ordering"]! == (5, 5))
  }

  /// A checklist compared as a whole keeps every pair up to the budget, and says so past it.
  @Test func pairsPastTheBudgetAreNoted() throws {
    let items = (0..<30).map { "o\($0)" }
    let shape = ChecklistFlows.Shape(name: "budget", items: items, conditions: ["f == g"], second: true)
    let document = try ChecklistFlows.document(shape)
    let exploration = PathExplorer(document: document, options: .init(maxStates: 2_000)).explore()
    let leftOut = 30 * 29 / 2 - OptionClasses.pairBudget
    #expect(
      exploration.notes.contains(
        "checklist 'f' of block 'pick_c': only the first \(OptionClasses.pairBudget) pairs of options that conditions tell apart are tried (\(leftOut) more)"
      ))
  }

  /// Explorations over the same flows, summarised; the snapshots were recorded with the
  /// exhaustive option lists (before `OptionClasses`), so states, path counts, coverage and the
  /// covering set are the same with one option per outcome.
  @Test(arguments: ChecklistFlows.shapes)
  func explorationsMatchTheExhaustiveOnes(_ shape: ChecklistFlows.Shape) throws {
    let exploration = PathExplorer(document: try ChecklistFlows.document(shape)).explore()
    let counts = exploration.pathCounts()
    var text = "states: \(exploration.states.count)\n"
    text += "completed: \(counts.completed), dismissed: \(counts.dismissed)\n"
    text += "reachable: " + exploration.reachableItems.map { "\($0)" }.joined(separator: ", ") + "\n"
    let (paths, unconfirmed) = exploration.coveringSet()
    for path in paths {
      text += path.screens.joined(separator: " → ") + "\n"
      text += "  " + path.inputs.map { "\($0)" }.joined(separator: "; ") + "\n"
    }
    text += "unconfirmed: \(unconfirmed.count)\n"
    assertSnapshot(text, named: "option-classes/\(shape.name.replacingOccurrences(of: " ", with: "-"))")
  }
}
