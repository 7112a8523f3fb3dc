import FlowExpression
import FlowFormat

/// The options of a checklist that the explorer tries.
///
/// A state keeps a field only as the outcomes of the conditions that read it
/// (``PathExplorer/FieldAbstraction``), and validation looks only at how many options are
/// picked. When those conditions only test membership, equality, `len` or emptiness against
/// literals (``FieldUse``), options whose value no literal mentions are interchangeable: any
/// selection gives the same outcomes after swapping one for another. So the explorer tries each
/// mentioned option, the first plain one, pairs among those and the first two plain ones, and
/// drops any selection whose outcome an earlier one had. Sending every option and every pair
/// on each visit cost a 90-option checklist 4,095 forks per state.
///
/// A field no condition reads is one class. A field used any other way (compared with another
/// field, ordered, matched, indexed) keeps every option, and its pairs are cut at ``pairBudget``.
struct OptionClasses {
  let choice: ChoiceBlock
  let abstraction: PathExplorer.FieldAbstraction?
  /// What the engine stores for each option named by its id.
  private let stored: [String]
  /// The first option of each class, in item order.
  let singles: [Int]
  /// The first two options of each class.
  private let members: [[Int]]

  /// Most pairs tried per checklist and visit.
  static let pairBudget = 256

  /// - Parameters:
  ///   - abstraction: how states keep the field; nil when no condition reads it.
  ///   - use: how its conditions use it (``FieldUse/init(_:)`` of `abstraction`).
  init(_ choice: ChoiceBlock, abstraction: PathExplorer.FieldAbstraction?, use: FieldUse?) {
    self.choice = choice
    self.abstraction = abstraction
    let items = choice.items
    // The engine stores the first item whose id or value is the text picked.
    var firstByName: [String: Int] = [:]
    for (index, item) in items.enumerated() {
      if firstByName[item.id] == nil { firstByName[item.id] = index }
      if firstByName[item.value] == nil { firstByName[item.value] = index }
    }
    let stored = items.map { items[firstByName[$0.id]!].value }
    self.stored = stored
    let plainClass: Bool
    if abstraction == nil {
      plainClass = true
    } else if let use, use.interchangeable, !use.usesLength || choice.allowMultiple {
      plainClass = true
    } else {
      plainClass = false
    }
    var members: [[Int]] = []
    var plain: Int?
    var seenValue = Set<String>()
    for index in items.indices {
      // Options storing the same value are one option to the engine.
      guard seenValue.insert(stored[index]).inserted else { continue }
      let isPlain =
        plainClass && (abstraction == nil || !(use?.mentions(stored[index], asText: !choice.allowMultiple) ?? true))
      if isPlain, let plain {
        if members[plain].count < 2 { members[plain].append(index) }
      } else {
        if isPlain { plain = members.count }
        members.append([index])
      }
    }
    self.members = members
    singles = members.map { $0[0] }
  }

  /// What a state keeps of the options `picked`: their count and the field's outcomes.
  func outcome(_ picked: [Int]) -> Value {
    var values: [String] = []
    for index in picked where !values.contains(stored[index]) { values.append(stored[index]) }
    let value: Value =
      choice.allowMultiple || values.count != 1 ? .list(values.map(Value.string)) : .string(values[0])
    return .list([.number(Double(values.count)), abstraction?.key(value) ?? .null])
  }

  /// Pairs of class members (`i < j`, in the order of the exhaustive list of pairs), at most
  /// ``pairBudget``, and how many more there are.
  var pairs: (pairs: [(Int, Int)], leftOut: Int) {
    var pairs: [(Int, Int)] = []
    for a in members.indices {
      if members[a].count == 2 { pairs.append((members[a][0], members[a][1])) }
      for b in members.indices where b > a { pairs.append((members[a][0], members[b][0])) }
    }
    pairs.sort { $0 < $1 }
    return (Array(pairs.prefix(Self.pairBudget)), max(0, pairs.count - Self.pairBudget))
  }

  /// The selections a multi-select is filled with, as option indices, in the order of the
  /// exhaustive list (each option, each pair, `minSelections` options, `maxSelections + 1`
  /// options, none), keeping the first of each outcome.
  func multiSelectFills(pairsWanted: Bool) -> [[Int]] {
    var fills: [[Int]] = singles.map { [$0] }
    if pairsWanted { fills += pairs.pairs.map { [$0.0, $0.1] } }
    let count = choice.items.count
    if let low = choice.minSelections, low > 2, low <= count { fills.append(Array(0..<low)) }
    if let high = choice.maxSelections, high + 1 <= count, high + 1 > 2 { fills.append(Array(0...high)) }
    fills.append([])
    var seen = Set<Value>()
    return fills.filter { seen.insert(outcome($0)).inserted }
  }
}

