import FlowAnalysis
import FlowFormat
import Testing

/// The lazily built path index answers exactly what rendering every value's path would.
@Suite struct JSONPathIndexTests {
  /// Every value's path, rendered the straightforward way (the index's former implementation).
  static func allPaths(_ value: JSONValue, _ path: String, into result: inout [Int: String]) {
    switch value.kind {
    case .object(let object):
      result[value.location.offset] = path
      for member in object.members {
        allPaths(member.value, path.isEmpty ? member.key : "\(path).\(member.key)", into: &result)
      }
    case .array(let items):
      result[value.location.offset] = path
      for (index, item) in items.enumerated() { allPaths(item, "\(path)[\(index)]", into: &result) }
    default:
      if result[value.location.offset] == nil { result[value.location.offset] = path }
    }
  }

  @Test func everyValueAndNothingElse() throws {
    let json = """
      {"screens": [{"id": "a", "content": {"blocks": [{"id": "b", "items": [1, [2, {"x": null}], {}]}]}},
       {"id": "a", "id": "dup", "rules": []}], "flows": {"k": {"deep": [[[true]]]}}, "e": "", "n": -1.5e3}
      """
    let source = Array(json.utf8)
    let root = try #require(JSONParser.parse(source).0)
    var expected: [Int: String] = [:]
    Self.allPaths(root, "", into: &expected)
    let index = JSONPathIndex(source: source)
    for offset in 0...source.count {
      let location = SourceLocation(line: 1, column: offset + 1, offset: offset)
      #expect(index.path(at: location) == expected[offset], "offset \(offset)")
    }
    #expect(JSONPathIndex(source: []).path(at: SourceLocation(line: 1, column: 1, offset: 0)) == nil)
    #expect(JSONPathIndex(source: Array("{".utf8)).path(at: SourceLocation(line: 1, column: 1, offset: 0)) == nil)
  }
}
