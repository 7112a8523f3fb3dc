import FlowEngine
import FlowExpression
import FlowFormat
import Testing

@Suite struct FieldTests {
  func formSession() -> Session {
    let s = screen(
      "form",
      [
        input("name"), input("age", kind: .number), checklist("goal", goals), checklist("goals", goals, multiple: true),
        slider("hours", min: 0, max: 10, step: 0.5, defaultValue: 2), toggle("news", defaultValue: true),
        input("secret", when: "name == 'Bond'"),
      ])
    return begin(flow("f", [s, legacy("done")]))
  }

  static let acceptedCases: [(String, Value, Value?)] = [
    ("name", "Alex", "Alex"),
    ("name", 42, "42"),
    ("age", "42", 42),
    ("age", 7.5, 7.5),
    ("goal", "Build muscle", "muscle"),
    ("goal", "build", "muscle"),
    ("goal", "lose", "lose"),
    ("goals", ["lose", "Stay fit", "lose"], ["lose", "fit"]),
    ("goals", "fit", ["fit"]),
    ("hours", 3.5, 3.5),
    ("hours", "4", 4),
    ("news", false, false),
    ("news", "yes", true),
    ("name", .null, nil),
  ]

  @Test(arguments: acceptedCases)
  func accepted(field: String, value: Value, stored: Value?) {
    var session = formSession()
    let outputs = session.send(.set(field: field, value: value))
    #expect(outputs.isEmpty)
    #expect(session.data(field) == stored)
  }

  static let rejectedCases: [(String, Value, String)] = [
    ("age", "abc", "'abc' is not a number (field 'age')"),
    ("age", "1e999", "'1e999' is not a number (field 'age')"),
    ("age", .number(.infinity), "'Infinity' is not a number (field 'age')"),
    ("hours", "1e999", "Infinity is out of range for 'hours' (0 to 10)"),
    (
      "goal", "swim",
      "no option 'swim' in 'goal' (options by id or label: lose (Lose weight), build (Build muscle), fit (Stay fit))"
    ),
    ("goal", ["lose", "fit"], "'goal' takes one option, got 2"),
    ("hours", 11, "11 is out of range for 'hours' (0 to 10)"),
    ("hours", 1.25, "1.25 is not a step of 0.5 from 0 for 'hours'"),
    ("hours", "many", "'many' is not a number (slider 'hours')"),
    ("news", "maybe", "toggle 'news' takes y or n (yes/no, true/false, on/off, 1/0), not 'maybe'"),
    ("nope", "x", "no field 'nope' on screen 'form' (fields: name, age, goal, goals, hours, news)"),
    ("secret", "x", "field 'secret' is hidden on screen 'form'"),
    ("name", ["a"], "field 'name' takes text, not a list"),
  ]

  @Test(arguments: rejectedCases)
  func rejected(field: String, value: Value, message: String) {
    var session = formSession()
    let before = session
    #expect(session.send(.set(field: field, value: value)).rejection == message)
    #expect(session == before)
  }

  @Test func defaultsAreViewableAndCommittedWhenLeavingForward() {
    var session = formSession()
    let blocks = session.visibleBlocks
    #expect(blocks.count == 6)
    #expect(session.value(of: blocks[4]) == 2)
    #expect(session.value(of: blocks[5]) == true)
    #expect(session.data("hours") == nil)
    var back = session
    _ = back.send(.dismiss)
    #expect(back.data("hours") == nil)
    _ = session.send(.next)
    #expect(session.data("hours") == 2)
    #expect(session.data("news") == true)
  }

  @Test func pickAutoAdvancesSingleSelect() {
    let s = screen("q", [checklist("goal", goals)])
    var session = begin(flow("f", [s, legacy("n")]))
    let outputs = session.send(.pick(field: "goal", items: ["Lose weight"]))
    #expect(outputs.eventTypes == ["screen_completed", "screen_viewed", "screen_first_viewed"])
    #expect(session.data("goal") == "lose")
    #expect(session.currentScreen.id == "n")
  }

  @Test func pickWithoutAutoAdvanceOrMultiStays() {
    for block in [checklist("goal", goals, autoAdvance: false), checklist("goal", goals, multiple: true)] {
      var session = begin(flow("f", [screen("q", [block]), legacy("n")]))
      #expect(session.send(.pick(field: "goal", items: ["fit"])).isEmpty)
      #expect(session.currentScreen.id == "q")
    }
    var session = begin(flow("f", [screen("q", [input("x")]), legacy("n")]))
    #expect(session.send(.pick(field: "x", items: ["a"])).rejection == "field 'x' is not a checklist; use set")
  }

  @Test func setVariableIsDebugAndAnyName() {
    var session = formSession()
    #expect(session.send(.setVariable(name: "anything", value: 3)).isEmpty)
    #expect(session.data("anything") == 3)
    #expect(session.lastDecision?.isDebug == true)
  }

  @Test func templatesSeeDataAndContext() {
    let config = SessionConfig(userID: "u_42", traits: ["plan": "pro"], now: jan2026)
    var session = begin(document(flow("f", [screen("s", [input("name")])])), config).0
    _ = session.send(.set(field: "name", value: "Alex"))
    #expect(
      session.render(tpl("Hi {name} on {$screen} as {$user.id} ({$user.plan}, {$platform}, {$locale})"))
        == "Hi Alex on s as u_42 (pro, ios, en_US)")
    #expect(session.render(tpl("{missing} stays")) == "{missing} stays")
    #expect(session.render(tpl("{hours_per_day * 365}")) == "{hours_per_day * 365}")
    _ = session.send(.setVariable(name: "hours_per_day", value: 2))
    #expect(session.render(tpl("{hours_per_day * 365}")) == "730")
  }
}
