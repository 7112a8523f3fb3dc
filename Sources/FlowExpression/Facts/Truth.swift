/// A three-valued truth: what a Nuxie condition evaluates to when a fact may be unknown (a
/// property the profile does not say, history before its coverage, an operator flowrun does
/// not know). A condition site treats `unknown` as false ("fail closed"); `unknown` never turns
/// true through a negation.
public enum Truth: String, Hashable, Sendable {
  case `true`, `false`, unknown

  public init(_ value: Bool) { self = value ? .true : .false }

  /// Whether a condition site acts on it: only `true` does.
  public var holds: Bool { self == .true }

  /// Kleene negation: unknown stays unknown.
  public var negated: Truth {
    switch self {
    case .true: .false
    case .false: .true
    case .unknown: .unknown
    }
  }

  /// Kleene conjunction: false if any is false, else unknown if any is unknown.
  public static func all(_ truths: some Sequence<Truth>) -> Truth {
    var sawUnknown = false
    for truth in truths {
      if truth == .false { return .false }
      if truth == .unknown { sawUnknown = true }
    }
    return sawUnknown ? .unknown : .true
  }

  /// Kleene disjunction: true if any is true, else unknown if any is unknown.
  public static func any(_ truths: some Sequence<Truth>) -> Truth {
    var sawUnknown = false
    for truth in truths {
      if truth == .true { return .true }
      if truth == .unknown { sawUnknown = true }
    }
    return sawUnknown ? .unknown : .false
  }
}

/// A fact a condition reads: known (a value, possibly null), known to be absent, or unknown.
public enum Fact<T: Hashable & Sendable>: Hashable, Sendable {
  case known(T)
  case absent
  case unknown
}

/// A fact's key compared by its exact Unicode scalars (Swift's `String ==` would make `é`
/// (U+00E9) and `e` + U+0301 one key; Nuxie's facts keep them apart).
public struct FactKey: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
  public let text: String

  public init(_ text: String) { self.text = text }
  public init(stringLiteral value: String) { text = value }

  public static func == (lhs: FactKey, rhs: FactKey) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }

  public func hash(into hasher: inout Hasher) {
    for byte in text.utf8 { hasher.combine(byte) }
    hasher.combine(0xFF as UInt8)
  }

  public var description: String { text }
}
