import FlowExpression
import FlowFormat

/// JSON text typed in the line protocol (`:set`, `:ok`) as FlowExpression values.
public enum JSONBridge {
  /// Parses `text` as one JSON value; the error names the first problem.
  public static func parse(_ text: String) -> Result<Value, InputLanguageError> {
    let (root, diagnostics) = JSONParser.parse(text)
    if let root, !diagnostics.contains(where: { $0.severity == .error }) { return .success(Value(root)) }
    let first = diagnostics.first { $0.severity == .error }
    var message = first?.message ?? "not JSON"
    if let column = first?.location?.column { message += " (column \(column))" }
    return .failure(InputLanguageError(message))
  }

  /// The value of `text` as JSON, or nil when it is not JSON.
  public static func value(parsing text: String) -> Value? {
    try? parse(text).get()
  }
}
