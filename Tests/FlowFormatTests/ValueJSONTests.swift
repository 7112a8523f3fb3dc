import FlowExpression
import FlowFormat
import OrderedCollections
import Testing

/// FlowExpression values to and from JSON (`Value+JSON.swift`), the one conversion the loader,
/// the line protocol and the reports share.
@Suite struct ValueJSONTests {
  @Test(arguments: [
    (#"{"b": 1, "a": [true, null, "x"]}"#, #"{"b":1,"a":[true,null,"x"]}"#),
    ("3", "3"),
    ("3.0", "3"),
    ("-0", "-0"),
    ("0.5", "0.5"),
    ("1e300", "1e+300"),
    (#"{"k": 1, "k": 2}"#, #"{"k":2}"#),
  ])
  func roundTrips(_ text: String, _ written: String) throws {
    let root = try #require(JSONParser.parse(text).0)
    #expect(Value(root).json == written)
  }

  /// Whole numbers print without a fraction whichever way they were built.
  @Test(arguments: [(3.0, "3"), (-12.0, "-12"), (2.5, "2.5"), (Double.nan, "null"), (Double.infinity, "null")])
  func numbers(_ number: Double, _ written: String) {
    #expect(Value.number(number).json == written)
  }

  @Test func prettyKeepsMemberOrder() {
    let value = Value.object(["z": .number(1), "a": .list([.string("x")])])
    #expect(value.prettyJSON == "{\n  \"z\": 1,\n  \"a\": [\n    \"x\"\n  ]\n}")
  }
}
