import Testing

@testable import FlowFormat

/// `take`, by which the loader hands each screen's subtree to its decoder (and frees it).
@Suite struct JSONTakeTests {
  @Test(
    arguments: [
      // object, key taken, the taken value's JSON text (nil: no member), members left with null
      (#"{"a": 1, "b": [2]}"#, "b", "[2]", ["a", "b"]),
      (#"{"a": 1, "a": "second"}"#, "a", #""second""#, ["a", "a"]),
      (#"{"a": 1}"#, "z", nil, ["a"]),
    ] as [(String, String, String?, [String])])
  func takesTheLastMemberNamed(_ text: String, _ key: String, _ taken: String?, _ keys: [String]) throws {
    var object = try #require(parse(text).0?.objectValue)
    let before = object.members.map(\.value.location)
    let value = object.take(key)
    #expect(value.map { JSONWriter.compact.string($0) } == taken.map { JSONWriter.compact.string(parse($0).0!) })
    #expect(object.keys == keys)
    // Locations stay; only the taken member became null.
    #expect(object.members.map(\.value.location) == before)
    if taken != nil, let last = object.members.lastIndex(where: { $0.key == key }) {
      #expect(object.members[last].value.typeDescription == "null")
    }
  }

  @Test func takeLeavesNullAtTheSameLocation() throws {
    var value = try #require(parse(#"  {"screens": [{"id": "a"}]}"#).0)
    let location = value.location
    let taken = value.take()
    #expect(taken.objectValue?.lookup("screens")?.arrayValue?.count == 1)
    #expect(value.typeDescription == "null")
    #expect(value.location == location)
  }
}
