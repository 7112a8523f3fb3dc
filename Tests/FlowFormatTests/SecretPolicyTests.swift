import FlowExpression
import FlowFormat
import OrderedCollections
import Testing

/// Which fields are secret (the model's fact) and how the one masking policy shows them.
@Suite struct SecretPolicyTests {
  static func document(_ blocks: String) throws -> FlowDocument {
    let json = """
      {"version": 1, "id": "f", "screens": [{"id": "s", "name": "S", "type": "form", "content": {"blocks": [\(blocks)]}}]}
      """
    let result = FlowLoader.load(bytes: Array(json.utf8), file: "f.json")
    return try #require(result.document, "\(result.diagnostics)")
  }

  struct Declared: Sendable, CustomTestStringConvertible {
    var content: String
    var secret: Bool
    var testDescription: String { content }
  }

  @Test(arguments: [
    Declared(content: #""fieldName": "a""#, secret: false),
    Declared(content: #""fieldName": "a", "inputType": "password""#, secret: true),
    Declared(content: #""fieldName": "a", "inputType": "text", "secret": true"#, secret: true),
    Declared(content: #""fieldName": "a", "inputType": "number", "secret": true"#, secret: true),
    Declared(content: #""fieldName": "a", "inputType": "password", "secret": false"#, secret: false),
  ])
  func secretIsAFactOfTheInput(_ declared: Declared) throws {
    let document = try Self.document(#"{"id": "b", "type": "input", "content": {\#(declared.content)}}"#)
    let block = try #require(document.entryFlow?.screens.first?.content.flatBlocks.first)
    #expect(block.isSecret == declared.secret)
    #expect(document.secretFields == (declared.secret ? ["a"] : []))
  }

  @Test func secretFieldsIncludeScrollContainerChildren() throws {
    let document = try Self.document(
      #"{"id": "c", "type": "scroll-container", "content": {"children": [{"id": "p", "type": "input", "content": {"fieldName": "pin", "secret": true}}]}}"#
    )
    #expect(document.secretFields == ["pin"])
  }

  @Test(
    arguments: [
      (Value.string("hunter2"), Value.string("••••")),
      (.string("x"), .string("••••")),
      (.number(1234), .string("••••")),
      (.list([.string("a")]), .string("••••")),
      (.null, .null),
      (.string(""), .string("")),
    ] as [(Value, Value)])
  func aSecretIsShownAsTheMaskWhateverItHolds(_ value: Value, _ shown: Value) {
    let policy = SecretPolicy(fields: ["pw"])
    #expect(policy.shown(value, of: "pw") == shown)
    #expect(policy.shown(value, of: "name") == value)
    #expect(SecretPolicy(fields: ["pw"], reveals: true).shown(value, of: "pw") == value)
  }

  @Test func dataIsMaskedKeyByKeyInOrder() {
    let policy = SecretPolicy(fields: ["pw"])
    let data: OrderedDictionary<String, Value> = ["name": "Ada", "pw": "hunter2", "age": 3]
    #expect(policy.data(data) == ["name": "Ada", "pw": "••••", "age": 3])
    #expect(SecretPolicy.none.data(data) == data)
    #expect(policy.data(Value.object(data)) == .object(["name": "Ada", "pw": "••••", "age": 3]))
    #expect(policy.data(Value.list([.object(data)])) == .list([.object(data)]), "only an object keyed by field")
    #expect(policy.text(.string("hunter2"), of: "pw") == "••••")
  }
}
