import FlowExpression
import FlowFormat
import OrderedCollections

// The ONE place where the engine renders templates and evaluates conditions.

/// The names expressions and templates can read: collected fields plus the `$` context roots.
public struct EngineEnvironment: ExpressionEnvironment, Sendable {
  /// Collected data (one map across flows).
  public var data: OrderedDictionary<String, Value>
  /// `$screen`, `$previous`, `$flow`, `$user`, `$variant`, `$platform`, `$locale`.
  public var context: [String: Value]

  public init(data: OrderedDictionary<String, Value>, context: [String: Value]) {
    self.data = data
    self.context = context
  }

  /// The value of a root name, or nil when it is not set.
  public func value(forRoot name: String) -> Value? {
    if name.hasPrefix("$") { return context[name] }
    return data[name]
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
  static func render(_ template: TextTemplate, in environment: EngineEnvironment) -> String {
    template.template.render(in: environment).text
  }

  /// Evaluates a condition and explains it.
  static func evaluate(_ condition: Condition, in environment: EngineEnvironment) -> ConditionOutcome {
    let trace = condition.evaluate(in: environment)
    return ConditionOutcome(result: trace.result, summary: trace.summary)
  }

  /// Whether a condition holds (errors make it false).
  static func holds(_ condition: Condition, in environment: EngineEnvironment) -> Bool {
    condition.holds(in: environment)
  }
}
