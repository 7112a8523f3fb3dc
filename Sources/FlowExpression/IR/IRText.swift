/// IR nodes as one line of text for traces and messages: `User plan eq 'trial'`,
/// `Events.Count(purchase, since @…) >= 2`, `Segment is_member vip && !(Event amount lt 50)`.
extension IRNode: CustomStringConvertible {
  public var description: String { text(nested: false) }

  func text(nested: Bool) -> String {
    func wrap(_ text: String) -> String { nested ? "(" + text + ")" : text }
    func operand(_ node: IRNode?) -> String { node.map { " " + $0.text(nested: true) } ?? "" }
    switch self {
    case .bool(let b): return b ? "true" : "false"
    case .number(let n): return NumberFormatting.javaScriptString(n)
    case .string(let s): return Value.quoted(s)
    case .timestamp(let s): return IRValue.timestamp(s).description
    case .duration(let s): return IRValue.duration(s).description
    case .list(let items): return "[" + items.map { $0.text(nested: false) }.joined(separator: ", ") + "]"
    case .and(let args), .predicateAnd(let args):
      return args.isEmpty ? "true" : wrap(args.map { $0.text(nested: true) }.joined(separator: " && "))
    case .or(let args), .predicateOr(let args):
      return args.isEmpty ? "false" : wrap(args.map { $0.text(nested: true) }.joined(separator: " || "))
    case .not(let arg): return "!" + arg.text(nested: true)
    case .compare(let op, let lhs, let rhs):
      return wrap(lhs.text(nested: true) + " " + op.text + " " + rhs.text(nested: true))
    case .user(let op, let key, let value): return wrap("User \(key) \(op.text)" + operand(value))
    case .event(let op, let key, let value): return wrap("Event \(key) \(op.text)" + operand(value))
    case .predicate(let op, let key, let value): return wrap("Pred \(key) \(op.text)" + operand(value))
    case .segment(let op, let id, let within): return wrap("Segment \(op.text) \(id)" + operand(within))
    case .feature(let op, let id, let value): return wrap("Feature \(op.text) \(id)" + operand(value))
    case .events(let query): return query.description
    case .timeNow: return "Time.Now"
    case .timeAgo(let duration): return "Time.Ago(\(duration.text(nested: false)))"
    case .timeWindow(let value, let interval):
      return "Time.Window(\(NumberFormatting.javaScriptString(value)) \(interval))"
    case .journeyID: return "Journey.Id"
    case .responseField(let key): return "Response.Field(\(key))"
    case .unknown(let type): return "\(type)(?)"
    }
  }
}

extension EventsQuery: CustomStringConvertible {
  public var description: String {
    var parts: [String] = []
    let kindName: String
    switch kind {
    case .exists: kindName = "Exists"
    case .count: kindName = "Count"
    case .firstTime: kindName = "FirstTime"
    case .lastTime: kindName = "LastTime"
    case .lastAge: kindName = "LastAge"
    case .aggregate(let function, let property):
      kindName = "Aggregate"
      parts.append(function)
      parts.append(property)
    case .inOrder(let steps, let overall, let perStep):
      kindName = "InOrder"
      parts.append(
        "["
          + steps.map { $0.name + ($0.predicate.map { " where " + $0.text(nested: true) } ?? "") }
          .joined(separator: ", ") + "]")
      if let overall { parts.append("overall " + overall.text(nested: true)) }
      if let perStep { parts.append("per step " + perStep.text(nested: true)) }
    case .activePeriods(let period, let total, let minimum):
      kindName = "ActivePeriods"
      parts.append("\(minimum) of \(total) \(period)s")
    case .stopped(let inactive):
      kindName = "Stopped"
      parts.append("inactive " + inactive.text(nested: true))
    case .restarted(let inactive, let within):
      kindName = "Restarted"
      parts.append("inactive " + inactive.text(nested: true))
      parts.append("within " + within.text(nested: true))
    }
    if !name.isEmpty { parts.insert(name, at: 0) }
    if let since { parts.append("since " + since.text(nested: true)) }
    if let until { parts.append("until " + until.text(nested: true)) }
    if let within { parts.append("within " + within.text(nested: true)) }
    if let predicate { parts.append("where " + predicate.text(nested: true)) }
    return "Events.\(kindName)(" + parts.joined(separator: ", ") + ")"
  }
}
