import OrderedCollections

/// `Events.*`: queries over the history. Windows are inclusive at millisecond precision; a
/// query whose lower bound is absent or before the history's coverage start is unknown, and so
/// is one whose `where` reads anything unknown (an unknown operator, `has`, an unknown value).
extension IREvaluator {
  /// The window of a query in epoch milliseconds (bounds as fractional ms), or nil: unknown.
  mutating func window(_ query: EventsQuery) -> (since: Double?, until: Double?)? {
    var since: Double?
    var until: Double?
    if let node = query.since {
      guard let seconds = value(node)?.numeric else { return nil }
      since = seconds * 1000
    }
    if let node = query.until {
      guard let seconds = value(node)?.numeric else { return nil }
      until = seconds * 1000
    }
    if let node = query.within {
      guard let seconds = value(node)?.numeric else { return nil }
      let start = Double(facts.now) - seconds * 1000
      since = max(since ?? start, start)
    }
    if let coverage = facts.historyCoverageStart {
      guard let lower = since, lower >= Double(coverage) else { return nil }
    }
    return (since, until)
  }

  /// The events of `name` in the query's window that its `where` keeps, oldest first; nil:
  /// unknown.
  mutating func matches(_ query: EventsQuery, name: String? = nil, predicate: IRNode?? = nil) -> [HistoryEvent]? {
    guard let (since, until) = window(query) else { return nil }
    let predicate = predicate ?? query.predicate
    if let predicate, !isKnowable(predicate) { return nil }
    var kept: [HistoryEvent] = []
    for event in facts.history[name ?? query.name] ?? [] {
      let time = Double(event.time)
      if let since, time < since { continue }
      if let until, time > until { continue }
      if let predicate {
        let saved = boundEvent
        boundEvent = event
        let truth = truth(predicate)
        boundEvent = saved
        switch truth {
        case .true: kept.append(event)
        case .false: continue
        case .unknown: return nil
        }
      } else {
        kept.append(event)
      }
    }
    return kept
  }

  /// Whether a `where` predicate can be known at all: its values are known and it uses no
  /// unknown node or operator (checked before any event, so an empty history cannot hide it).
  mutating func isKnowable(_ node: IRNode) -> Bool {
    switch node {
    case .predicate(let op, _, let expected):
      if case .other = op { return false }
      if op == .has { return false }
      guard let expected else { return true }
      return value(expected) != nil
    case .predicateAnd(let args), .predicateOr(let args), .and(let args), .or(let args):
      return args.allSatisfy { isKnowable($0) }
    case .not(let arg):
      return isKnowable(arg)
    case .unknown:
      return false
    default:
      return true
    }
  }

  mutating func eventsTruth(_ query: EventsQuery) -> Truth {
    switch query.kind {
    case .exists, .count, .firstTime, .lastTime, .lastAge:
      guard let events = matches(query) else { return .unknown }
      return Truth(!events.isEmpty)
    case .aggregate, .inOrder, .activePeriods, .stopped, .restarted:
      guard let value = eventsValue(query) else { return .unknown }
      return Truth(value.isTruthy)
    }
  }

  mutating func eventsValue(_ query: EventsQuery) -> IRValue? {
    let result = computeEvents(query)
    read(Self.readPath(query), result?.value)
    return result
  }

