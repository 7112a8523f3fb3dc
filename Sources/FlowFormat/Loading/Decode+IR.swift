import FlowExpression

/// Nuxie IR conditions from JSON: an envelope `{ir_version, engine_min?, expr}` or a bare node
/// `{"type": …}`. An unknown node or operator is kept (it evaluates to unknown, failing closed)
/// and warned about; a malformed one is an error.
extension DecodeContext {
  static let irNodeTypes = [
    "Bool", "Number", "String", "Timestamp", "Duration", "List", "And", "Or", "Not", "Compare", "User", "Event",
    "Segment", "Feature", "Pred", "PredAnd", "PredOr", "Events.Exists", "Events.Count", "Events.FirstTime",
    "Events.LastTime", "Events.LastAge", "Events.Aggregate", "Events.InOrder", "Events.ActivePeriods",
    "Events.Stopped", "Events.Restarted", "Time.Now", "Time.Ago", "Time.Window", "Journey.Id", "Response.Field",
  ]

  mutating func irEnvelope(_ value: JSONValue) -> IREnvelope? {
    guard let object = object(value) else { return nil }
    guard object.lookup("expr") != nil else { return irNode(value).map { IREnvelope($0) } }
    var engineMin: Int?
    if let text = string(object, "engine_min") {
      engineMin = Int(String(text.prefix { $0.isASCII && $0.isNumber }))
      if let engineMin, engineMin > IREnvelope.engineVersion {
        at("engine_min") {
          $0.warning(
            .Campaign.engineMin,
            "the condition needs IR engine \(engineMin); flowrun implements \(IREnvelope.engineVersion) and "
              + "never evaluates it (false)", at: object.lookup("engine_min")?.location)
        }
      }
    }
    guard let expression = at("expr", { $0.irNode(object.lookup("expr")!) }) else { return nil }
    return IREnvelope(expression, engineMin: engineMin)
  }

  mutating func irNode(_ value: JSONValue) -> IRNode? {
    guard let object = object(value) else { return nil }
    guard let type = requiredString(object, "type", in: "an IR node", at: value.location) else { return nil }
    func child(_ key: String) -> IRNode? {
      guard let value = object.lookup(key), value.objectValue != nil else {
        error(
          .Campaign.badCondition, "\(type) needs '\(key)': an IR node",
          at: object.lookup(key)?.location ?? value.location)
        return nil
      }
      return at(key) { $0.irNode(value) }
    }
    func optionalChild(_ key: String) -> IRNode?? {
      guard let value = object.lookup(key), value.objectValue != nil else { return .some(nil) }
      guard let node = at(key, { $0.irNode(value) }) else { return nil }
      return .some(node)
    }
    func children(_ key: String) -> [IRNode]? {
      guard let items = array(object, key) else {
        error(.Campaign.badCondition, "\(type) needs '\(key)': an array of IR nodes", at: value.location)
        return nil
      }
      var nodes: [IRNode] = []
      for (index, item) in items.enumerated() {
        guard let node = at(key, { $0.at(.index(index)) { $0.irNode(item) } }) else { return nil }
        nodes.append(node)
      }
      return nodes
    }
    func literal(_ read: (JSONValue) -> Double?) -> Double? {
      guard let raw = object.lookup("value"), let number = read(raw) else {
        error(.Campaign.badCondition, "\(type) needs a numeric 'value'", at: value.location)
        return nil
      }
      return number
    }
    func named<Op: NamedOperator>(_: Op.Type) -> Op? {
      guard let text = requiredString(object, "op", in: type, at: value.location) else { return nil }
      let op = Op(text)
      if op.otherSpelling != nil {
        unknownCondition("operator '\(text)' of \(type)", Op.known, at: object.lookup("op"))
      }
      return op
    }
    switch type {
    case "Bool":
      guard let b = object.lookup("value")?.boolValue else {
        error(.Campaign.badCondition, "Bool needs a boolean 'value'", at: value.location)
        return nil
      }
      return .bool(b)
    case "Number": return literal(\.numberValue).map(IRNode.number)
    case "Timestamp": return literal(\.numberValue).map(IRNode.timestamp)
    case "Duration": return literal(\.numberValue).map(IRNode.duration)
    case "String":
      guard let s = object.lookup("value")?.stringValue else {
        error(.Campaign.badCondition, "String needs a string 'value'", at: value.location)
        return nil
      }
      return .string(s)
    case "List": return children("value").map(IRNode.list)
    case "And": return children("args").map(IRNode.and)
    case "Or": return children("args").map(IRNode.or)
    case "PredAnd": return children("args").map(IRNode.predicateAnd)
    case "PredOr": return children("args").map(IRNode.predicateOr)
    case "Not": return child("arg").map(IRNode.not)
    case "Compare":
      guard let text = requiredString(object, "op", in: type, at: value.location), let l = child("left"),
        let r = child("right")
      else { return nil }
      let op = CompareOperator(text)
      if case .other = op {
        unknownCondition(
          "operator '\(text)' of Compare", ["==", "!=", ">", ">=", "<", "<=", "in", "not_in"], at: object.lookup("op"))
      }
      return .compare(op, l, r)
    case "User", "Event", "Pred":
      guard let op = named(PropertyOperator.self),
        let key = requiredString(object, "key", in: type, at: value.location),
        let expected = optionalChild("value")
      else { return nil }
      switch type {
      case "User": return .user(op, key: key, value: expected)
      case "Event": return .event(op, key: key, value: expected)
      default: return .predicate(op, key: key, value: expected)
      }
    case "Segment":
      guard let op = named(SegmentOperator.self), let id = requiredString(object, "id", in: type, at: value.location),
        let within = optionalChild("within")
      else { return nil }
      segmentReads.append(
        reference(to: id, what: "a Segment condition", location: value.location, key: nil))
      return .segment(op, id: id, within: within)
    case "Feature":
      guard let op = named(FeatureOperator.self), let id = requiredString(object, "id", in: type, at: value.location),
        let expected = optionalChild("value")
      else { return nil }
      return .feature(op, id: id, value: expected)
    case "Time.Now": return .timeNow
    case "Journey.Id": return .journeyID
    case "Time.Ago": return child("duration").map(IRNode.timeAgo)
    case "Time.Window":
      guard let amount = literal(\.numberValue),
        let interval = requiredString(object, "interval", in: type, at: value.location)
      else { return nil }
      return .timeWindow(value: amount, interval: interval)
    case "Response.Field":
      return requiredString(object, "key", in: type, at: value.location).map(IRNode.responseField)
    case let events where events.hasPrefix("Events.") && Self.irNodeTypes.contains(events):
      return eventsQuery(type, object, at: value)
    default:
      unknownCondition("IR node type '\(type)'", Self.irNodeTypes, at: object.lookup("type"))
      return .unknown(type)
    }
  }

