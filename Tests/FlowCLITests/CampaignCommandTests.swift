import Foundation
import Testing
import _FlowTestSupport

/// `flowrun campaign` through the built binary: the sample's decisions as golden text and
/// JSON, determinism, and exit codes for bad inputs.
@Suite struct CampaignCommandTests {
  static let sample = [
    "campaign", "sample-flows/nuxie/campaigns.json", "--profile", "sample-flows/nuxie/profile.json", "--events",
    "sample-flows/nuxie/history.ndjson",
  ]

  @Test(arguments: [
    ([String](), "campaign-sample.txt"), (["--trace"], "campaign-sample-trace.txt"),
    (["--format", "json", "--trace"], "campaign-sample.ndjson"),
  ])
  func sampleDecisions(extra: [String], snapshot: String) throws {
    let result = try runFlowrun(Self.sample + extra)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    assertSnapshot(result.stdout, named: snapshot)
    #expect(try runFlowrun(Self.sample + extra).stdout == result.stdout, "same inputs, same bytes")
  }

  /// Each JSON line is an object with the decisions, `no_match` and the events.
  @Test func jsonLinesParse() throws {
    let result = try runFlowrun(Self.sample + ["--format", "json"])
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 10)
    for line in lines {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(object["decisions"] is [Any])
      #expect(object["no_match"] is Bool)
    }
  }

  @Test func untilFiresTheDeferredPresentation() throws {
    let directory = try TemporaryDirectory()
    let events = directory.path + "/events.ndjson"
    try #"{"event": "$app_opened", "timestamp": "2026-03-03T08:00:00Z"}"#.write(
      toFile: events, atomically: true, encoding: .utf8)
    let profile = directory.path + "/profile.json"
    try #"{"userProperties": {"plan": "trial"}}"#.write(toFile: profile, atomically: true, encoding: .utf8)
    let base = ["campaign", "sample-flows/nuxie/campaigns.json", "--profile", profile, "--events", events]
    let without = try runFlowrun(base)
    #expect(without.stdout.contains("deferred(foregroundGracePeriod) until 2026-03-03T08:00:00.750Z"))
    #expect(!without.stdout.contains("flowShown"))
    let with = try runFlowrun(base + ["--until", "2026-03-03T08:00:01Z"])
    #expect(with.stdout.contains("2026-03-03T08:00:00.750Z  timer\n  cmp_trial_winback  journey j1; flowShown"))
  }

  /// 2: a file that cannot be read or parsed; 1: one with errors; 64: a bad option.
  @Test(arguments: [
    (#"{"campaigns": [{"id": "a", "trigger": {"type": "evnt"}}]}"#, [String](), Int32(1), "campaign.unknown-trigger"),
    (#"{"screens": []}"#, [], 2, "campaign.not-campaigns"),
    (#"{"campaigns": "#, [], 2, "json.syntax.unexpected-eof"),
    (#"{"campaigns": []}"#, ["--until", "tomorrow"], 64, "--until 'tomorrow'"),
    (#"{"campaigns": []}"#, ["--timezone", "Mars/Olympus"], 64, "--timezone 'Mars/Olympus'"),
  ])
  func badInputs(campaigns: String, extra: [String], status: Int32, message: String) throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/campaigns.json"
    try campaigns.write(toFile: path, atomically: true, encoding: .utf8)
    let result = try runFlowrun(["campaign", path] + extra)
    #expect(result.status == status, "\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  /// Two campaigns shown on `$flow_shown` replace each other forever: the event budget stops
  /// them, the run says so and exits 1.
  @Test func campaignsTriggeringEachOtherStop() throws {
    let directory = try TemporaryDirectory()
    let payload = directory.path + "/loop.json"
    try #"""
    {"campaigns": [
      {"id": "a", "flowId": "fa", "trigger": {"type": "event", "config": {"eventName": "$flow_shown"}}},
      {"id": "b", "flowId": "fb", "trigger": {"type": "event", "config": {"eventName": "$flow_shown"}}},
      {"id": "c", "flowId": "fc", "trigger": {"type": "event", "config": {"eventName": "go"}}}
    ]}
    """#.write(toFile: payload, atomically: true, encoding: .utf8)
    let events = directory.path + "/go.ndjson"
    try #"{"event": "go", "timestamp": "2026-01-01T00:00:00Z"}"#.write(
      toFile: events, atomically: true, encoding: .utf8)
    let result = try runFlowrun(["campaign", payload, "--events", events])
    #expect(result.status == 1)
    #expect(result.stdout.contains("error: stopped after 10000 emitted events: campaigns trigger each other in a loop"))
  }

  @Test func timelineOutOfOrderIsLocated() throws {
    let directory = try TemporaryDirectory()
    let events = directory.path + "/events.ndjson"
    try """
    {"event": "a", "timestamp": "2026-03-03T08:00:00Z"}
    {"event": "b", "timestamp": "2026-03-03T07:00:00Z"}
    """.write(toFile: events, atomically: true, encoding: .utf8)
    let result = try runFlowrun(["campaign", "sample-flows/nuxie/campaigns.json", "--events", events])
    #expect(result.status == 1)
    #expect(
      result.stderr.contains("events.ndjson:2:1: error: line 2 is at 2026-03-03T07:00:00.000Z, before line 1"),
      "\(result.stderr)")
  }
}
