import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections
import Testing

/// An AppDNA location field stores document 001's 11-key result, whatever form the answer takes.
@Suite struct LocationResultTests {
  static let keys = [
    "formatted_address", "city", "state", "state_code", "country", "country_code", "latitude", "longitude", "timezone",
    "timezone_offset", "postal_code",
  ]

  @Test(arguments: [
    (
      Value.object(["city": "Paris", "latitude": 48.85, "extra": "dropped"]),
      ["city": Value.string("Paris"), "latitude": 48.85]
    ),
    (.string("Lyon"), ["formatted_address": "Lyon"]),
    (.string(#" {"city": "Nice", "timezone_offset": 60} "#), ["city": "Nice", "timezone_offset": 60]),
  ])
  func answersBecomeTheElevenKeys(_ answer: Value, _ set: [String: Value]) throws {
    guard case .object(let result)? = LocationResult.value(of: answer) else {
      Issue.record("no result for \(answer)")
      return
    }
    #expect(Array(result.keys) == Self.keys)
    for key in Self.keys { #expect(result[key] == (set[key] ?? .null), "\(key)") }
  }

  @Test func iosQuirksKeepTheSDKsSixKeys() throws {
    let answer: Value = .object(["formatted_address": "Paris, France", "city": "Paris", "latitude": 48.85])
    guard case .object(let result)? = LocationResult.value(of: answer, iosQuirks: true) else {
      Issue.record("no result")
      return
    }
    #expect(Array(result.keys) == ["city", "state", "country", "latitude", "longitude", "timezone"])
    #expect(result["city"] == "Paris" && result["latitude"] == 48.85 && result["state"] == .null)
  }

  @Test(arguments: [
    Value.object(["latitude": "north"]), .object(["city": 7]), .list(["Paris"]), .bool(true), .number(3),
  ])
  func wrongShapesAreRefused(_ answer: Value) {
    #expect(LocationResult.value(of: answer) == nil)
  }

  @Test func aSessionStoresTheResultAndRefusesNonsense() throws {
    let json = #"""
      {"id": "f", "steps": [{"id": "where", "type": "form", "config": {"fields": [
        {"id": "home", "type": "location", "label": "City"}]}}, {"id": "end", "type": "welcome"}]}
      """#
    let document = try #require(FlowLoader.load(bytes: Array(json.utf8), file: "f.json").document)
    var (session, _) = try Session.start(document: document, config: SessionConfig(now: 0))
    let refused = session.send(.set(field: "home", value: .list(["x"])))
    #expect(refused.contains { if case .rejected = $0 { true } else { false } })
    _ = session.send(.set(field: "home", value: .object(["city": "Oslo"])))
    guard case .object(let stored)? = session.data("home") else {
      Issue.record("nothing stored")
      return
    }
    #expect(stored["city"] == "Oslo" && stored.count == 11)
  }
}
