import FlowExpression
import FlowFormat
import Testing

/// Campaign payloads, profiles and timelines: what loads, and every problem with its id and
/// line:column.
@Suite struct CampaignLoaderTests {
  static func campaigns(_ members: String, segments: String = "[]", flows: String = "") -> CampaignLoad<CampaignSet> {
    let text =
      "{\"campaigns\": [\n" + members + "\n], \"segments\": " + segments
      + (flows.isEmpty ? "" : ", \"flows\": " + flows)
      + "}"
    return CampaignLoader.campaigns(bytes: Array(text.utf8), file: "c.json")
  }

  static let event = #""trigger": {"type": "event", "config": {"eventName": "go"}}"#

  /// Each bad campaign (on line 2), the diagnostic it must give and the text it points at.
  static let badCampaigns: [(String, String, String, String)] = [
    (
      "zero reentry window",
      #"{"id": "a", "flowId": "f", "#
        + event + #", "reentry": {"type": "once_per_window", "window": {"amount": 0, "unit": "day"}}}"#,
      "campaign.zero-reentry-window", #"0, "unit""#
    ),
    (
      "negative window",
      #"{"id": "a", "flowId": "f", "# + event + #", "reentry": {"type": "once_per_window", "windowSeconds": -5}}"#,
      "campaign.negative-duration", "-5"
    ),
    (
      "unknown window unit",
      #"{"id": "a", "flowId": "f", "# + event
        + #", "reentry": {"type": "once_per_window", "window": {"amount": 1, "unit": "fortnight"}}}"#,
      "campaign.bad-reentry", #""fortnight""#
    ),
    (
      "malformed time 9:30",
      #"{"id": "a", "flowId": "f", "# + event + #", "timeWindow": {"start": "9:30", "end": "17:00"}}"#,
      "campaign.malformed-time", #""9:30""#
    ),
    (
      "malformed time 24:00",
      #"{"id": "a", "flowId": "f", "# + event + #", "timeWindow": {"start": "08:00", "end": "24:00"}}"#,
      "campaign.malformed-time", #""24:00""#
    ),
    (
      "min above max",
      #"{"id": "a", "flowId": "f", "trigger": {"type": "event", "config": {"eventName": "go", "condition": {"type": "Events.ActivePeriods", "name": "open", "period": "day", "totalPeriods": 3, "minPeriods": 5}}}}"#,
      "campaign.min-above-max", "5}"
    ),
    (
      "negative time limit", #"{"id": "a", "flowId": "f", "# + event + #", "timeLimitSeconds": -1}"#,
      "campaign.negative-duration", "-1"
    ),
    (
      "a window of 1e300 seconds",
      #"{"id": "a", "flowId": "f", "# + event + #", "goal": {"kind": "revenue", "window": 1e300}}"#,
      "load.out-of-range", "1e300"
    ),
    (
      "unknown trigger type", #"{"id": "a", "flowId": "f", "trigger": {"type": "evnt", "config": {}}}"#,
      "campaign.unknown-trigger", #""evnt""#
    ),
    (
      "unknown IR node",
      #"{"id": "a", "flowId": "f", "trigger": {"type": "segment", "config": {"condition": {"type": "Quantum"}}}}"#,
      "campaign.unknown-condition", #""Quantum""#
    ),
    (
      "engine_min 99",
      #"{"id": "a", "flowId": "f", "trigger": {"type": "segment", "config": {"condition": {"ir_version": 1, "engine_min": "99", "expr": {"type": "Bool", "value": true}}}}}"#,
      "campaign.engine-min", #""99""#
    ),
    (
      "unknown goal kind", #"{"id": "a", "flowId": "f", "# + event + #", "goal": {"kind": "revenue"}}"#,
      "campaign.bad-goal", #""revenue""#
    ),
  ]

  @Test(arguments: badCampaigns)
  func badCampaign(name: String, member: String, id: String, marker: String) throws {
    let load = Self.campaigns(member)
    let offset = try #require(member.firstRange(of: marker)).lowerBound
    let column = member.distance(from: member.startIndex, to: offset) + 1
    let found = load.diagnostics.first { $0.id == id }
    #expect(found != nil, "\(name): \(load.diagnostics.map { "\($0.id) \($0.message)" })")
    #expect(found?.location?.line == 2, "\(name)")
    #expect(found?.location?.column == column, "\(name): \(found?.location?.description ?? "-")")
    #expect(found?.file == "c.json")
  }

