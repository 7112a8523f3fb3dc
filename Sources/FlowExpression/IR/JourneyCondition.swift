import OrderedCollections

/// Era E's JourneyCondition (`{"type": "All", "conditions": [...]}`): JSON-typed and strict —
/// equality never coerces (`true` is not `1`), ordering only number with number or string with
/// string. An unknown node is unknown.
public indirect enum JourneyCondition: Hashable, Sendable {
  case truthy(JourneyValue)
  case compare(CompareOperator, JourneyValue, JourneyValue)
  /// An array holding an equal element, a string holding a substring, an object holding a key.
  case contains(collection: JourneyValue, value: JourneyValue)
  case all([JourneyCondition])
  case any([JourneyCondition])
  case not(JourneyCondition)
  case unknown(String)
}

/// A JourneyCondition operand.
public indirect enum JourneyValue: Hashable, Sendable {
  case literal(Value)
  case array([JourneyValue])
  case object([(key: String, value: JourneyValue)])
  /// A property of the event being handled (missing: null).
  case eventField(String)
  /// A collected response field (missing: null).
  case responseField(String)

  public static func == (lhs: JourneyValue, rhs: JourneyValue) -> Bool {
    switch (lhs, rhs) {
    case (.literal(let l), .literal(let r)): l == r
    case (.array(let l), .array(let r)): l == r
    case (.object(let l), .object(let r)):
      l.count == r.count && zip(l, r).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    case (.eventField(let l), .eventField(let r)), (.responseField(let l), .responseField(let r)): l == r
    default: false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .literal(let value): hasher.combine(value)
    case .array(let items): hasher.combine(items)
    case .object(let fields):
      for field in fields {
        hasher.combine(field.key)
        hasher.combine(field.value)
      }
    case .eventField(let key): hasher.combine("event." + key)
    case .responseField(let key): hasher.combine("response." + key)
    }
  }

  func resolve(in facts: Facts) -> Value {
    switch self {
    case .literal(let value): return value
    case .array(let items): return .list(items.map { $0.resolve(in: facts) })
    case .object(let fields):
      var object: OrderedDictionary<String, Value> = [:]
      for field in fields { object[field.key] = field.value.resolve(in: facts) }
      return .object(object)
    case .eventField(let key):
      guard let event = facts.event, case .known(let value) = IREvaluator.property(of: event, key) else { return .null }
      return value
    case .responseField(let key):
      return facts.responses[key] ?? .null
    }
  }
}

extension JourneyCondition {
  public func truth(in facts: Facts) -> Truth {
    switch self {
    case .truthy(let value):
      return Truth(value.resolve(in: facts).isTruthy)
    case .compare(let op, let lhs, let rhs):
      let l = lhs.resolve(in: facts)
      let r = rhs.resolve(in: facts)
      switch op {
      case .equal: return Truth(Self.strictlyEqual(l, r))
      case .notEqual: return Truth(!Self.strictlyEqual(l, r))
      case .greater, .greaterOrEqual, .less, .lessOrEqual:
        switch (l, r) {
        case (.number(let a), .number(let b)): return Truth(IRValue.holds(op, a < b ? -1 : a > b ? 1 : 0))
        case (.string(let a), .string(let b)):
          let order =
            a.unicodeScalars.elementsEqual(b.unicodeScalars)
            ? 0 : a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? -1 : 1
          return Truth(IRValue.holds(op, order))
        default: return .false
        }
      case .in, .notIn, .other: return .unknown
      }
    case .contains(let collection, let value):
      let needle = value.resolve(in: facts)
      switch collection.resolve(in: facts) {
      case .list(let items): return Truth(items.contains { Self.strictlyEqual($0, needle) })
      case .string(let text):
        guard case .string(let part) = needle else { return .false }
        return Truth(part.isEmpty || text.contains(part))
      case .object(let object):
        guard case .string(let key) = needle else { return .false }
        return Truth(object[key] != nil)
      default: return .false
      }
    case .all(let conditions): return Truth.all(conditions.lazy.map { $0.truth(in: facts) })
    case .any(let conditions): return Truth.any(conditions.lazy.map { $0.truth(in: facts) })
    case .not(let condition): return condition.truth(in: facts).negated
    case .unknown: return .unknown
    }
  }

  /// JSON equality: same type and value, objects regardless of key order.
  static func strictlyEqual(_ lhs: Value, _ rhs: Value) -> Bool {
    switch (lhs, rhs) {
    case (.object(let l), .object(let r)):
      return l.count == r.count && l.allSatisfy { key, value in r[key].map { strictlyEqual(value, $0) } ?? false }
    case (.list(let l), .list(let r)):
      return l.count == r.count && zip(l, r).allSatisfy { strictlyEqual($0, $1) }
    default:
      return lhs == rhs
    }
  }
}

/// An era E leg's entry condition: the app came to the foreground (optionally with an IR
/// condition), a segment membership, or an event. Facts it reads are three-valued; a segment
/// transition (`entered_within`) is never known at entry.
public enum EntryCondition: Hashable, Sendable {
  case appForegrounded(IREnvelope?)
  case segment(id: String, member: Bool)
  case event(name: String)

  public func truth(in facts: Facts, foreground: Bool) -> Truth {
    switch self {
    case .appForegrounded(let condition):
      guard foreground else { return .false }
      guard let condition else { return .true }
      guard condition.isSupported else { return .false }
      return condition.expression.trace(in: facts, transitionsUnknown: true).truth
    case .segment(let id, let member):
      guard case .known(let membership) = facts.segment(id) else { return .unknown }
      return Truth(membership.isMember == member)
    case .event(let name):
      return Truth(facts.event?.name == name)
    }
  }
}
