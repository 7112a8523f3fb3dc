import FlowExpression
import FlowPattern

extension DecodeContext {
  /// Compiles a condition: an expression string, or the structured object form.
  mutating func condition(_ json: JSONValue) -> Condition? {
    switch json.kind {
    case .string(let source):
      do {
        return try Condition.parse(source)
      } catch {
        report(
          .error, .Load.badExpression, "invalid condition '\(source)': \(error.message)",
          at: Self.location(in: source, at: error.offset, of: json.location))
        return nil
      }
    case .object(let object):
      return structuredCondition(object, at: json.location)
    default:
      mismatch(json, expected: "a condition (an expression string or a {field, op, value} object)")
      return nil
    }
  }

  /// The position of `offset` (UTF-8) inside a JSON string literal starting at `literal`.
  /// Exact when the literal has no escapes, which conditions rarely do.
  static func location(in source: String, at offset: Int, of literal: SourceLocation) -> SourceLocation {
    let prefix = source.utf8.prefix(offset)
    let columns = String(decoding: prefix, as: UTF8.self).unicodeScalars.count
    return SourceLocation(
      line: literal.line, column: literal.column + 1 + columns, offset: literal.offset + 1 + prefix.count)
  }

  /// The combinators with their key sets and names, made once: a key set made per condition
  /// (with its "did you mean" index) cost ~14,000 instructions each.
  private static let combinators = [
    ("all", KnownKeys.all, "an 'all' condition"), ("any", KnownKeys.any, "an 'any' condition"),
  ]

  /// `{"field", "op", "value"}`, `{"all": [...]}`, `{"any": [...]}` or `{"not": C}`.
  mutating func structuredCondition(_ object: JSONObject, at location: SourceLocation) -> Condition? {
    for (combinator, known, owner) in Self.combinators {
      guard let list = object.lookup(combinator) else { continue }
      checkKeys(object, known: known, owner: owner)
      guard let items = list.arrayValue else {
        at(combinator) { $0.mismatch(list, expected: "an array of conditions") }
        return nil
      }
      var parts: [Condition] = []
      for (index, item) in items.enumerated() {
        guard let part = at(combinator, { c in c.at(.index(index)) { $0.condition(item) } }) else { return nil }
        parts.append(part)
      }
      return combinator == "all" ? .all(parts) : .any(parts)
    }
    if let inner = object.lookup("not") {
      checkKeys(object, known: KnownKeys.not, owner: "a 'not' condition")
      return at("not") { $0.condition(inner) }.map(Condition.not)
    }
    checkKeys(object, known: KnownKeys.structuredCondition, owner: "a condition")
    guard let field = requiredString(object, "field", in: "a condition", at: location),
      let op = requiredString(object, "op", in: "a condition", at: location)
    else { return nil }
    // A `matches` pattern is compiled like an input's: once per load, an error at its string.
    var compiled: Pattern?
    if op == StructuredOperator.matches.rawValue, let literal = object.lookup("value"),
      case .string(let source) = literal.kind
    {
      switch pattern(source, at: literal.location) {
      case .success(let pattern): compiled = pattern
      case .failure(let error):
        at("value") {
          $0.error(.Load.invalidRegex, "invalid regular expression '\(source)': \(error)", at: literal.location)
        }
        return nil
      }
    }
    do {
      return try Condition.structured(
        field: field, op: op, value: object.lookup("value").map(Value.init), compiled: compiled)
    } catch {
      at("op") {
        $0.report(
          .error, .Load.badCondition, "invalid condition: \(error.message)",
          at: object.lookup("op")?.location ?? location,
          notes: Self.didYouMean(op, StructuredOperator.allCases.map(\.rawValue)))
      }
      return nil
    }
  }

  /// Compiles template text found at `location`.
  mutating func template(_ text: String, at location: SourceLocation?) -> TextTemplate {
    // `{Daily Hours}` reads the field named so (its own `load.field-name-case` warning says to
    // rename it); other braces that do not parse stay literal.
    let template = Template(parsing: text, sharing: &templateSharing).readingWordNames
    if !template.isPlainText { interpolatingTemplates += 1 }
    for issue in template.syntaxIssues {
      warning(
        .Load.templateSyntax,
        "template text '\(issue.source)' is not an expression and stays literal: \(issue.message)",
        at: location)
    }
    return TextTemplate(template: template, location: location)
  }

  /// `Continue`, the text of a button that names none, compiled once: every screen has one
  /// as its default.
  static let defaultButtonText = TextTemplate(template: Template(parsing: "Continue").readingWordNames, location: nil)

  /// The template under `key`, if present and a string.
  mutating func templateField(_ object: JSONObject, _ key: String) -> TextTemplate? {
    guard let value = object.lookup(key), let text = string(value, key) else { return nil }
    return template(text, at: value.location)
  }
}
