import FlowExpression
import OrderedCollections

/// FlowExpression values to and from JSON: the one conversion the loader, the line protocol,
/// replay reports and event files share.
extension Value {
  /// A parsed JSON value without its source positions (a duplicate key: the last one wins,
  /// as `JSON.parse` does).
  /// `text` parsed as one JSON value; nil when it is not JSON.
  public init?(parsingJSON text: String) {
    let (root, diagnostics) = JSONParser.parse(text)
    guard let root, !diagnostics.contains(where: { $0.severity == .error }) else { return nil }
    self.init(root)
  }

  public init(_ json: JSONValue) {
    switch json.kind {
    case .null: self = .null
    case .bool(let b): self = .bool(b)
    case .number(let d, _): self = .number(d)
    case .string(let s): self = .string(s)
    case .array(let items): self = .list(items.map(Value.init))
    case .object(let object):
      self = .object(OrderedDictionary(object.members.map { ($0.key, Value($0.value)) }, uniquingKeysWith: { $1 }))
    }
  }

  /// The value for `JSONWriter`, objects in their order. Numbers are written by
  /// `JSONWriter.number`: a whole number below 2^53 as an integer (`3`, not `3.0`).
  public var writerValue: JSONWriter.Value {
    switch self {
    case .null: .null
    case .bool(let b): .bool(b)
    case .number(let d): .double(d)
    case .string(let s): .string(s)
    case .list(let items): .array(items.map(\.writerValue))
    case .object(let object): .object(object.map { (key: $0.key, value: $0.value.writerValue) })
    }
  }

  /// Compact JSON text, without a newline: an NDJSON event line, a value in a message.
  public var json: String { JSONWriter.compact.string(writerValue) }

  /// Pretty JSON text (two-space indent, members in their order), without a newline: the
  /// collected data of `:data` and `--data`.
  public var prettyJSON: String { JSONWriter.pretty.string(writerValue) }
}
