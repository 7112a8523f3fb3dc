import FlowAnalysis
import FlowFormat
import Testing

/// The path index, which scans the file's bytes, answers exactly what the parsed tree does.
@Suite struct JSONPathIndexTests {
  /// Every value's path, rendered the straightforward way from the tree.
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

  /// Every object of the tree.
  static func objects(_ value: JSONValue, into result: inout [(JSONValue, JSONObject)]) {
    switch value.kind {
    case .object(let object):
      result.append((value, object))
      for member in object.members { objects(member.value, into: &result) }
    case .array(let items):
      for item in items { objects(item, into: &result) }
    default: break
    }
  }

  static let documents = [
    """
    {"screens": [{"id": "a", "content": {"blocks": [{"id": "b", "items": [1, [2, {"x": null}], {}]}]}},
     {"id": "a", "id": "dup", "rules": []}], "flows": {"k": {"deep": [[[true]]]}}, "e": "", "n": -1.5e3}
    """,
    "\u{FEFF}{\"\": {\"\": [ {} , [ ] ]},\r\n \"k\\\"e\\\\y\\u00e9\": {\"é\": \"a,}]\\\"\", \"ü\\n\": [false]},\r \"\\ud83d\\ude00\": {\"x\": 1e-3}}",
    "[\n\t\"top\",\n\t{\"a\": {\"b\": {\"c\": \"{[\"}}, \"a\": 2}\n]\n",
    "\"just a string\"",
  ]

  @Test(arguments: documents) func everyValueAndNothingElse(_ json: String) throws {
    let source = Array(json.utf8)
    let root = try #require(JSONParser.parse(source).0)
    var expected: [Int: String] = [:]
    Self.allPaths(root, "", into: &expected)
    let index = JSONPathIndex(source: source)
    for offset in 0...source.count {
      let location = SourceLocation(line: 1, column: offset + 1, offset: offset)
      #expect(index.path(at: location) == expected[offset], "offset \(offset)")
    }
    // Many offsets in one scan, in any order and repeated.
    let offsets = Array((0...source.count).reversed()) + [0, 3, 3]
    #expect(index.paths(at: offsets) == offsets.map { expected[$0] })
  }

  /// A key's value inside an object, one and two keys deep: the first member of each key.
  @Test(arguments: documents) func keysInsideObjects(_ json: String) throws {
    let source = Array(json.utf8)
    let root = try #require(JSONParser.parse(source).0)
    var objects: [(JSONValue, JSONObject)] = []
    Self.objects(root, into: &objects)
    let index = JSONPathIndex(source: source)
    for (value, object) in objects {
      for member in object.members {
        let first = object.members.first { $0.key == member.key }!.value
        #expect(index.location(of: [member.key], inObjectAt: value.location) == first.location)
        guard case .object(let inner) = first.kind else { continue }
        for child in inner.members {
          let expected = inner.members.first { $0.key == child.key }!.value.location
          #expect(index.location(of: [member.key, child.key], inObjectAt: value.location) == expected)
        }
      }
      #expect(index.location(of: ["missing"], inObjectAt: value.location) == nil)
    }
  }

  @Test func sourcesWithoutValues() {
    let start = SourceLocation(line: 1, column: 1, offset: 0)
    #expect(JSONPathIndex(source: []).path(at: start) == nil)
    #expect(JSONPathIndex(source: Array("   ".utf8)).path(at: start) == nil)
    // A source cut short (not one `check` lints) ends the scan without a crash.
    #expect(JSONPathIndex(source: Array("{\"a\": [1, ".utf8)).paths(at: [0, 6, 7, 10]) == ["", "a", "a[0]", nil])
    #expect(JSONPathIndex(source: Array("{\"a\"".utf8)).location(of: ["a"], inObjectAt: start) == nil)
  }
}
