import FlowExpression
import FlowFormat
import OrderedCollections
import Testing

/// Nuxie's IR vectors (`fixtures/ir/eval-vectors.json`, design §3.1) written as the JSON the SDK
/// reads, loaded as segment conditions of a campaigns payload and evaluated: the decoder and the
/// evaluator together give each vector's expected truth.
@Suite struct IRDecodingTests {
  static func at(_ iso: String) -> Int64 { CivilTime.instant(iso8601: iso)!.milliseconds }

  static let facts = Facts(
    now: at("2026-01-15T12:00:00Z"), userProperties: ["plan": "premium", "age": 31],
    event: HistoryEvent(
      name: "paywall_trigger", time: at("2026-01-15T12:00:00Z"), properties: ["source": "onboarding", "step": 3]),
    history: [
      "purchase": [
        HistoryEvent(name: "purchase", time: at("2026-01-10T10:00:00Z"), properties: ["amount": 9.99]),
        HistoryEvent(name: "purchase", time: at("2026-01-14T10:00:00Z"), properties: ["amount": 49.99]),
      ],
      "app_opened": [HistoryEvent(name: "app_opened", time: at("2026-01-15T09:00:00Z"))],
    ],
    segments: ["seg-active": Facts.Membership(isMember: true, enteredAt: at("2026-01-01T00:00:00Z"))])

  static let vectors: [(Int, String, Truth)] = [
    (1, #"{"type": "Bool", "value": true}"#, .true),
    (2, #"{"type": "And", "args": [{"type": "Bool", "value": true}, {"type": "Bool", "value": false}]}"#, .false),
    (3, #"{"type": "Not", "arg": {"type": "Bool", "value": false}}"#, .true),
    (
      4,
      #"{"type": "Compare", "op": ">", "left": {"type": "Number", "value": 5}, "right": {"type": "Number", "value": 3}}"#,
      .true
    ),
    (5, #"{"type": "User", "op": "eq", "key": "plan", "value": {"type": "String", "value": "premium"}}"#, .true),
    (6, #"{"type": "User", "op": "eq", "key": "plan", "value": {"type": "String", "value": "free"}}"#, .false),
    (7, #"{"type": "Event", "op": "eq", "key": "source", "value": {"type": "String", "value": "onboarding"}}"#, .true),
    (8, #"{"type": "Segment", "op": "in", "id": "seg-active"}"#, .true),
    (9, #"{"type": "Segment", "op": "in", "id": "seg-churned"}"#, .false),
    (
      10,
      #"{"type": "Compare", "op": ">=", "left": {"type": "Events.Count", "name": "purchase"}, "right": {"type": "Number", "value": 2}}"#,
      .true
    ),
    (11, #"{"type": "Events.Exists", "name": "subscription_cancelled"}"#, .false),
    (12, #"{"type": "Quantum.Entanglement", "qubits": 7}"#, .unknown),
    (13, #"{"type": "Or", "args": [{"type": "Quantum.Entanglement"}, {"type": "Bool", "value": true}]}"#, .true),
    (14, #"{"ir_version": 1, "engine_min": "99", "expr": {"type": "Bool", "value": true}}"#, .false),
    (15, #"{"ir_version": 1, "engine_min": "1", "expr": {"type": "Bool", "value": true}}"#, .true),
  ]

  @Test(arguments: vectors)
  func vector(number: Int, json: String, expected: Truth) throws {
    let text = #"{"campaigns": [], "segments": [{"id": "s", "condition": "# + json + "}]}"
    let load = CampaignLoader.campaigns(bytes: Array(text.utf8), file: "v.json")
    #expect(!load.diagnostics.hasErrors, "vector \(number): \(load.diagnostics.map(\.message))")
    let condition = try #require(load.value?.segments.first?.condition, "vector \(number)")
    #expect(condition.truth(in: Self.facts) == expected, "vector \(number): \(condition.expression)")
    #expect(condition.trace(in: Self.facts).holds == (expected == .true), "vector \(number)")
  }

  /// Nodes of every kind read from JSON print as the trace shows them.
  @Test(arguments: [
    (
      #"{"type": "Events.Aggregate", "agg": "sum", "name": "purchase", "prop": "amount", "within": {"type": "Time.Window", "value": 7, "interval": "day"}}"#,
      "Events.Aggregate(purchase, sum, amount, within Time.Window(7 day))"
    ),
    (
      #"{"type": "Events.InOrder", "steps": [{"name": "a"}, {"name": "b", "where": {"type": "Pred", "op": "gt", "key": "x", "value": {"type": "Number", "value": 1}}}], "overallWithin": {"type": "Duration", "value": 60}}"#,
      "Events.InOrder([a, b where (Pred x gt 1)], overall 60s)"
    ),
    (
      #"{"type": "Feature", "op": "credits_gte", "id": "ai", "value": {"type": "Number", "value": 3}}"#,
      "Feature credits_gte ai 3"
    ),
    (#"{"type": "Time.Ago", "duration": {"type": "Duration", "value": 90}}"#, "Time.Ago(90s)"),
  ])
  func nodeText(json: String, text: String) throws {
    let payload = #"{"campaigns": [], "segments": [{"id": "s", "condition": "# + json + "}]}"
    let load = CampaignLoader.campaigns(bytes: Array(payload.utf8), file: "n.json")
    #expect(load.diagnostics.isEmpty, "\(load.diagnostics.map(\.message))")
    #expect(load.value?.segments.first?.condition.expression.description == text)
  }
}