extension OptionClasses {
  /// How the conditions that read a field use it.
  struct FieldUse: Sendable {
    /// Every use compares the whole field with literals by `==`, `!=`, `in` or `contains`,
    /// takes its `len`, or tests it (`empty`, `is_set`, ...).
    let interchangeable: Bool
    /// Some condition takes `len` of it (a string's length depends on its text).
    let usesLength: Bool
    /// The literals the field is compared with.
    let literals: [Value]

    init(_ abstraction: PathExplorer.FieldAbstraction) {
      var literals: [Value] = []
      var usesLength = false
      var interchangeable = abstraction.atoms != nil
      for atom in abstraction.atoms ?? []
      where !Self.isPlain(atom.expression, field: abstraction.name, usesLength: &usesLength, literals: &literals) {
        interchangeable = false
      }
      self.interchangeable = interchangeable
      self.usesLength = usesLength
      self.literals = literals
    }

    /// Whether a condition could tell an option of this value from another: a literal equals
    /// it (also as a number) or, for a single choice (text), holds it or is held by it
    /// (`contains` and `in` on text); blank text (`empty` trims).
    func mentions(_ value: String, asText: Bool) -> Bool {
      if value.allSatisfy(\.isWhitespace) { return true }
      let number = Value.string(value).numericValue
      return literals.contains { literal in
        let text = literal.displayString
        if text == value || (number != nil && literal.numericValue == number) { return true }
        return asText && !text.isEmpty && (text.contains(value) || value.contains(text))
      }
    }

    /// The values of a constant expression, lists flattened.
    private static func constantValues(_ expression: Expression, into values: inout [Value]) {
      switch expression.kind {
      case .literal(let value): values += flattened(value)
      case .list(let items): for item in items { constantValues(item, into: &values) }
      case .unary(.negate, let operand):
        if case .literal(let value) = operand.kind, let number = value.numericValue { values.append(.number(-number)) }
      default: break
      }
    }

    private static func flattened(_ value: Value) -> [Value] {
      switch value {
      case .list(let items): items.flatMap(flattened)
      case .object(let object): object.flatMap { [Value.string($0.key)] + flattened($0.value) }
      default: [value]
      }
    }

    /// True when every occurrence of `field` in `expression` is a plain use; adds the literals
    /// it is compared with.
    private static func isPlain(
      _ expression: Expression, field: String, usesLength: inout Bool, literals: inout [Value]
    ) -> Bool {
      func plain(_ e: Expression) -> Bool { isPlain(e, field: field, usesLength: &usesLength, literals: &literals) }
      func isField(_ e: Expression) -> Bool { if case .name(field) = e.kind { true } else { false } }
      func isLength(_ e: Expression) -> Bool {
        if case .call(.len, let arguments) = e.kind, arguments.count == 1, isField(arguments[0]) { true } else { false }
      }
      func isConstant(_ e: Expression) -> Bool {
        switch e.kind {
        case .literal: true
        case .list(let items): items.allSatisfy(isConstant)
        case .unary(.negate, let operand): isConstant(operand)
        default: false
        }
      }
      switch expression.kind {
      case .name(field):
        return false
      case .call(.len, _) where isLength(expression):
        usesLength = true
        return true
      case .test(_, let operand) where isField(operand):
        return true
      case .binary(let op, let lhs, let rhs):
        switch op {
        case .equal, .notEqual, .in, .contains:
          if let constant = isField(lhs) && isConstant(rhs) ? rhs : isField(rhs) && isConstant(lhs) ? lhs : nil {
            constantValues(constant, into: &literals)
            return true
          }
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
          if (isLength(lhs) && isConstant(rhs)) || (isLength(rhs) && isConstant(lhs)) {
            usesLength = true
            return true
          }
        default: break
        }
        return plain(lhs) && plain(rhs)
      case .unary(_, let operand), .test(_, let operand), .member(let operand, _):
        return plain(operand)
      case .index(let base, let index):
        return plain(base) && plain(index)
      case .list(let items), .call(_, let items):
        return items.allSatisfy(plain)
      case .literal, .pattern, .name:
        return true
      }
    }
  }
}
