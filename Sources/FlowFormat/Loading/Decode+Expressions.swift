import FlowExpression

extension DecodeContext {
  /// Compiles a condition: an expression string, or the structured object form.
  mutating func condition(_ json: JSONValue) -> Condition? {
    switch json.kind {
    case .string(let source):
      do {
        let expression = try Expression.parse(source)
        return Condition(source: source, expression: expression, location: json.location)
      } catch {
        report(
          .error, "load.bad-expression", "invalid condition '\(source)': \(error.message)",
          at: Self.location(in: source, at: error.offset, of: json.location))
        return nil
      }
    case .object:
      guard let (source, expression) = structuredCondition(json) else { return nil }
      return Condition(source: source, expression: expression, location: json.location)
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
    return SourceLocation(line: literal.line, column: literal.column + 1 + columns, offset: literal.offset + 1 + prefix.count)
  }

  mutating func structuredCondition(_ json: JSONValue) -> (String, Expression)? {
    nil
  }

  /// Compiles template text found at `location`.
  mutating func template(_ text: String, at location: SourceLocation?) -> TextTemplate {
    TextTemplate(template: Template(parsing: text), location: location)
  }

  /// The template under `key`, if present and a string.
  mutating func templateField(_ object: JSONObject, _ key: String) -> TextTemplate? {
    guard let text = string(object, key) else { return nil }
    return template(text, at: object[key]?.location)
  }
}
