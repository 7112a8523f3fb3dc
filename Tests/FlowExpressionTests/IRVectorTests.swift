import FlowExpression
import OrderedCollections
import Testing

/// Nuxie's public IR vectors (design §3.2, §3.15; §3.1's are in FlowFormatTests'
/// IRDecodingTests, read from JSON), restated: each row's expected truth is the fixture's.
@Suite struct IRVectorTests {
  static func at(_ iso: String) -> Int64 { CivilTime.instant(iso8601: iso)!.milliseconds }

  @Test func engineMinAboveOneIsNotEvaluated() {
    #expect(!IREnvelope(.bool(true), engineMin: 99).isSupported)
    #expect(IREnvelope(.bool(true), engineMin: 99).truth(in: Facts(now: 0)) == .false)
    #expect(IREnvelope(.bool(true), engineMin: 99).trace(in: Facts(now: 0)).summary.contains("engine_min 99"))
    #expect(IREnvelope(.bool(true), engineMin: 1).isSupported)
    #expect(IREnvelope(.bool(true), engineMin: 1).truth(in: Facts(now: 0)) == .true)
  }

  /// `fixtures/ir/response-field-conformance.json`.
  static let responseVectors: [(Int, IRNode, Truth)] = [
    (1, .compare(.equal, .responseField("reason"), .string("price")), .true),
    (2, .compare(.greater, .responseField("score"), .number(2)), .true),
    (3, .compare(.notEqual, .responseField("reason"), .string("fit")), .true),
    (4, .compare(.in, .responseField("reason"), .list([.string("price"), .string("fit")])), .true),
    (5, .responseField("qualified"), .true),
    (6, .responseField("missing"), .false),
  ]

  @Test(arguments: responseVectors)
  func responseVector(number: Int, node: IRNode, expected: Truth) {
    let facts = Facts(now: 0, responses: ["reason": "price", "score": 3, "qualified": true])
    #expect(node.truth(in: facts) == expected, "vector \(number): \(node)")
  }

  /// `planes/occurrence-evaluation.json`: purchases at 1000 ms and 3000 ms, history covered
  /// from 1000 ms, now 4000 ms, in the foreground.
  static func occurrenceFacts(coverage: Int64? = 1000, firstAt: Int64 = 1000) -> Facts {
    Facts(
      now: 4000,
      userProperties: ["joined": "1970-01-01T00:00:01.5Z"],
      history: [
        "purchase": [
          HistoryEvent(name: "purchase", time: firstAt, properties: ["price": 2, "premium": true]),
          HistoryEvent(name: "purchase", time: 3000, properties: ["price": "3", "premium": false]),
        ],
        "other": [HistoryEvent(name: "other", time: 3000)],
      ],
      historyCoverageStart: coverage)
  }

  static func count(
    _ name: String, since: Double? = 1, until: IRNode? = nil, within: Double? = nil, where predicate: IRNode? = nil
  )
    -> IRNode
  {
    .events(
      EventsQuery(
        .count, name: name, since: since.map(IRNode.timestamp), until: until, within: within.map(IRNode.duration),
        predicate: predicate))
  }

  static func aggregate(_ function: String, _ property: String = "price") -> IRNode {
    .events(EventsQuery(.aggregate(function, property: property), name: "purchase", since: .timestamp(1)))
  }

  static let lifetimeCount = IRNode.events(EventsQuery(.count, name: "purchase"))

