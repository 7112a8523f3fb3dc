import Foundation
import Testing
import _FlowTestSupport

/// Nuxie's golden-journey vectors (`fixtures/journeys/golden-journeys.json` in the iOS SDK,
/// restated; the file stays outside the repository): a campaign, its era C flow description
/// (one `__journey__` entry handler) and a timeline, through `flowrun campaign --run` on the
/// built binary. Expected: an ordered subsequence of the events sent, forbidden events, the
/// authored properties, and the journeys left live.
@Suite struct GoldenJourneyTests {
  struct Vector: Sendable, CustomStringConvertible {
    var name: String
    var trigger: String
    /// The entry handler's `send_event` and its properties (JSON).
    var sent: String
    var properties: String?
    var tracked: String
    var subsequence: [String] = []
    var forbidden: [String] = []
    var sentProperties: [String: String] = [:]
    var live = 0

    var description: String { name }
  }

  static let vectors = [
    Vector(
      name: "event-trigger-runs-entry-actions-and-completes", trigger: "golden_start", sent: "golden_side_effect",
      properties: #"{"source": "golden-journey"}"#, tracked: "golden_start",
      subsequence: ["$journey_start", "golden_side_effect", "$journey_completed"]),
    Vector(
      name: "send-event-action-carries-authored-properties", trigger: "golden_props_start",
      sent: "golden_props_emitted", properties: #"{"plan": "premium", "step": 2}"#, tracked: "golden_props_start",
      subsequence: ["golden_props_emitted"], sentProperties: ["plan": "premium", "step": "2"]),
    Vector(
      name: "non-matching-event-starts-nothing", trigger: "golden_never_sent", sent: "golden_should_not_emit",
      tracked: "some_other_event", forbidden: ["$journey_start", "golden_should_not_emit"]),
  ]

  @Test(arguments: vectors)
  func goldenJourney(_ vector: Vector) throws {
    let directory = try TemporaryDirectory()
    let campaigns = directory.file(
      "campaigns.json",
      contents: #"""
        {"campaigns": [{"id": "campaign-golden", "name": "Golden", "flowId": "flow-golden", "flowNumber": 1,
          "reentry": {"type": "every_time"}, "publishedAt": "2026-01-01T00:00:00Z",
          "trigger": {"type": "event", "config": {"eventName": "\#(vector.trigger)"}}}]}
        """#)
    let flow = directory.file(
      "flow.json",
      contents: #"""
        {"id": "flow-golden",
         "flowArtifact": {"url": "https://example.com/builds/flow-golden", "buildId": "build-flow-golden",
           "manifest": {"totalFiles": 0, "totalSize": 0, "contentHash": "golden-hash", "files": []}},
         "screens": [{"id": "screen-1"}], "events": {}, "scripts": {},
         "handlers": {"__journey__": [{"id": "h-entry", "eventName": "\#(vector.trigger)", "actions": [
           {"type": "send_event", "eventName": "\#(vector.sent)"\#(vector.properties.map { #", "properties": \#($0)"# } ?? "")},
           {"type": "exit"}]}]}}
        """#)
    let profile = directory.file("profile.json", contents: #"{"distinctId": "golden_user"}"#)
    let timeline = directory.file(
      "timeline.ndjson",
      contents: #"{"event": "\#(vector.tracked)", "timestamp": "2026-03-02T09:00:00Z", "properties": {}}"# + "\n")
    let result = try runFlowrun([
      "campaign", campaigns, "--profile", profile, "--events", timeline, "--run", "--flows", flow, "--format", "json",
    ])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    // Every event sent, in order: the flow's events are inputs of their own lines, the
    // campaign layer's are in `events`.
    var sent: [(name: String, properties: [String: Any])] = []
    var started = 0
    var ended = 0
    for line in result.stdout.split(separator: "\n") {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      if let event = object["event"] as? String {
        sent.append((event, object["properties"] as? [String: Any] ?? [:]))
      }
      for event in object["events"] as? [[String: Any]] ?? [] {
        sent.append((event["event"] as? String ?? "", event["properties"] as? [String: Any] ?? [:]))
      }
      let decisions = object["decisions"] as? [[String: Any]] ?? []
      started += decisions.filter { $0["decision"] as? String == "journeyStarted" }.count
      ended += (object["journeys_ended"] as? [Any] ?? []).count
    }
    var rest = sent.map(\.name)[...]
    for name in vector.subsequence {
      guard let index = rest.firstIndex(of: name) else {
        Issue.record("\(name) missing (in order) from \(sent.map(\.name))")
        break
      }
      rest = rest[(index + 1)...]
    }
    for name in vector.forbidden { #expect(!sent.contains { $0.name == name }, "\(sent.map(\.name))") }
    if !vector.sentProperties.isEmpty {
      let properties = try #require(sent.first { $0.name == vector.sent }?.properties)
      for (key, value) in vector.sentProperties { #expect("\(properties[key] ?? "nil")" == value, "\(properties)") }
    }
    #expect(started - ended == vector.live)
  }
}
