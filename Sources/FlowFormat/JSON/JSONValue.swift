/// A JSON value together with the position of its first character in the source.
///
/// Produced by ``JSONParser``; the loader walks it to build the model and to put a
/// `file:line:col` on every diagnostic.
public struct JSONValue: Sendable {
  public enum Kind: Sendable {
    case null
    case bool(Bool)
    /// The number, and whether its literal had no fraction or exponent.
    case number(Double, isInteger: Bool)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
  }

  public var kind: Kind
  public var location: SourceLocation

  public init(_ kind: Kind, at location: SourceLocation) {
    self.kind = kind
    self.location = location
  }

  /// The JSON type name used in messages: `a string`, `an object`, ...
  public var typeDescription: String {
    switch kind {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  public var stringValue: String? {
    if case .string(let s) = kind { return s }
    return nil
  }

  public var boolValue: Bool? {
    if case .bool(let b) = kind { return b }
    return nil
  }

  public var numberValue: Double? {
    if case .number(let d, _) = kind { return d }
    return nil
  }

  public var arrayValue: [JSONValue]? {
    if case .array(let a) = kind { return a }
    return nil
  }

  public var objectValue: JSONObject? {
    if case .object(let o) = kind { return o }
    return nil
  }
}

/// A JSON object that keeps its members in source order, with each key's position.
public struct JSONObject: Sendable {
  public struct Member: Sendable {
    public var key: String
    public var keyLocation: SourceLocation
    public var value: JSONValue

    public init(key: String, keyLocation: SourceLocation, value: JSONValue) {
      self.key = key
      self.keyLocation = keyLocation
      self.value = value
    }
  }

  public var members: [Member]

  public init(members: [Member]) {
    self.members = members
  }

  /// The value of the last member named `key` (JSON.parse semantics for duplicates).
  public subscript(key: String) -> JSONValue? {
    member(key)?.value
  }

  public func member(_ key: String) -> Member? {
    members.last { $0.key == key }
  }

  public var keys: [String] { members.map(\.key) }
}

// MARK: - Handing parts of a tree down

// The loader decodes a big document screen by screen; when each screen's subtree is held only
// by the decoder, it dies once decoded, so the tree and the model are never both whole in
// memory (docs/performance.md, "Seventh round"). A holder lets go by taking the part out.
extension JSONValue {
  /// The value, leaving `null` at the same location in its place.
  mutating func take() -> JSONValue {
    let value = self
    self = JSONValue(.null, at: location)
    return value
  }
}

extension JSONObject {
  /// The value of the last member named `key` (as `lookup`), taken out: `null` stays in its place.
  @discardableResult
  mutating func take(_ key: String) -> JSONValue? {
    var i = members.count - 1
    while i >= 0 {
      if members[i].key.isSameKey(key) { return members[i].value.take() }
      i -= 1
    }
    return nil
  }
}
