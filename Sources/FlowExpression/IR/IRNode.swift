/// Nuxie's condition IR (`{"type": "And", "args": [...]}` and friends): one node per kind the
/// SDKs define, plus `unknown` for any other, which evaluates to unknown (fail closed).
/// docs/dialects/nuxie.md lists every node and operator.
public indirect enum IRNode: Hashable, Sendable {
  case bool(Bool)
  case number(Double)
  case string(String)
  /// Epoch seconds (fractions allowed).
  case timestamp(Double)
  /// Seconds.
  case duration(Double)
  case list([IRNode])
  case and([IRNode])
  case or([IRNode])
  case not(IRNode)
  case compare(CompareOperator, IRNode, IRNode)
  /// A user property: `User`.
  case user(PropertyOperator, key: String, value: IRNode?)
  /// A property of the event the condition is evaluated with: `Event`.
  case event(PropertyOperator, key: String, value: IRNode?)
  /// A property of the event a `where` predicate is applied to: `Pred`.
  case predicate(PropertyOperator, key: String, value: IRNode?)
  case predicateAnd([IRNode])
  case predicateOr([IRNode])
  case segment(SegmentOperator, id: String, within: IRNode?)
  case feature(FeatureOperator, id: String, value: IRNode?)
  case events(EventsQuery)
  case timeNow
  /// `Time.Ago`: now minus a duration.
  case timeAgo(IRNode)
  /// `Time.Window`: a duration of `value` intervals.
  case timeWindow(value: Double, interval: String)
  case journeyID
  case responseField(String)
  /// A node type flowrun does not know: unknown.
  case unknown(String)
}

/// `Compare` operators; any other spelling compares false.
public enum CompareOperator: Hashable, Sendable {
  case equal, notEqual, greater, greaterOrEqual, less, lessOrEqual, `in`, notIn
  case other(String)

  public init(_ text: String) {
    switch text {
    case "==", "eq": self = .equal
    case "!=", "neq": self = .notEqual
    case ">", "gt": self = .greater
    case ">=", "gte": self = .greaterOrEqual
    case "<", "lt": self = .less
    case "<=", "lte": self = .lessOrEqual
    case "in": self = .in
    case "not_in": self = .notIn
    default: self = .other(text)
    }
  }

  public var text: String {
    switch self {
    case .equal: "=="
    case .notEqual: "!="
    case .greater: ">"
    case .greaterOrEqual: ">="
    case .less: "<"
    case .lessOrEqual: "<="
    case .in: "in"
    case .notIn: "not_in"
    case .other(let text): text
    }
  }
}

/// An operator spelled by name, with the spellings flowrun knows; any other is kept as written
/// (`other`) and evaluates to unknown.
public protocol NamedOperator: Hashable, Sendable {
  /// Every known spelling, first the one the trace shows.
  static var spellings: [(String, Self)] { get }
  static func other(_ text: String) -> Self
  /// The spelling of an `other` operator.
  var otherSpelling: String? { get }
}

extension NamedOperator {
  public init(_ text: String) { self = Self.spellings.first { $0.0 == text }?.1 ?? .other(text) }

  /// The spelling shown in traces.
  public var text: String {
    otherSpelling ?? Self.spellings.first { $0.1 == self }?.0 ?? ""
  }

  public static var known: [String] { spellings.map(\.0) }
}

/// The operators of `User`, `Event` and `Pred` (one set).
public enum PropertyOperator: NamedOperator {
  case isSet, has, isNotSet, equal, notEqual, greater, greaterOrEqual, less, lessOrEqual, contains, regex
  case `in`, notIn, isDateExact, isDateAfter, isDateBefore
  case other(String)

  public var otherSpelling: String? { if case .other(let text) = self { text } else { nil } }

  public static let spellings: [(String, PropertyOperator)] = [
    ("is_set", .isSet), ("has", .has), ("is_not_set", .isNotSet), ("eq", .equal), ("equals", .equal),
    ("neq", .notEqual), ("not_equals", .notEqual), ("gt", .greater), ("gte", .greaterOrEqual), ("lt", .less),
    ("lte", .lessOrEqual), ("contains", .contains), ("icontains", .contains), ("regex", .regex), ("in", .in),
    ("not_in", .notIn), ("is_date_exact", .isDateExact), ("is_date_after", .isDateAfter),
    ("is_date_before", .isDateBefore),
  ]
}

/// `Segment` operators.
public enum SegmentOperator: NamedOperator {
  case member, notMember, enteredWithin
  case other(String)

  public var otherSpelling: String? { if case .other(let text) = self { text } else { nil } }

  public static let spellings: [(String, SegmentOperator)] = [
    ("is_member", .member), ("in", .member), ("not_member", .notMember), ("not_in", .notMember),
    ("entered_within", .enteredWithin),
  ]
}

/// `Feature` operators.
public enum FeatureOperator: NamedOperator {
  case has, notHas, isUnlimited, credits(CompareOperator)
  case other(String)

  public var otherSpelling: String? { if case .other(let text) = self { text } else { nil } }

  public static let spellings: [(String, FeatureOperator)] = [
    ("has", .has), ("not_has", .notHas), ("is_unlimited", .isUnlimited), ("credits_eq", .credits(.equal)),
    ("credits_neq", .credits(.notEqual)), ("credits_gt", .credits(.greater)),
    ("credits_gte", .credits(.greaterOrEqual)), ("credits_lt", .credits(.less)),
    ("credits_lte", .credits(.lessOrEqual)),
  ]
}

/// An event-history query (`Events.*`), with its window and `where` predicate.
public struct EventsQuery: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    case exists, count, firstTime, lastTime, lastAge
    /// `sum`, `avg`, `min`, `max` or `unique` of a property.
    case aggregate(String, property: String)
    /// Steps matched in order, with optional gaps.
    case inOrder(steps: [Step], overallWithin: IRNode?, perStepWithin: IRNode?)
    /// Distinct calendar periods with an event.
    case activePeriods(period: String, total: Int, minimum: Int)
    /// Occurred, then not for `inactiveFor`.
    case stopped(inactiveFor: IRNode)
    /// A gap of `inactiveFor`, then an occurrence within `within` of now.
    case restarted(inactiveFor: IRNode, within: IRNode)
  }

  /// One step of `Events.InOrder`.
  public struct Step: Hashable, Sendable {
    public var name: String
    public var predicate: IRNode?
    public init(name: String, predicate: IRNode? = nil) {
      self.name = name
      self.predicate = predicate
    }
  }

  public var kind: Kind
  public var name: String
  public var since: IRNode?
  public var until: IRNode?
  public var within: IRNode?
  public var predicate: IRNode?

  public init(
    _ kind: Kind, name: String, since: IRNode? = nil, until: IRNode? = nil, within: IRNode? = nil,
    predicate: IRNode? = nil
  ) {
    self.kind = kind
    self.name = name
    self.since = since
    self.until = until
    self.within = within
    self.predicate = predicate
  }
}

/// `{ir_version, engine_min?, expr}`: an IR expression with the engine version it needs.
public struct IREnvelope: Hashable, Sendable {
  public var expression: IRNode
  /// `engine_min`'s leading number; above `IREnvelope.engineVersion` the envelope is never
  /// evaluated (false at its site).
  public var engineMin: Int?

  /// The IR engine version flowrun implements.
  public static let engineVersion = 1

  public init(_ expression: IRNode, engineMin: Int? = nil) {
    self.expression = expression
    self.engineMin = engineMin
  }

  /// Whether flowrun evaluates it (`engine_min` not above its version).
  public var isSupported: Bool { (engineMin ?? 0) <= Self.engineVersion }
}
