import FlowExpression

/// A branching rule of a screen: the first rule whose condition holds decides where `next` goes.
public struct Rule: Hashable, Sendable {
  /// The condition; nil means the rule always holds.
  public var when: Condition?
  public var goto: Target
  public var location: SourceLocation
  /// An event the rule sends when it routes, right after the screen's completion (extension:
  /// AppDNA's `flow_completed_via_fallback` and analytics nodes): a name of the engine's
  /// catalogue, or the flow's own name; with `emitsProperties` added to the event's own.
  public var emits: String?
  public var emitsProperties: [String: Value] = [:]
  /// An action the rule runs when it routes, after the screen's completion is sent, instead of
  /// going to `goto` (extension: AppDNA's paywall triggers park for the host's answer, markers
  /// set their key and complete). `goto` then names where it leads by default, for summaries.
  public var then: Action?
  /// The rule sends its event (`emits`) when it holds and the next rules are tried (extension:
  /// AppDNA's analytics node without a `next_target`); it never routes.
  public var passesOn = false

  /// Where the rule leads, as traces say it.
  public var traceTarget: String {
    if passesOn { return "send \(emits ?? "") and try the next rules" }
    if case .custom(let custom)? = then { return "\(custom.identifier) (its outcome routes)" }
    return goto.description
  }

  public init(when: Condition?, goto: Target, location: SourceLocation) {
    self.when = when
    self.goto = goto
    self.location = location
  }
}

/// A text that may contain `{expr | filter}` placeholders, compiled once at load.
public struct TextTemplate: Hashable, Sendable {
  public var template: Template
  /// The text in other languages, by lower-case language code (`fr`): a session whose
  /// `--locale` is in one of them shows that one (extension; AppDNA's `localizations`).
  public var translations: [String: Template] = [:]
  /// Last, so that the template is 45 bytes and a rich-text span (with its two flags) fits a
  /// 48-byte stride; before `translations` it padded the template to 48 and a span to 56.
  public var location: SourceLocation?

  /// The template for a locale (`fr_FR`, `fr-FR`, `fr`): its language's translation, else the text.
  public func template(for locale: String) -> Template {
    guard !translations.isEmpty else { return template }
    let language = locale.prefix { $0 != "_" && $0 != "-" }.lowercased()
    return translations[language] ?? template
  }

  public init(template: Template, location: SourceLocation?) {
    self.template = template
    self.location = location
  }

  public var raw: String { template.source }
}