  static let occurrenceVectors: [(Int, IRNode, Int64?, Int64, Truth)] = [
    (1, .compare(.greaterOrEqual, count("purchase"), .number(2)), 1000, 1000, .true),
    (2, .compare(.greaterOrEqual, count("purchase"), .number(3)), 1000, 1000, .false),
    (3, .compare(.equal, count("purchase", until: .timestamp(1)), .number(1)), 1000, 1000, .true),
    (4, .compare(.equal, count("purchase", within: 2), .number(1)), 1000, 1000, .true),
    (
      5, .compare(.equal, .events(EventsQuery(.count, name: "purchase", since: .timeAgo(.duration(2)))), .number(1)),
      1000, 1000, .true
    ),
    (6, .compare(.equal, count("missing"), .number(0)), 1000, 1000, .true),
    (7, .compare(.equal, count("missing"), .number(0)), 1001, 1000, .unknown),
    (8, .not(.events(EventsQuery(.exists, name: "missing", since: .timestamp(1)))), 1001, 1000, .unknown),
    (9, .not(.compare(.greater, .events(EventsQuery(.count, name: "missing")), .number(0))), 1000, 1000, .unknown),
    (
      10,
      .events(
        EventsQuery(
          .exists, name: "purchase", since: .timestamp(1),
          predicate: .predicate(.equal, key: "premium", value: .bool(true)))),
      1000, 1000, .true
    ),
    (
      11,
      .compare(
        .equal, count("purchase", where: .predicate(.greaterOrEqual, key: "price", value: .number(3))), .number(1)),
      1000, 1000, .true
    ),
    (
      12,
      .compare(
        .equal,
        count(
          "purchase",
          where: .predicateAnd([
            .predicate(.greaterOrEqual, key: "price", value: .number(2)),
            .predicate(.equal, key: "premium", value: .bool(false)),
          ])), .number(1)), 1000, 1000, .true
    ),
    (
      13,
      .not(
        .events(
          EventsQuery(
            .exists, name: "purchase", since: .timestamp(1),
            predicate: .predicate(.other("future_op"), key: "price", value: .number(3))))), 1000, 1000, .unknown
    ),
    (14, .compare(.equal, aggregate("sum"), .number(5)), 1000, 1000, .true),
    (15, .compare(.equal, aggregate("avg"), .number(2.5)), 1000, 1000, .true),
    (16, .compare(.equal, aggregate("min"), .number(2)), 1000, 1000, .true),
    (17, .compare(.equal, aggregate("max"), .number(3)), 1000, 1000, .true),
    (18, .compare(.equal, aggregate("unique"), .number(2)), 1000, 1000, .true),
    (19, .compare(.equal, aggregate("sum", "missing"), .number(0)), 1000, 1000, .true),
    (20, count("purchase"), 1000, 1000, .true),
    (21, .number(2), 1000, 1000, .true),
    (22, .compare(.equal, .string("3"), .number(3)), 1000, 1000, .true),
    (23, .not(.compare(.equal, .list([]), .list([]))), 1000, 1000, .true),
    (24, .not(.events(EventsQuery(.firstTime, name: "purchase"))), 1000, 1000, .unknown),
    (
      25, .compare(.notEqual, .list([.events(EventsQuery(.lastAge, name: "purchase"))]), .list([])), 1000, 1000,
      .unknown
    ),
    (26, .compare(.greaterOrEqual, count("purchase", until: lifetimeCount), .number(2)), 1000, 1000, .unknown),
    (
      27, .compare(.equal, count("missing", where: .predicate(.equal, key: "price", value: lifetimeCount)), .number(0)),
      1000, 1000, .unknown
    ),
    (
      28,
      .not(
        .events(
          EventsQuery(
            .exists, name: "purchase", since: .timestamp(1), predicate: .predicate(.has, key: "premium", value: nil)))),
      1000, 1000, .unknown
    ),
    (29, .compare(.equal, count("purchase", since: 1.0011), .number(1)), 1000, 1001, .true),
    (30, .user(.isDateAfter, key: "joined", value: .timestamp(1.1)), 1000, 1000, .true),
  ]

  /// Each row's condition sits behind `app_foregrounded` (in the foreground): a site acts only on
  /// true, so an unknown row fails closed exactly as the fixture's `false`.
  @Test(arguments: occurrenceVectors)
  func occurrenceVector(number: Int, node: IRNode, coverage: Int64?, firstAt: Int64, expected: Truth) {
    let facts = Self.occurrenceFacts(coverage: coverage, firstAt: firstAt)
    #expect(node.truth(in: facts) == expected, "vector \(number): \(node)")
    let entry = EntryCondition.appForegrounded(IREnvelope(node))
    #expect(entry.truth(in: facts, foreground: true).holds == (expected == .true), "vector \(number)")
  }

  /// Vectors 30-32: ISO-8601 properties with any number of fractional digits.
  @Test(arguments: ["1970-01-01T00:00:01.5Z", "1970-01-01T00:00:01.50Z", "1970-01-01T00:00:01.5001Z"])
  func dateOperatorsReadFractionalSeconds(joined: String) {
    var facts = Self.occurrenceFacts()
    facts.userProperties["joined"] = .string(joined)
    #expect(IRNode.user(.isDateAfter, key: "joined", value: .timestamp(1.1)).truth(in: facts) == .true)
    #expect(IRNode.user(.isDateBefore, key: "joined", value: .timestamp(1.1)).truth(in: facts) == .false)
  }
}