  private mutating func computeEvents(_ query: EventsQuery) -> IRValue? {
    switch query.kind {
    case .exists:
      return matches(query).map { .bool(!$0.isEmpty) }
    case .count:
      return matches(query).map { .number(Double($0.count)) }
    case .firstTime:
      return matches(query).map { $0.first.map { .timestamp(Double($0.time) / 1000) } ?? .null }
    case .lastTime:
      return matches(query).map { $0.last.map { .timestamp(Double($0.time) / 1000) } ?? .null }
    case .lastAge:
      return matches(query).map { $0.last.map { .duration(Double(facts.now - $0.time) / 1000) } ?? .null }
    case .aggregate(let function, let property):
      guard let events = matches(query) else { return nil }
      return Self.aggregate(function, events.compactMap { $0.properties[property] })
    case .inOrder(let steps, let overallWithin, let perStepWithin):
      return inOrder(query, steps: steps, overall: overallWithin, perStep: perStepWithin).map(IRValue.bool)
    case .activePeriods(let period, let total, let minimum):
      guard total > 0, minimum > 0 else { return .bool(false) }
      guard let events = matches(query), let bucket = Self.bucket(period, calendar: facts.calendar) else { return nil }
      let current = bucket(facts.now)
      let buckets = Set(events.map { bucket($0.time) }.filter { $0 > current - Int64(total) && $0 <= current })
      return .bool(buckets.count >= minimum)
    case .stopped(let inactiveFor):
      guard let seconds = value(inactiveFor)?.numeric, let events = matches(query) else { return nil }
      guard let last = events.last else { return .bool(false) }
      return .bool(Double(facts.now - last.time) >= seconds * 1000)
    case .restarted(let inactiveFor, let within):
      guard let gap = value(inactiveFor)?.numeric, let recent = value(within)?.numeric,
        let events = matches(query)
      else { return nil }
      for (previous, next) in zip(events, events.dropFirst())
      where Double(next.time - previous.time) >= gap * 1000 && Double(facts.now - next.time) <= recent * 1000 {
        return .bool(true)
      }
      return .bool(false)
    }
  }

  /// `sum`, `avg`, `min`, `max` over the numeric values (numeric strings count; none: 0), or
  /// `unique`: how many distinct values.
  static func aggregate(_ function: String, _ values: [Value]) -> IRValue? {
    if function == "unique" { return .number(Double(Set(values).count)) }
    let numbers = values.compactMap(\.numericValue)
    guard !numbers.isEmpty else { return ["sum", "avg", "min", "max"].contains(function) ? .number(0) : nil }
    switch function {
    case "sum": return .number(numbers.reduce(0, +))
    case "avg": return .number(numbers.reduce(0, +) / Double(numbers.count))
    case "min": return .number(numbers.min()!)
    case "max": return .number(numbers.max()!)
    default: return nil
    }
  }

  /// Whether the steps occur in order (each at or after the previous match), every gap within
  /// `perStep` and the whole run within `overall` of the first event in range.
  mutating func inOrder(_ query: EventsQuery, steps: [EventsQuery.Step], overall: IRNode?, perStep: IRNode?) -> Bool? {
    var overallMs: Double?
    var perStepMs: Double?
    if let overall {
      guard let seconds = value(overall)?.numeric else { return nil }
      overallMs = seconds * 1000
    }
    if let perStep {
      guard let seconds = value(perStep)?.numeric else { return nil }
      perStepMs = seconds * 1000
    }
    var candidates: [[HistoryEvent]] = []
    for step in steps {
      guard let events = matches(query, name: step.name, predicate: .some(step.predicate)) else { return nil }
      candidates.append(events)
    }
    guard let firstStep = candidates.first else { return false }
    for start in firstStep {
      var previous = start.time
      var matched = true
      for events in candidates.dropFirst() {
        guard let next = events.first(where: { $0.time >= previous }),
          perStepMs.map({ Double(next.time - previous) <= $0 }) ?? true
        else {
          matched = false
          break
        }
        previous = next.time
      }
      if matched, overallMs.map({ Double(previous - start.time) <= $0 }) ?? true { return true }
    }
    return false
  }

  /// The calendar bucket of an instant for `day`, `week` (from Sunday), `month` or `year`.
  static func bucket(_ period: String, calendar: ZonedCalendar) -> ((Int64) -> Int64)? {
    switch period {
    case "day": return { calendar.day($0) }
    case "week": return { CivilTime.floorDivide(calendar.day($0) + 4, 7) }
    case "month":
      return {
        let date = CivilTime.civil(fromDays: calendar.day($0))
        return date.year * 12 + date.month
      }
    case "year": return { CivilTime.civil(fromDays: calendar.day($0)).year }
    default: return nil
    }
  }

  static func readPath(_ query: EventsQuery) -> String {
    let kind: String =
      switch query.kind {
      case .exists: "exists"
      case .count: "count"
      case .firstTime: "first_time"
      case .lastTime: "last_time"
      case .lastAge: "last_age"
      case .aggregate(let function, let property): "\(function)(\(property))"
      case .inOrder: "in_order"
      case .activePeriods: "active_periods"
      case .stopped: "stopped"
      case .restarted: "restarted"
      }
    return "events.\(query.name).\(kind)"
  }
}
