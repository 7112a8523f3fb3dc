import OrderedCollections

/// The built-in functions: `len round floor ceil abs min max lower upper`.
@usableFromInline enum Functions {
  @usableFromInline static func call(_ function: Function, _ arguments: [Value]) throws(EvaluationError) -> Value {
    switch function {
    case .len:
      switch arguments[0] {
      case .string(let s): return .number(Double(s.count))
      case .list(let l): return .number(Double(l.count))
      case .object(let o): return .number(Double(o.count))
      case let other:
        throw .typeMismatch("len() needs a string, list or object, not a \(other.typeName)")
      }
    case .round:
      let x = try number(arguments[0], for: function)
      let digits = arguments.count > 1 ? try number(arguments[1], for: function) : 0
      return .number(NumberFormatting.round(x, fractionDigits: NumberFormatting.digitCount(digits)))
    case .floor: return .number(try number(arguments[0], for: function).rounded(.down))
    case .ceil: return .number(try number(arguments[0], for: function).rounded(.up))
    case .abs: return .number(try number(arguments[0], for: function).magnitude)
    case .min, .max:
      // `min(list)` works on the list's elements; otherwise on the arguments.
      var items = arguments
      if arguments.count == 1, case .list(let list) = arguments[0] { items = list }
      guard !items.isEmpty else { throw .typeMismatch("\(function.rawValue)() of an empty list") }
      var numbers: [Double] = []
      for item in items { numbers.append(try number(item, for: function)) }
      return .number((function == .min ? numbers.min() : numbers.max())!)
    case .lower: return .string(arguments[0].displayString.lowercased())
    case .upper: return .string(arguments[0].displayString.uppercased())
    }
  }

  private static func number(
    _ value: Value, for function: Function
  ) throws(EvaluationError)
    -> Double
  {
    guard let number = value.numericValue else {
      throw .typeMismatch("\(function.rawValue)() needs a number, not a \(value.typeName)")
    }
    return number
  }
}
