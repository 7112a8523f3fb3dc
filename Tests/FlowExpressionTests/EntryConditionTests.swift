import FlowExpression
import Testing

/// `planes/entry-evaluation.json` restated (design §3.14): entry conditions over three-valued
/// facts. `opaque` is a segment; `é` is spelled once as U+00E9 and once as e + U+0301, and the
/// two are different segments.
@Suite struct EntryConditionTests {
  enum Known { case member, notMember, unknown }

  static let composed = "\u{E9}"
  static let decomposed = "e\u{301}"
  static func foregroundIR(_ node: IRNode) -> EntryCondition { .appForegrounded(IREnvelope(node)) }

  static func facts(opaque: Known = .unknown, plan: Fact<Value> = .unknown, accents: Bool = false) -> Facts {
    var facts = Facts(now: 0, propertiesComplete: false, segmentsComplete: false)
    switch opaque {
    case .member: facts.segments["opaque"] = Facts.Membership(isMember: true)
    case .notMember: facts.segments["opaque"] = Facts.Membership(isMember: false)
    case .unknown: break
    }
    switch plan {
    case .known(let value): facts.userProperties["plan"] = value
    case .absent: facts.propertiesComplete = true
    case .unknown: break
    }
    if accents {
      facts.segments[FactKey(composed)] = Facts.Membership(isMember: false)
      facts.segments[FactKey(decomposed)] = Facts.Membership(isMember: true)
    }
    return facts
  }

  static let notPlanSet = foregroundIR(.not(.user(.isSet, key: "plan", value: nil)))

  static let vectors: [(Int, EntryCondition, Bool, String?, Facts, Bool)] = [
    (1, .appForegrounded(nil), true, nil, facts(), true),
    (2, .appForegrounded(nil), true, "cart_changed", facts(), true),
    (3, .appForegrounded(nil), false, nil, facts(), false),
    (4, .event(name: "checkout"), true, nil, facts(), false),
    (5, .event(name: "checkout"), true, "checkout", facts(), true),
    (6, .event(name: "checkout"), true, "cart_changed", facts(), false),
    (7, .segment(id: "opaque", member: true), true, nil, facts(opaque: .member), true),
    (8, .segment(id: "opaque", member: false), true, nil, facts(opaque: .notMember), true),
    (9, .segment(id: "opaque", member: false), true, nil, facts(opaque: .unknown), false),
    (10, .segment(id: "opaque", member: true), true, nil, facts(opaque: .notMember), false),
    (11, notPlanSet, true, nil, facts(plan: .unknown), false),
    (12, notPlanSet, true, nil, facts(plan: .absent), true),
    (13, notPlanSet, true, nil, facts(plan: .known("paid")), false),
    (14, foregroundIR(.not(.unknown("Future.Operator"))), true, nil, facts(), false),
    (
      15, foregroundIR(.not(.segment(.enteredWithin, id: "opaque", within: .duration(60)))), true, nil,
      facts(opaque: .member), false
    ),
    (
      16, foregroundIR(.not(.user(.other("future_op"), key: "plan", value: nil))), true, nil,
      facts(plan: .known("paid")), false
    ),
    (17, foregroundIR(.not(.predicate(.isSet, key: "premium", value: nil))), true, nil, facts(), false),
    (
      18, foregroundIR(.not(.predicateAnd([.predicate(.isSet, key: "premium", value: nil)]))), true, nil, facts(), false
    ),
    (19, foregroundIR(.not(.predicateOr([.predicate(.isSet, key: "premium", value: nil)]))), true, nil, facts(), false),
    (20, .segment(id: composed, member: true), true, nil, facts(accents: true), false),
    (21, .segment(id: decomposed, member: true), true, nil, facts(accents: true), true),
  ]

  @Test(arguments: vectors)
  func vector(number: Int, condition: EntryCondition, foreground: Bool, event: String?, facts: Facts, expected: Bool) {
    var facts = facts
    facts.event = event.map { HistoryEvent(name: $0, time: 0) }
    #expect(condition.truth(in: facts, foreground: foreground).holds == expected, "vector \(number)")
  }
}
