import FlowExpression
import OrderedCollections

// TEMPORARY: a small evaluator and template filler so the engine works before the expression
// module's own evaluator lands on this branch. Only `Expressions+Engine.swift` calls it; delete
// this file at the merge.

struct InterimEvaluator {
  let environment: EngineEnvironment
  var reads: [(String, Value?)] = []

  init(environment: EngineEnvironment) { self.environment = environment }

  static func holds(_ expression: Expression, in environment: EngineEnvironment) -> Bool {
    var evaluator = InterimEvaluator(environment: environment)
    return ((try? evaluator.evaluate(expression)) ?? nil)?.isTruthy ?? false
  }

  static func trace(_ expression: Expression, source: String, in environment: EngineEnvironment)
    -> ConditionOutcome
  {
    var connective: BinaryOperator?
    if case .binary(let op, _, _) = expression.kind, op == .and || op == .or { connective = op }
    let parts = connective.map { chain(expression, $0) } ?? [expression]
    var evaluator = InterimEvaluator(environment: environment)
    var result = connective != .or
    var note: String?
    for (index, part) in parts.enumerated() {
      let value: Bool
      do {
        value = try evaluator.evaluate(part)?.isTruthy ?? false
      } catch {
        result = false
        note = "error: \(error)"
        break
      }
      if let connective, value == (connective == .or) {
        result = value
        note = "\(ordinal(index)) clause"
        break
      }
      if connective == nil { result = value }
    }
    if note == nil, parts.count > 1 { note = connective == .and ? "all clauses" : "no clause" }
    var seen: Set<String> = []
    let readText = evaluator.reads.filter { seen.insert($0.0).inserted }.map {
      $0.0 + "=" + ($0.1.map(\.description) ?? "(missing)")
    }.joined(separator: ", ")
    var summary = readText.isEmpty ? "" : readText + " "
    summary += "→ " + (result ? "true" : "false")
    if let note { summary += " (\(note))" }
    return ConditionOutcome(result: result, summary: summary)
  }

  static func chain(_ expression: Expression, _ op: BinaryOperator) -> [Expression] {
    guard case .binary(op, let lhs, let rhs) = expression.kind else { return [expression] }
    return chain(lhs, op) + chain(rhs, op)
  }

