import Foundation
import Testing
import _FlowTestSupport

/// `flowrun schema`: the JSON Schema of each dialect on standard output; a wrong dialect is
/// wrong usage. (.ci/schema validates the samples and the bad inputs against it with Python's
/// jsonschema.)
@Suite struct SchemaCommandTests {
  struct Case: Sendable, CustomStringConvertible {
    var arguments: [String]
    var status: Int32
    var says: String
    var description: String { arguments.joined(separator: " ") }
  }

  static let cases: [Case] = [
    Case(arguments: ["schema"], status: 0, says: #""$id": "urn:flowrun:schema:sequence""#),
    Case(arguments: ["schema", "--dialect", "sequence"], status: 0, says: #""goal-selector""#),
    Case(arguments: ["schema", "--dialect", "appdna"], status: 0, says: #""$id": "urn:flowrun:schema:appdna""#),
    Case(arguments: ["schema", "--dialect", "nuxie"], status: 0, says: #""$id": "urn:flowrun:schema:nuxie""#),
    Case(arguments: ["schema", "--dialect", "yarn"], status: 64, says: "The value 'yarn' is invalid for '--dialect"),
  ]

  @Test(arguments: cases)
  func schema(_ test: Case) throws {
    let result = try runFlowrun(test.arguments)
    #expect(result.status == test.status)
    #expect((result.stdout + result.stderr).contains(test.says))
    if test.status == 0 {
      let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
      #expect(parsed?["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
    }
  }
}
