import FlowPattern
import OrderedCollections

/// Evaluates IR nodes against facts, three-valued: a value (or truth) that cannot be known is
/// nil (unknown), and unknown propagates (docs/dialects/nuxie.md, "Conditions").
struct IREvaluator {
  let facts: Facts
  /// The event a `where` predicate is applied to.
  var boundEvent: HistoryEvent?
  /// Entry conditions never gate on segment transitions: `entered_within` is unknown there.
  var transitionsUnknown = false
  /// The facts read, in order, for traces.
  var reads: [VariableRead] = []
  let recordsReads: Bool

  init(facts: Facts, recordsReads: Bool = true) {
    self.facts = facts
    self.recordsReads = recordsReads
  }

  mutating func read(_ path: String, _ value: Value?) {
    guard recordsReads, !reads.contains(where: { $0.path == path }) else { return }
    reads.append(VariableRead(path: path, value: value))
  }

  // MARK: Truth (boolean position)

  mutating func truth(_ node: IRNode) -> Truth {
    switch node {
    case .and(let args):
      var result = Truth.true
      for arg in args {
        let truth = truth(arg)
        if truth == .false { return .false }
        if truth == .unknown { result = .unknown }
      }
      return result
    case .or(let args):
      var result = Truth.false
      for arg in args {
        let truth = truth(arg)
        if truth == .true { return .true }
        if truth == .unknown { result = .unknown }
      }
      return result
    case .not(let arg):
      return truth(arg).negated
    case .compare(let op, let lhs, let rhs):
      guard let l = value(lhs), let r = value(rhs) else { return .unknown }
      return Truth(IRValue.compare(l, op, r))
    case .user(let op, let key, let expected):
      let fact = facts.userProperty(key)
      if case .known(let value) = fact { read("$user." + key, value) }
      return property(fact, op, expected)
    case .event(let op, let key, let expected):
      guard let event = facts.event else { return .unknown }
      let fact = Self.property(of: event, key)
      if case .known(let value) = fact { read("event." + key, value) }
      return property(fact, op, expected)
    case .predicate(let op, let key, let expected):
      guard let event = boundEvent ?? facts.event, op != .has else { return .unknown }
      return property(Self.property(of: event, key), op, expected)
    case .predicateAnd(let args):
      return Truth.all(args.map { truth($0) })
    case .predicateOr(let args):
      return Truth.any(args.map { truth($0) })
    case .segment(let op, let id, let within):
      return segment(op, id, within)
    case .feature(let op, let id, let expected):
      return feature(op, id, expected)
    case .events(let query):
      return eventsTruth(query)
    case .unknown:
      return .unknown
    case .bool, .number, .string, .timestamp, .duration, .list, .timeNow, .timeAgo, .timeWindow, .journeyID,
      .responseField:
      guard let value = value(node) else { return .unknown }
      return Truth(value.isTruthy)
    }
  }

  // MARK: Values

  mutating func value(_ node: IRNode) -> IRValue? {
    switch node {
    case .bool(let b): return .bool(b)
    case .number(let n): return .number(n)
    case .string(let s): return .string(s)
    case .timestamp(let s): return .timestamp(s)
    case .duration(let s): return .duration(s)
    case .list(let items):
      var values: [IRValue] = []
      for item in items {
        guard let value = value(item) else { return nil }
        values.append(value)
      }
      return .list(values)
    case .timeNow:
      return .timestamp(Double(facts.now) / 1000)
    case .timeAgo(let duration):
      guard let seconds = value(duration)?.numeric else { return nil }
      return .timestamp(Double(facts.now) / 1000 - seconds)
    case .timeWindow(let amount, let interval):
      guard let unit = Self.intervalSeconds[interval] else { return nil }
      return .duration(amount * unit)
    case .journeyID:
      return facts.journeyID.map(IRValue.string) ?? .null
    case .responseField(let key):
      let value = facts.responses[key]
      read("response." + key, value)
      return value.map(IRValue.init) ?? .null
    case .events(let query):
      return eventsValue(query)
    case .unknown:
      return nil
    case .and, .or, .not, .compare, .user, .event, .predicate, .predicateAnd, .predicateOr, .segment, .feature:
      switch truth(node) {
      case .true: return .bool(true)
      case .false: return .bool(false)
      case .unknown: return nil
      }
    }
  }

  /// `Time.Window` intervals in seconds (a month is 30 days, a year 365).
  static let intervalSeconds: [String: Double] = [
    "second": 1, "minute": 60, "hour": 3600, "day": 86_400, "week": 604_800, "month": 2_592_000, "year": 31_536_000,
  ]

  // MARK: Properties (User, Event, Pred)