  static func ordinal(_ index: Int) -> String {
    let words = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]
    return index < words.count ? words[index] : "#\(index + 1)"
  }

  static func path(_ expression: Expression) -> String? {
    switch expression.kind {
    case .name(let name): name
    case .member(let base, let member): path(base).map { "\($0).\(member)" }
    default: nil
    }
  }

  /// nil means "missing".
  mutating func evaluate(_ expression: Expression) throws(EvaluationError) -> Value? {
    switch expression.kind {
    case .literal(let value):
      return value
    case .list(let items):
      var values: [Value] = []
      for item in items { values.append(try evaluate(item) ?? .null) }
      return .list(values)
    case .name(let name):
      let value = environment.value(forRoot: name)
      reads.append((name, value))
      return value
    case .member(let base, let member):
      let value = try lookup(base, member: member)
      if let path = Self.path(expression) { reads.append((path, value)) }
      return value
    case .index(let base, let index):
      guard let container = try evaluate(base), let key = try evaluate(index) else { return nil }
      switch (container, key) {
      case (.list(let list), .number(let n)):
        let i = Int(n)
        return Double(i) == n && i >= 0 && i < list.count ? list[i] : nil
      case (.object(let object), .string(let s)): return object[s]
      default: return nil
      }
    case .unary(let op, let operand):
      let value = try evaluate(operand)
      switch op {
      case .not: return .bool(!(value?.isTruthy ?? false))
      case .negate:
        guard let n = value?.numericValue else {
          throw .typeMismatch("cannot negate \(value?.typeName ?? "a missing value")")
        }
        return .number(-n)
      }
    case .binary(let op, let lhs, let rhs):
      return try binary(op, lhs, rhs)
    case .call(let function, let arguments):
      var values: [Value] = []
      for argument in arguments {
        guard let value = try evaluate(argument) else { throw .missingVariable(Self.path(argument) ?? "?") }
        values.append(value)
      }
      return try call(function, values)
    case .test(let test, let operand):
      let value = try evaluate(operand)
      switch test {
      case .empty: return .bool(value?.isEmpty ?? true)
      case .notEmpty: return .bool(!(value?.isEmpty ?? true))
      case .isSet: return .bool(value != nil && value != .null)
      case .notSet: return .bool(value == nil || value == .null)
      }
    }
  }

  private mutating func lookup(_ base: Expression, member: String) throws(EvaluationError) -> Value? {
    let value: Value?
    if case .name(let name) = base.kind {
      value = environment.value(forRoot: name)
    } else if case .member(let inner, let innerMember) = base.kind {
      value = try lookup(inner, member: innerMember)
    } else {
      value = try evaluate(base)
    }
    guard case .object(let object)? = value else { return nil }
    return object[member]
  }

  private mutating func binary(_ op: BinaryOperator, _ lhs: Expression, _ rhs: Expression)
    throws(EvaluationError) -> Value?
  {
    switch op {
    case .and:
      guard try evaluate(lhs)?.isTruthy ?? false else { return .bool(false) }
      return .bool(try evaluate(rhs)?.isTruthy ?? false)
    case .or:
      if try evaluate(lhs)?.isTruthy ?? false { return .bool(true) }
      return .bool(try evaluate(rhs)?.isTruthy ?? false)
    default: break
    }
    let left = try evaluate(lhs)
    let right = try evaluate(rhs)
    switch op {
    case .equal, .notEqual:
      guard let left, let right else { return .bool(op == .notEqual) }
      let same: Bool
      if case .list(let items) = left, !isList(right) {
        same = items.contains { Self.equal($0, right) }
      } else {
        same = Self.equal(left, right)
      }
      return .bool(op == .equal ? same : !same)
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      guard let left, let right else { return .bool(false) }
      let order: Int
      if let a = left.numericValue, let b = right.numericValue {
        order = a < b ? -1 : (a > b ? 1 : 0)
      } else if case .string(let a) = left, case .string(let b) = right {
        order = a < b ? -1 : (a > b ? 1 : 0)
      } else {
        return .bool(false)
      }
      switch op {
      case .less: return .bool(order < 0)
      case .lessOrEqual: return .bool(order <= 0)
      case .greater: return .bool(order > 0)
      default: return .bool(order >= 0)
      }
    case .in, .contains:
      guard var container = right, var element = left else { return .bool(false) }
      if op == .contains { swap(&container, &element) }
      switch container {
      case .list(let items): return .bool(items.contains { Self.equal($0, element) })
      case .string(let s): return .bool(s.contains(element.displayString))
      case .object(let o): return .bool(o[element.displayString] != nil)
      default: return .bool(false)
      }
    case .matches:
      guard let left, let right else { return .bool(false) }
      guard let regex = try? Regex(right.displayString) else {
        throw .invalidPattern(right.displayString)
      }
      return .bool(left.displayString.wholeMatch(of: regex) != nil)
    case .add:
      guard let left, let right else { throw .missingVariable(Self.path(left == nil ? lhs : rhs) ?? "?") }
      if case .string = left { return .string(left.displayString + right.displayString) }
      if case .string = right { return .string(left.displayString + right.displayString) }
      return .number(try number(left) + number(right))
    case .subtract, .multiply, .divide, .remainder:
      guard let left, let right else { throw .missingVariable(Self.path(left == nil ? lhs : rhs) ?? "?") }
      let a = try number(left)
      let b = try number(right)
      switch op {
      case .subtract: return .number(a - b)
      case .multiply: return .number(a * b)
      case .divide:
        if b == 0 { throw .divisionByZero }
        return .number(a / b)
      default:
        if b == 0 { throw .divisionByZero }
        return .number(a.truncatingRemainder(dividingBy: b))
      }
    default:
      return nil
    }
  }

  private func isList(_ value: Value) -> Bool {
    if case .list = value { return true }
    return false
  }

  private func number(_ value: Value) throws(EvaluationError) -> Double {
    guard let n = value.numericValue else { throw .typeMismatch("expected a number, got \(value.typeName)") }
    return n
  }

  static func equal(_ a: Value, _ b: Value) -> Bool {
    if let x = a.numericValue, let y = b.numericValue { return x == y }
    return a == b
  }

  private func call(_ function: Function, _ values: [Value]) throws(EvaluationError) -> Value {
    func first() throws(EvaluationError) -> Double { try number(values[0]) }
    switch function {
    case .len:
      switch values[0] {
      case .string(let s): return .number(Double(s.count))
      case .list(let l): return .number(Double(l.count))
      case .object(let o): return .number(Double(o.count))
      default: throw .typeMismatch("len needs a string or a list")
      }
    case .round:
      let digits = values.count > 1 ? Int(try number(values[1])) : 0
      return .number(NumberFormatting.round(try first(), fractionDigits: digits))
    case .floor: return .number((try first()).rounded(.down))
    case .ceil: return .number((try first()).rounded(.up))
    case .abs: return .number(Swift.abs(try first()))
    case .min, .max:
      var numbers: [Double] = []
      for value in values {
        if case .list(let items) = value {
          for item in items { numbers.append(try number(item)) }
        } else {
          numbers.append(try number(value))
        }
      }
      guard let result = function == .min ? numbers.min() : numbers.max() else {
        throw .typeMismatch("\(function.rawValue) needs a value")
      }
      return .number(result)
    case .lower: return .string(values[0].displayString.lowercased())
    case .upper: return .string(values[0].displayString.uppercased())
    }
  }
}

enum InterimTemplate {
  /// Fills `{expr}` placeholders (no filters); `\{` is a literal brace; anything that does not
  /// parse or evaluate stays literal.
  static func render(_ source: String, in environment: EngineEnvironment) -> String {
    guard source.contains("{") else { return source }
    var out = ""
    var index = source.startIndex
    while index < source.endIndex {
      let c = source[index]
      if c == "\\", source.index(after: index) < source.endIndex, source[source.index(after: index)] == "{" {
        out.append("{")
        index = source.index(index, offsetBy: 2)
        continue
      }
      if c == "{", let close = source[index...].firstIndex(of: "}") {
        let inner = String(source[source.index(after: index)..<close])
        var evaluator = InterimEvaluator(environment: environment)
        if !inner.contains("|"), let expression = try? Expression.parse(inner),
          let value = (try? evaluator.evaluate(expression)) ?? nil
        {
          out += value.displayString
        } else {
          out += source[index...close]
        }
        index = source.index(after: close)
        continue
      }
      out.append(c)
      index = source.index(after: index)
    }
    return out
  }
}
