import FlowExpression
import OrderedCollections

/// Which collected fields are secrets and how a secret is shown: the one masking policy of
/// flowrun (docs/security.md).
///
/// The engine keeps the real values (rules and validation read them); every edge that shows or
/// stores a value — screens, prompts, summaries, traces, transcripts, snapshots, recordings,
/// `--data`, events, reports — passes it through `shown(_:of:)` or one of the helpers built on
/// it. Only `--data` and events may use a revealing policy (`--show-secrets`).
public struct SecretPolicy: Hashable, Sendable {
  /// What a secret looks like wherever it is shown: the same four dots whatever its length.
  public static let mask = "••••"

  /// The secret fields (`FlowDocument.secretFields`).
  public let fields: Set<String>
  /// True when secrets are shown in clear (`--show-secrets`, for `--data` and events only).
  public let reveals: Bool

  public init(fields: Set<String>, reveals: Bool = false) {
    self.fields = fields
    self.reveals = reveals
  }

  public init(document: FlowDocument, reveals: Bool = false) {
    self.init(fields: document.secretFields, reveals: reveals)
  }

  /// A policy that masks nothing (a document without secret fields).
  public static let none = SecretPolicy(fields: [])

  /// True when some value may be masked.
  public var masks: Bool { !reveals && !fields.isEmpty }

  /// Whether `field` holds a secret (whatever `reveals` says).
  public func isSecret(_ field: String) -> Bool { fields.contains(field) }

  /// The value of `field` as it may be shown: the mask for a secret that holds something, else
  /// the value itself. `null` and the empty string are shown as they are (they hide nothing).
  public func shown(_ value: Value, of field: String) -> Value {
    guard masks, fields.contains(field) else { return value }
    switch value {
    case .null, .string(""): return value
    default: return .string(Self.mask)
    }
  }

  /// `shown` as display text (`Value.displayString` of what may be shown).
  public func text(_ value: Value, of field: String) -> String {
    shown(value, of: field).displayString
  }

  /// Collected data (or any object keyed by field name) with every secret masked.
  public func data(_ data: OrderedDictionary<String, Value>) -> OrderedDictionary<String, Value> {
    guard masks, data.keys.contains(where: fields.contains) else { return data }
    var out = data
    for (key, value) in data where fields.contains(key) { out[key] = shown(value, of: key) }
    return out
  }

  /// `data` for a value: objects keyed by field name are masked, anything else is returned as is.
  public func data(_ value: Value) -> Value {
    guard case .object(let members) = value else { return value }
    return .object(data(members))
  }

  /// Whether `value` is the mask itself: a recorded secret (see `ScriptWriter`), which a replay
  /// fills with a stand-in value.
  public static func isMask(_ value: Value) -> Bool { value == .string(mask) }
}