  private mutating func eventsQuery(_ type: String, _ object: JSONObject, at value: JSONValue) -> IRNode? {
    let name = string(object, "name") ?? ""
    func node(_ key: String) -> IRNode?? {
      guard let value = object.lookup(key), value.objectValue != nil else { return .some(nil) }
      guard let node = at(key, { $0.irNode(value) }) else { return nil }
      return .some(node)
    }
    guard let since = node("since"), let until = node("until"), let within = node("within"),
      let predicate = node("where")
    else { return nil }
    let kind: EventsQuery.Kind
    switch type {
    case "Events.Exists": kind = .exists
    case "Events.Count": kind = .count
    case "Events.FirstTime": kind = .firstTime
    case "Events.LastTime": kind = .lastTime
    case "Events.LastAge": kind = .lastAge
    case "Events.Aggregate":
      guard let function = requiredString(object, "agg", in: type, at: value.location),
        let property = requiredString(object, "prop", in: type, at: value.location)
      else { return nil }
      if !["sum", "avg", "min", "max", "unique"].contains(function) {
        unknownCondition("aggregate '\(function)'", ["sum", "avg", "min", "max", "unique"], at: object.lookup("agg"))
      }
      kind = .aggregate(function, property: property)
    case "Events.InOrder":
      var steps: [EventsQuery.Step] = []
      for (index, item) in (array(object, "steps") ?? []).enumerated() {
        guard let step = item.objectValue, let stepName = step.lookup("name")?.stringValue else {
          at("steps") {
            $0.at(.index(index)) {
              $0.error(.Campaign.badCondition, "an InOrder step needs a 'name'", at: item.location)
            }
          }
          return nil
        }
        var stepPredicate: IRNode?
        if let raw = step.lookup("where") {
          guard let parsed = at("steps", { $0.at(.index(index)) { $0.irNode(raw) } }) else { return nil }
          stepPredicate = parsed
        }
        steps.append(EventsQuery.Step(name: stepName, predicate: stepPredicate))
      }
      guard let overall = node("overallWithin"), let perStep = node("perStepWithin") else { return nil }
      kind = .inOrder(steps: steps, overallWithin: overall, perStepWithin: perStep)
    case "Events.ActivePeriods":
      guard let period = requiredString(object, "period", in: type, at: value.location) else { return nil }
      let total = integer(object, "totalPeriods") ?? 0
      let minimum = integer(object, "minPeriods") ?? 0
      if minimum > total {
        error(
          .Campaign.minAboveMax, "minPeriods \(minimum) is above totalPeriods \(total): the condition never holds",
          at: object.lookup("minPeriods")?.location)
      }
      kind = .activePeriods(period: period, total: total, minimum: minimum)
    case "Events.Stopped":
      guard let inactive = node("inactiveFor"), let inactiveFor = inactive else {
        error(.Campaign.badCondition, "\(type) needs 'inactiveFor'", at: value.location)
        return nil
      }
      kind = .stopped(inactiveFor: inactiveFor)
    default:  // Events.Restarted
      guard let inactive = node("inactiveFor"), let inactiveFor = inactive, let recent = within else {
        error(.Campaign.badCondition, "\(type) needs 'inactiveFor' and 'within'", at: value.location)
        return nil
      }
      kind = .restarted(inactiveFor: inactiveFor, within: recent)
      return .events(EventsQuery(kind, name: name, since: since, until: until, predicate: predicate))
    }
    return .events(EventsQuery(kind, name: name, since: since, until: until, within: within, predicate: predicate))
  }

  private mutating func unknownCondition(_ what: String, _ known: [String], at value: JSONValue?) {
    let word = what.split(separator: "'").dropFirst().first.map(String.init) ?? what
    report(
      .warning, .Campaign.unknownCondition, "unknown \(what): it evaluates to unknown, so its condition fails closed",
      at: value?.location, notes: Self.didYouMean(word, known))
  }
}
