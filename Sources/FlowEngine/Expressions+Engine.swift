import FlowExpression
import FlowFormat
import OrderedCollections

// The ONE place where the engine renders templates and evaluates conditions.

/// The names expressions and templates can read: collected fields plus the `$` context roots.
public struct EngineEnvironment: ExpressionEnvironment, Sendable {
  /// Collected data (one map across flows).
  public var data: OrderedDictionary<String, Value> {
    get { fields.dictionary }
    set { fields = FieldStore(newValue) }
  }
  var fields: FieldStore
  /// `$screen`, `$previous`, `$flow`, `$user`, `$variant`, `$platform`, `$locale`.
  public var context: [String: Value]

  public init(data: OrderedDictionary<String, Value>, context: [String: Value]) {
    self.init(fields: FieldStore(data), context: context)
  }

  init(fields: FieldStore, context: [String: Value]) {
    self.fields = fields
    self.context = context
  }

  /// The value of a root name, or nil when it is not set.
  public func value(forRoot name: String) -> Value? {
    if name.hasPrefix("$") { return context[name] }
    return fields[name]
  }
}

/// The engine's own environment: the names of `EngineEnvironment` (collected data and the `$`
/// roots), resolved when an expression reads them instead of building a dictionary per call.
struct SessionEnvironment: ExpressionEnvironment {
  let data: FieldStore
  // An environment lives only while the session that made it reads through it, and that
  // session holds the context: no retain and release per render, visibility test or rule.
  unowned(unsafe) let context: SessionContext
  unowned(unsafe) let user: SessionUser
  let frame: Frame
  /// The top of the back stack (`$previous`).
  let previous: Frame?
  /// Secrets read as the mask: set for templates (display text), never for conditions, which
  /// read the real values.
  var masksSecrets = false

  func value(forRoot name: String) -> Value? {
    guard name.utf8.first == UInt8(ascii: "$") else {
      guard masksSecrets, let value = data[name] else { return data[name] }
      return context.secrets.shown(value, of: name)
    }
    switch name {
    case "$screen": return .string(context.document.flows[frame.flow].screens[frame.screen].id)
    case "$flow": return .string(context.document.flows[frame.flow].id)
    case "$previous":
      guard let previous else { return .null }
      return .string(context.document.flows[previous.flow].screens[previous.screen].id)
    case "$user": return user.value
    case "$variant": return context.variantValue
    case "$platform": return .string(context.settings.platform)
    case "$locale": return .string(context.settings.locale)
    default: return name.hasPrefix("$") ? nil : data[name]
    }
  }
}

/// A condition's result and the text a trace shows for it.
struct ConditionOutcome: Hashable, Sendable {
  var result: Bool
  /// `goal='build' → false (first clause)`.
  var summary: String
}

enum EngineExpressions {
  /// The template's text with its placeholders filled; unresolvable placeholders stay literal.
  /// Templates are display text: a secret field reads as the mask (`SecretPolicy`).
  static func render(_ template: TextTemplate, in environment: SessionEnvironment) -> String {
    var display = environment
    display.masksSecrets = environment.context.secrets.masks
    return template.template(for: environment.context.settings.locale).render(in: display).text
  }

  /// Evaluates a condition (on the real values) and explains it (secrets masked).
  static func evaluate(_ condition: Condition, in environment: SessionEnvironment) -> ConditionOutcome {
    let secrets = environment.context.secrets
    guard secrets.masks else {
      let (result, summary) = condition.summarize(in: environment)
      return ConditionOutcome(result: result, summary: summary)
    }
    let (result, summary) = condition.summarize(in: environment) { read in
      let root = read.path.prefix { $0 != "." && $0 != "[" }
      return read.value.map { secrets.shown($0, of: String(root)) }
    }
    return ConditionOutcome(result: result, summary: summary)
  }

  /// Whether a condition holds (errors make it false).
  static func holds(_ condition: Condition, in environment: some ExpressionEnvironment) -> Bool {
    condition.holds(in: environment)
  }
}