  @Test func unknownFlowIsReportedWithASuggestion() {
    let load = Self.campaigns(
      #"{"id": "a", "flowId": "paywal", "# + Self.event + "}", flows: #"[{"id": "paywall", "screens": []}]"#)
    let found = load.diagnostics.first { $0.id == "campaign.unknown-flow" }
    #expect(found?.notes.map(\.message) == ["did you mean 'paywall'?"])
  }

  @Test func duplicateCampaignAndUnknownSegment() {
    let member =
      #"{"id": "a", "flowId": "f", "trigger": {"type": "segment", "config": {"condition": {"type": "Segment", "op": "in", "id": "vips"}}}}"#
    let load = Self.campaigns(
      member + ",\n" + member, segments: #"[{"id": "vip", "condition": {"type": "Bool", "value": true}}]"#)
    #expect(
      load.diagnostics.map(\.id).sorted() == [
        "campaign.duplicate-id", "campaign.unknown-segment", "campaign.unknown-segment",
      ])
  }

  @Test func notACampaignsPayload() {
    let load = CampaignLoader.campaigns(bytes: Array(#"{"screens": []}"#.utf8), file: "f.json")
    #expect(load.value == nil)
    #expect(load.diagnostics.map(\.id) == ["campaign.not-campaigns"])
  }

  @Test func aGoodCampaignLoadsEveryKey() throws {
    let load = Self.campaigns(
      #"{"id": "a", "name": "A", "flowId": "f", "# + Self.event
        + #", "reentry": {"type": "once_per_window", "window": {"amount": 2, "unit": "hour"}}, "goal": {"kind": "segment_enter", "segmentId": "s", "window": 0}, "exitPolicy": {"mode": "on_goal_or_stop"}, "conversionAnchor": "journey_start", "holdoutExperiment": "x", "timeLimitSeconds": 60, "timeWindow": {"start": "22:00", "end": "06:00", "daysOfWeek": [1, 2]}}"#
    )
    #expect(load.diagnostics.isEmpty, "\(load.diagnostics.map(\.message))")
    let campaign = try #require(load.value?.campaigns.first)
    #expect(campaign.reentry == .oncePerWindow(seconds: 7200))
    #expect(campaign.goal == Campaign.Goal(kind: .segmentEnter("s"), windowSeconds: 0))
    #expect(campaign.exitPolicy == .onGoalOrStop)
    #expect(campaign.conversionAnchor == .journeyStart)
    #expect(campaign.holdoutExperiment == "x")
    #expect(campaign.timeLimitSeconds == 60)
    #expect(campaign.timeWindow == TimeWindow(start: 22 * 60, end: 6 * 60, days: [1, 2]))
  }

  @Test func timelineLinesAndTheirProblems() throws {
    let text = """
      {"event": "a", "timestamp": "2026-01-01T10:00:00Z", "properties": {"x": 1}}

      {"dismiss": "user", "timestamp": "2026-01-01T10:00:01Z"}
      {"event": "b", "timestamp": "2026-01-01T09:00:00Z"}
      {"event": "c"}
      [1]
      {"profile": {"plan": "pro"}, "timestamp": "2026-01-01T11:00:00Z"}
      {"memberships": null, "timestamp": "2026-01-01T11:00:00Z"}
      {"memberships": ["vip", {"segmentId": "new"}], "timestamp": "2026-01-01T11:00:00Z"}
      """
    let load = CampaignLoader.timeline(bytes: Array(text.utf8), file: "t.ndjson")
    #expect(load.value?.map(\.line) == [1, 3, 7, 9])
    #expect(load.value?.last?.kind == .memberships(["vip", "new"], at: 1_767_265_200_000))
    #expect(
      load.diagnostics.map { "\($0.id) \($0.location?.line ?? 0)" } == [
        "campaign.timeline-order 4", "campaign.bad-timeline 5", "campaign.bad-timeline 6",
      ])
  }

  @Test func profileKeysLoad() throws {
    let text = #"""
      {"distinctId": "u1", "userProperties": {"plan": "trial"}, "factsComplete": false,
       "experiments": {"e": {"experimentKey": "e", "variantKey": "b", "status": "running", "isHoldout": true}},
       "segments": {"memberships": [{"segmentId": "vip", "enteredAt": "2026-01-01T00:00:00Z"}]},
       "features": [{"id": "pro", "type": "metered", "balance": 3}],
       "completions": [{"campaignId": "c", "completedAt": "2026-01-02T00:00:00Z", "exitReason": "dismissed"}],
       "historyCoverageStart": "2025-12-01T00:00:00Z"}
      """#
    let load = CampaignLoader.profile(bytes: Array(text.utf8), file: "p.json")
    #expect(load.diagnostics.isEmpty)
    let profile = try #require(load.value)
    #expect(profile.distinctID == "u1")
    #expect(!profile.factsComplete)
    #expect(profile.experiments["e"]?.isHoldout == true)
    #expect(profile.memberships?[FactKey("vip")]?.isMember == true)
    #expect(profile.features["pro"]?.balance == 3)
    #expect(profile.completions.map(\.exitReason) == ["dismissed"])
    #expect(profile.historyCoverageStart == CivilTime.instant(iso8601: "2025-12-01T00:00:00Z")?.milliseconds)
  }
}