  /// A property of an event: `name`/`event`, `timestamp` (epoch s), `distinct_id`, a dotted
  /// `properties.a.b` path, else the property itself (a leading `$` may be dropped).
  static func property(of event: HistoryEvent, _ key: String) -> Fact<Value> {
    if let value = event.properties[key] { return .known(value) }
    let bare = key.hasPrefix("$") ? String(key.dropFirst()) : key
    switch bare {
    case "name", "event": return .known(.string(event.name))
    case "timestamp": return .known(.number(Double(event.time) / 1000))
    case "distinct_id", "distinctId": return event.distinctID.map { .known(.string($0)) } ?? .absent
    default: break
    }
    if bare.hasPrefix("properties.") {
      var current: Value? = .object(event.properties)
      for part in bare.dropFirst("properties.".count).split(separator: ".", omittingEmptySubsequences: false) {
        guard case .object(let object)? = current else { return .absent }
        current = object[String(part)]
      }
      return current.map { .known($0) } ?? .absent
    }
    return event.properties[bare].map { .known($0) } ?? .absent
  }

  mutating func property(_ fact: Fact<Value>, _ op: PropertyOperator, _ expectedNode: IRNode?) -> Truth {
    let actual: Value?
    switch fact {
    case .unknown: return .unknown
    case .absent: actual = nil
    case .known(let value): actual = value
    }
    let present = actual.map { $0 != .null } ?? false
    var expected: IRValue?
    if let expectedNode {
      guard let value = value(expectedNode) else { return .unknown }
      expected = value
    }
    let value = IRValue(actual ?? .null)
    switch op {
    case .isSet, .has: return Truth(present)
    case .isNotSet: return Truth(!present)
    case .equal:
      guard let expected else { return .false }
      return Truth(IRValue.compare(value, .equal, expected))
    case .notEqual:
      guard let expected else { return .true }
      return Truth(IRValue.compare(value, .notEqual, expected))
    case .greater, .greaterOrEqual, .less, .lessOrEqual:
      guard let expected else { return .false }
      let compareOp: CompareOperator =
        switch op {
        case .greater: .greater
        case .greaterOrEqual: .greaterOrEqual
        case .less: .less
        default: .lessOrEqual
        }
      return Truth(present && IRValue.compare(value, compareOp, expected))
    case .contains:
      guard let expected, present else { return .false }
      return Truth(Self.contains(value, expected))
    case .regex:
      guard let source = expected?.coercedString, let text = value.coercedString, present,
        let pattern = try? Pattern(source, anchoring: .anywhere)
      else { return .false }
      switch pattern.match(text) {
      case .matched: return .true
      case .tooComplex: return .unknown
      default: return .false
      }
    case .in:
      guard case .list(let items)? = expected else { return .false }
      return Truth(present && items.contains { IRValue.loosely(value, equals: $0) })
    case .notIn:
      guard case .list(let items)? = expected else { return .true }
      return Truth(!(present && items.contains { IRValue.loosely(value, equals: $0) }))
    case .isDateExact, .isDateAfter, .isDateBefore:
      guard case .timestamp(let bound)? = expected, let seconds = value.epochSeconds, present else { return .false }
      switch op {
      case .isDateAfter: return Truth(seconds > bound)
      case .isDateBefore: return Truth(seconds < bound)
      default:
        let calendar = facts.calendar
        return Truth(
          calendar.day(CivilTime.milliseconds(seconds: seconds))
            == calendar.day(CivilTime.milliseconds(seconds: bound)))
      }
    case .other:
      return .unknown
    }
  }

  /// Case-insensitive substring of the string form, or any element of a list.
  static func contains(_ value: IRValue, _ expected: IRValue) -> Bool {
    if case .list(let items) = value { return items.contains { IRValue.loosely($0, equals: expected) } }
    guard let text = value.coercedString, let needle = expected.coercedString else { return false }
    return text.lowercased().contains(needle.lowercased())
  }

  // MARK: Segments and features

  mutating func segment(_ op: SegmentOperator, _ id: String, _ within: IRNode?) -> Truth {
    guard case .known(let membership) = facts.segment(id) else { return .unknown }
    read("segment." + id, .string(membership.isMember ? "member" : "not member"))
    switch op {
    case .member: return Truth(membership.isMember)
    case .notMember: return Truth(!membership.isMember)
    case .enteredWithin:
      if transitionsUnknown { return .unknown }
      guard let within, let seconds = value(within)?.numeric else { return .unknown }
      guard membership.isMember, let entered = membership.enteredAt else { return .false }
      return Truth(Double(facts.now - entered) <= seconds * 1000)
    case .other:
      return .unknown
    }
  }

  mutating func feature(_ op: FeatureOperator, _ id: String, _ expectedNode: IRNode?) -> Truth {
    let feature = facts.features[id]
    read("feature." + id, feature.map { .string($0.grantsAccess ? "access" : "no access") })
    switch op {
    case .has: return Truth(feature?.grantsAccess ?? false)
    case .notHas: return Truth(!(feature?.grantsAccess ?? false))
    case .isUnlimited: return Truth(feature?.unlimited ?? false)
    case .credits(let compareOp):
      guard let expectedNode else { return .false }
      guard let expected = value(expectedNode) else { return .unknown }
      guard let balance = feature?.balance else { return .false }
      return Truth(IRValue.compare(.number(balance), compareOp, expected))
    case .other:
      return .unknown
    }
  }
}
