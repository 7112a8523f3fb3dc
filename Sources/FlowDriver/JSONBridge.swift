import FlowExpression
import FlowFormat
import OrderedCollections

/// FlowExpression values to and from JSON text.
public enum JSONBridge {
  /// Parses `text` as one JSON value; the error names the first problem.
  public static func parse(_ text: String) -> Result<Value, InputLanguageError> {
    let (root, diagnostics) = JSONParser.parse(text)
    if let root, !diagnostics.contains(where: { $0.severity == .error }) { return .success(value(root)) }
    let first = diagnostics.first { $0.severity == .error }
    var message = first?.message ?? "not JSON"
    if let column = first?.location?.column { message += " (column \(column))" }
    return .failure(InputLanguageError(message))
  }

  /// The value of `text` as JSON, or nil when it is not JSON.
  public static func value(parsing text: String) -> Value? {
    try? parse(text).get()
  }

  /// A parsed JSON value without its source positions.
  public static func value(_ json: JSONValue) -> Value {
    switch json.kind {
    case .null: .null
    case .bool(let b): .bool(b)
    case .number(let d, _): .number(d)
    case .string(let s): .string(s)
    case .array(let items): .list(items.map(value))
    case .object(let object):
      .object(OrderedDictionary(object.members.map { ($0.key, value($0.value)) }, uniquingKeysWith: { $1 }))
    }
  }

  /// `value` for `JSONWriter` (member order kept).
  public static func writerValue(_ value: Value) -> JSONWriter.Value {
    switch value {
    case .null: .null
    case .bool(let b): .bool(b)
    case .number(let d): .double(d)
    case .string(let s): .string(s)
    case .list(let items): .array(items.map(writerValue))
    case .object(let members): .object(members.map { (key: $0.key, value: writerValue($0.value)) })
    }
  }

  /// Collected data as pretty JSON (two-space indent, keys in collection order), no newline.
  public static func prettyText(_ data: OrderedDictionary<String, Value>) -> String {
    JSONWriter.pretty.string(writerValue(.object(data)))
  }

  /// One event as a compact JSON line, without the newline (NDJSON).
  public static func line(_ value: Value) -> String {
    JSONWriter.compact.string(writerValue(value))
  }
}
