import FlowExpression

/// `audience_rules` → a condition on `$user` traits (targeting, document 001). Object form
/// `{priority, match_mode: all|any, conditions: [rule]}` or a bare array of rules (all must
/// hold); a rule `{trait|field, operator, value, values, min, max}`.
extension DecodeContext {
  static let appdnaAudienceOperators = [
    "equals", "eq", "not_equals", "neq", "gt", "gte", "lt", "lte", "contains", "exists", "between", "in", "not_in",
  ]

  mutating func appdnaAudience(_ value: JSONValue, flowID: String) -> FlowAudience? {
    var priority = 0
    var any = false
    let rules: [JSONValue]
    switch value.kind {
    case .array(let items):
      rules = items
    case .object(let object):
      priority = object.lookup("priority")?.numberValue.map { Int($0) } ?? 0
      any = object.lookup("match_mode")?.stringValue?.lowercased() == "any"
      rules = object.lookup("conditions")?.arrayValue ?? []
    default:
      mismatch(value, expected: "an object {priority, match_mode, conditions} or an array of rules")
      return nil
    }
    var clauses: [Condition] = []
    for (index, rule) in rules.enumerated() {
      at(.index(index)) { context in
        if let clause = context.appdnaAudienceRule(rule) { clauses.append(clause) }
      }
    }
    guard !clauses.isEmpty else { return nil }
    return FlowAudience(flowID: flowID, condition: any ? .any(clauses) : .all(clauses), priority: priority)
  }

  /// One rule; nil (it passes) for a rule without a trait or with an unknown operator.
  private mutating func appdnaAudienceRule(_ value: JSONValue) -> Condition? {
    guard let object = value.objectValue else { return nil }
    guard let trait = object.lookup("trait")?.stringValue ?? object.lookup("field")?.stringValue else { return nil }
    let field = "$user.\(trait)"
    let operand = object.lookup("value").map(Value.init)
    let op = object.lookup("operator")?.stringValue ?? "equals"
    let list = object.lookup("values").map(Value.init) ?? operand
    let location = value.location
    switch op {
    case "equals", "eq": return appdnaCondition(field: field, op: "equals", value: operand ?? .null, at: location)
    case "not_equals", "neq":
      return appdnaCondition(field: field, op: "not_equals", value: operand ?? .null, at: location)
    case "gt", "gte", "lt", "lte", "contains":
      return appdnaCondition(field: field, op: op, value: operand ?? .null, at: location)
    case "exists": return appdnaCondition(field: field, op: "is_set", value: nil, at: location)
    case "in", "not_in": return appdnaCondition(field: field, op: op, value: list ?? .list([]), at: location)
    case "between":
      var low = object.lookup("min").map(Value.init)
      var high = object.lookup("max").map(Value.init)
      if low == nil, high == nil, case .list(let bounds)? = operand, bounds.count == 2 {
        (low, high) = (bounds[0], bounds[1])
      }
      let bounds = [("gte", low), ("lte", high)].compactMap { op, bound in
        bound.flatMap { appdnaCondition(field: field, op: op, value: $0, at: location) }
      }
      return bounds.isEmpty ? .never : .all(bounds)
    default:
      report(
        .warning, .AppDNA.unknownType, "unknown audience operator '\(op)'; the rule passes (the SDK's rule)",
        at: object.lookup("operator")?.location ?? location, notes: Self.didYouMean(op, Self.appdnaAudienceOperators))
      return nil
    }
  }
}
