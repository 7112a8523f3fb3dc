import FlowExpression

/// A branching rule of a screen: the first rule whose condition holds decides where `next` goes.
public struct Rule: Hashable, Sendable {
  /// The condition; nil means the rule always holds.
  public var when: Condition?
  public var goto: Target
  public var location: SourceLocation

  public init(when: Condition?, goto: Target, location: SourceLocation) {
    self.when = when
    self.goto = goto
    self.location = location
  }
}

/// A condition as written in the flow (`when`, `visibleWhen`), with its compiled expression.
public struct Condition: Hashable, Sendable {
  /// The text shown in traces: the expression string, or the structured form spelled out.
  public var source: String
  public var expression: Expression
  public var location: SourceLocation

  public init(source: String, expression: Expression, location: SourceLocation) {
    self.source = source
    self.expression = expression
    self.location = location
  }
}

/// A text that may contain `{expr | filter}` placeholders, compiled once at load.
public struct TextTemplate: Hashable, Sendable {
  public var template: Template
  public var location: SourceLocation?

  public init(template: Template, location: SourceLocation?) {
    self.template = template
    self.location = location
  }

  public var raw: String { template.source }
}
