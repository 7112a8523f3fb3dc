import FlowExpression
import OrderedCollections
import Testing

/// The IR nodes the public vectors do not reach (features, ordered steps, active periods,
/// stopped and restarted, ages, time windows, regex and date operators), each with the value
/// docs/dialects/nuxie.md gives it. Now is 2026-01-15T12:00:00Z, a Thursday.
@Suite struct IRNodeTests {
  static func at(_ iso: String) -> Int64 { CivilTime.instant(iso8601: iso)!.milliseconds }
  static func event(_ name: String, _ iso: String, _ properties: [(String, Value)] = []) -> HistoryEvent {
    HistoryEvent(name: name, time: at(iso), properties: .init(uniqueKeysWithValues: properties))
  }

  static let facts = Facts(
    now: at("2026-01-15T12:00:00Z"),
    userProperties: ["email": "Ada@Example.com", "tags": ["beta", "vip"], "joined": "2026-01-15T08:00:00Z"],
    history: [
      "open": [
        event("open", "2026-01-01T10:00:00Z"), event("open", "2026-01-02T10:00:00Z"),
        event("open", "2026-01-14T10:00:00Z"), event("open", "2026-01-15T11:00:00Z"),
      ],
      "view": [event("view", "2026-01-14T10:05:00Z", [("screen", "paywall")])],
      "buy": [event("buy", "2026-01-14T10:20:00Z", [("sku", "pro")])],
    ],
    features: [
      "ai": Facts.Feature(type: "metered", balance: 3), "export": Facts.Feature(),
      "seats": Facts.Feature(type: "metered", balance: 0, unlimited: true),
    ])

  static func events(_ kind: EventsQuery.Kind, _ name: String, predicate: IRNode? = nil) -> IRNode {
    .events(EventsQuery(kind, name: name, predicate: predicate))
  }

  static let rows: [(String, IRNode, Truth)] = [
    ("feature with credits", .feature(.has, id: "ai", value: nil), .true),
    ("boolean feature", .feature(.has, id: "export", value: nil), .true),
    ("missing feature", .feature(.notHas, id: "sso", value: nil), .true),
    ("unlimited", .feature(.isUnlimited, id: "seats", value: nil), .true),
    ("credits >= 3", .feature(.credits(.greaterOrEqual), id: "ai", value: .number(3)), .true),
    ("credits > 3", .feature(.credits(.greater), id: "ai", value: .number(3)), .false),
    (
      "open, view, buy in order within 30 minutes",
      events(
        .inOrder(
          steps: [.init(name: "view"), .init(name: "buy")], overallWithin: .duration(1800), perStepWithin: nil), ""),
      .true
    ),
    (
      "buy before view is not in order",
      events(.inOrder(steps: [.init(name: "buy"), .init(name: "view")], overallWithin: nil, perStepWithin: nil), ""),
      .false
    ),
    (
      "per-step gap of 10 minutes is too short",
      events(
        .inOrder(steps: [.init(name: "view"), .init(name: "buy")], overallWithin: nil, perStepWithin: .duration(600)),
        ""),
      .false
    ),
    ("opened on 2 of the last 3 days", events(.activePeriods(period: "day", total: 3, minimum: 2), "open"), .true),
    ("opened on 3 of the last 3 days", events(.activePeriods(period: "day", total: 3, minimum: 3), "open"), .false),
    ("no minimum: never", events(.activePeriods(period: "day", total: 3, minimum: 0), "open"), .false),
    ("stopped buying for a day", events(.stopped(inactiveFor: .duration(86_400)), "buy"), .true),
    ("stopped opening for a day", events(.stopped(inactiveFor: .duration(86_400)), "open"), .false),
    (
      "back after 10 days away, within two days (the return itself is 26 hours ago)",
      events(.restarted(inactiveFor: .duration(864_000), within: .duration(172_800)), "open"), .true
    ),
    (
      "the return is not within a day",
      events(.restarted(inactiveFor: .duration(864_000), within: .duration(86_400)), "open"), .false
    ),
    (
      "no gap of 20 days", events(.restarted(inactiveFor: .duration(1_728_000), within: .duration(86_400)), "open"),
      .false
    ),
    ("last open an hour ago", .compare(.equal, events(.lastAge, "open"), .duration(3600)), .true),
    (
      "first open", .compare(.equal, events(.firstTime, "open"), .timestamp(Double(at("2026-01-01T10:00:00Z")) / 1000)),
      .true
    ),
    (
      "view where screen is paywall",
      events(.exists, "view", predicate: .predicate(.equal, key: "screen", value: .string("paywall"))), .true
    ),
    ("a week is 604800 s", .compare(.equal, .timeWindow(value: 1, interval: "week"), .duration(604_800)), .true),
    ("unknown interval", .timeWindow(value: 1, interval: "fortnight"), .unknown),
    ("contains ignores case", .user(.contains, key: "email", value: .string("example")), .true),
    ("contains in a list", .user(.contains, key: "tags", value: .string("vip")), .true),
    ("regex searches", .user(.regex, key: "email", value: .string("@example\\.com$")), .false),
    ("regex case", .user(.regex, key: "email", value: .string("@Example")), .true),
    ("invalid regex", .user(.regex, key: "email", value: .string("(")), .false),
    ("joined today (Time.Now)", .user(.isDateExact, key: "joined", value: .timeNow), .true),
    (
      "joined today (a Timestamp)",
      .user(.isDateExact, key: "joined", value: .timestamp(Double(at("2026-01-15T23:00:00Z")) / 1000)), .true
    ),
    ("not_in without a list", .user(.notIn, key: "email", value: .string("x")), .true),
    ("in without a list", .user(.in, key: "email", value: .string("x")), .false),
    ("an absent property is not set", .user(.isNotSet, key: "phone", value: nil), .true),
    ("journey id without a journey", .compare(.equal, .journeyID, .string("j1")), .false),
  ]

  @Test(arguments: rows)
  func node(name: String, node: IRNode, expected: Truth) {
    #expect(node.truth(in: Self.facts) == expected, "\(name): \(node)")
  }
}
