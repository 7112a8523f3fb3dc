import FlowStore
import OrderedCollections
import Testing

/// Name-based UUIDs, store URLs and the API's parameters: the values both backends share.
@Suite struct StoreValuesTests {
  @Test func nameUUIDsAreVersion5() {
    // RFC 9562's DNS namespace and the name "python.org": a published example.
    let dns: [UInt8] = [
      0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8,
    ]
    #expect(NameUUID.text(NameUUID.make(namespace: dns, name: "python.org")) == "886313e1-3b8a-5372-9b90-0c9aee199e5d")
    #expect(NameUUID.text(NameUUID.namespace) == "7f360a22-e711-5a92-9fb0-b7c732e35c87")
    #expect(NameUUID.flow("fitness") == NameUUID.flow("fitness"))
    #expect(NameUUID.flow("fitness") != NameUUID.flow("goals"))
    #expect(NameUUID.isUUID(NameUUID.flow("fitness")))
  }

  @Test(arguments: [
    ("886313e1-3b8a-5372-9b90-0c9aee199e5d", true), ("886313E1-3B8A-5372-9B90-0C9AEE199E5D", true),
    ("886313e13b8a53729b900c9aee199e5d", false), ("886313e1-3b8a-5372-9b90-0c9aee199e5g", false), ("", false),
    ("fitness", false),
  ])
  func uuidText(_ text: String, _ isUUID: Bool) {
    #expect(NameUUID.isUUID(text) == isUUID)
  }

  @Test(arguments: [
    ("sqlite:sub.db", "sqlite:sub.db"), ("sqlite:///tmp/s.db", "sqlite:/tmp/s.db"), ("sub.db", "sqlite:sub.db"),
    ("./data/s.sqlite", "sqlite:./data/s.sqlite"), ("/abs/s.db", "sqlite:/abs/s.db"),
    ("postgres://u@localhost/db", "postgres://u@localhost/db"),
    ("postgresql://u:pw@h:5432/db", "postgresql://u:…@h:5432/db"),
  ])
  func storeURLsThatWork(_ text: String, _ shown: String) throws {
    #expect(try StoreURL.parse(text).get().description == shown)
  }

  @Test(arguments: [
    ("", "the store URL is empty"), ("sqlite:", "names no file"), ("mysql://h/db", "unsupported store 'mysql:'"),
    ("http://localhost:8787", "unsupported store 'http:'"), ("postgres://", "names no server"),
    ("a\nb", "control character"),
  ])
  func storeURLsThatDoNot(_ text: String, _ message: String) {
    guard case .failure(let error) = StoreURL.parse(text) else {
      Issue.record("'\(text)' was accepted")
      return
    }
    #expect(error.message.contains(message), "\(error.message)")
    #expect(error.message.contains("sqlite:PATH"))
  }

  @Test(arguments: [
    ([("flow_id", "fitness"), ("user_id", "u"), ("limit", "5"), ("offset", "10")], "fitness u 5 10 false false"),
    ([("completed", "true")], "- - 100 0 true false"),
    ([("incomplete", "1"), ("completed", "false")], "- - 100 0 false true"),
    ([], "- - 100 0 false false"),
  ])
  func queriesThatWork(_ pairs: [(String, String)], _ expected: String) throws {
    let query = try SubmissionQuery.parse(pairs.map { (name: $0.0, value: $0.1) }).get()
    let text = [
      query.flowID ?? "-", query.userID ?? "-", "\(query.limit)", "\(query.offset)", "\(query.completed)",
      "\(query.incomplete)",
    ].joined(separator: " ")
    #expect(text == expected)
  }

  @Test(arguments: [
    ([("limit", "0")], "parameter 'limit' must be a whole number from 1 to 1000, not '0'"),
    ([("limit", "1001")], "from 1 to 1000"), ([("limit", "-1")], "from 1 to 1000"),
    ([("limit", "abc")], "not 'abc'"), ([("limit", "99999999999999999999")], "from 1 to 1000"),
    ([("offset", "-1")], "parameter 'offset' must be a whole number from 0"),
    ([("offset", "1e3")], "not '1e3'"), ([("completed", "yes")], "must be true or false"),
    ([("limit", "1"), ("limit", "2")], "is given twice"), ([("sort", "x")], "unknown parameter 'sort'"),
    ([("completed", "true"), ("incomplete", "true")], "exclude each other"),
  ])
  func queriesThatDoNot(_ pairs: [(String, String)], _ message: String) {
    guard case .failure(let error) = SubmissionQuery.parse(pairs.map { (name: $0.0, value: $0.1) }) else {
      Issue.record("\(pairs) was accepted")
      return
    }
    #expect(error.message.contains(message), "\(error.message)")
  }
}
