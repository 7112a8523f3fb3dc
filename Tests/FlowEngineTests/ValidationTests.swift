import FlowEngine
import FlowExpression
import FlowFormat
import Testing

@Suite struct ValidationTests {
  static let cases: [(Block, Value?, String?)] = [
    (input("f", required: true), nil, "This field is required"),
    (input("f", required: true), "   ", "This field is required"),
    (input("f", required: true), "x", nil),
    (input("f"), nil, nil),
    (input("f", kind: .email), "not-an-email", "Enter a valid email address"),
    (input("f", kind: .email), "a@b", "Enter a valid email address"),
    (input("f", kind: .email), "alex@example.com", nil),
    (input("f", kind: .phone), "12", "Enter a valid phone number"),
    (input("f", kind: .phone), "+1 (555) 123-4567", nil),
    (input("f", kind: .phone), "555-abc", "Enter a valid phone number"),
    (input("f", kind: .url), "not a url", "Enter a valid URL"),
    (input("f", kind: .url), "https://example.com/x?y=1", nil),
    (input("f", kind: .url), "example.com", nil),
    (input("f", kind: .url), "ftp://example.com", "Enter a valid URL"),
    (input("f", kind: .date), "2026-02-30", "Enter a valid date"),
    (input("f", kind: .date), "2024-02-29", nil),
    (input("f", kind: .date), "02/01/2026", "Enter a valid date"),
    (input("f", pattern: "[A-Z]{3}"), "ABCD", "Invalid format"),
    (input("f", pattern: "[A-Z]{3}", patternMessage: "Three capitals"), "ab", "Three capitals"),
    (input("f", pattern: "[A-Z]{3}"), "ABC", nil),
    // An answer the pattern cannot be checked against within its limits (catastrophic backtracking).
    (
      input("f", pattern: "^(a+)+$", patternMessage: "Only a"), .string(String(repeating: "a", count: 38) + "!"),
      "pattern too complex to check"
    ),
    (input("f", pattern: "^(a+)+$"), .string(String(repeating: "a", count: 38)), nil),
    (input("f", minLength: 3), "ab", "Must be at least 3 characters"),
    (input("f", maxLength: 3), "abcd", "Must be at most 3 characters"),
    (input("f", kind: .number, min: 18), 17, "Must be at least 18"),
    (input("f", kind: .number, max: 99.5), 100, "Must be at most 99.5"),
    (input("f", kind: .number, min: 18, max: 99), 30, nil),
    (input("f", defaultValue: "preset"), nil, nil),
    (input("f", required: true, defaultValue: "preset"), nil, nil),
    (checklist("f", goals, required: true), nil, "This field is required"),
    (checklist("f", goals, multiple: true, required: true), [], "This field is required"),
    (checklist("f", goals, multiple: true, min: 2), ["lose"], "Select at least 2"),
    (checklist("f", goals, multiple: true, max: 1), ["lose", "fit"], "Select at most 1"),
    (checklist("f", goals, multiple: true, min: 1, max: 2), ["lose", "fit"], nil),
  ]

  @Test(arguments: cases.indices)
  func rule(index: Int) {
    let (block, value, message) = Self.cases[index]
    var session = begin(flow("f", [screen("s", [block, button("go", "Go")]), legacy("next")]))
    if let value {
      let outputs = session.send(.set(field: "f", value: value))
      #expect(outputs.rejection == nil, "case \(index)")
    }
    let outputs = session.send(.next)
    if let message {
      #expect(outputs.eventTypes == ["validation_failed"], "case \(index)")
      #expect(outputs.contains(.validationFailed([ValidationFailure(field: "f", message: message)])), "case \(index)")
      #expect(session.validationErrors.map(\.value) == [message], "case \(index)")
      #expect(outputs.events.first?.property("fields") == [["field": "f", "message": .string(message)]])
      #expect(session.currentScreen.id == "s")
    } else {
      #expect(session.currentScreen.id == "next", "case \(index)")
    }
  }

  @Test func allFailuresAtOnceOnlyVisibleAndEditClears() {
    let s = screen(
      "s",
      [
        input("a", required: true), input("b", required: true, visible: false),
        input("c", required: true, when: "a == 'show'"), input("d", kind: .email, required: true),
      ])
    var session = begin(flow("f", [s, legacy("n")]))
    _ = session.send(.next)
    #expect(session.validationFailures.map(\.field) == ["a", "d"])
    #expect(session.validationErrors.map(\.key) == ["a", "d"])
    _ = session.send(.set(field: "a", value: "show"))
    #expect(session.validationErrors.map(\.key) == ["d"])
    _ = session.send(.next)
    #expect(session.validationErrors.map(\.key) == ["c", "d"])
  }

  @Test func backSkipDismissDoNotValidate() {
    let s = screen("s", [input("a", required: true)], skipText: "Skip")
    var session = begin(flow("f", [legacy("first"), s, legacy("n")]))
    _ = session.send(.next)
    var back = session
    #expect(back.send(.back).eventTypes.contains("validation_failed") == false)
    var skip = session
    #expect(skip.send(.skip).eventTypes.contains("validation_failed") == false)
    var dismiss = session
    #expect(dismiss.send(.dismiss).eventTypes == ["screen_dropped_off", "onboarding_dismissed"])
  }
}
