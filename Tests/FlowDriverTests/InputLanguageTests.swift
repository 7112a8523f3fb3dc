import FlowDriver
import FlowEngine
import FlowExpression
import FlowFormat
import FlowReplay
import OrderedCollections
import Testing

@Suite struct InputLanguageTests {
  static let accepted: [(String, InputLine)] = [
    ("", .empty),
    ("   ", .empty),
    ("3", .number(3)),
    (" 12 ", .number(12)),
    ("Get Started", .text("Get Started")),
    ("2, 4", .text("2, 4")),
    ("-1", .text("-1")),
    ("::not a command", .text(":not a command")),
    (":back", .command(.back)),
    ("  :skip  ", .command(.skip)),
    (":dismiss", .command(.dismiss)),
    (":set name Alex Smith", .command(.set(field: "name", value: .string("Alex Smith")))),
    (":set hours_daily 4", .command(.set(field: "hours_daily", value: .number(4)))),
    (":set interests [\"cardio\",\"hiit\"]", .command(.set(field: "interests", value: .list(["cardio", "hiit"])))),
    (":ok", .command(.ok(nil))),
    (":ok {\"granted\": true}", .command(.ok(.object(["granted": .bool(true)])))),
    (":ok 42", .command(.ok(.number(42)))),
    (":fail", .command(.fail(nil))),
    (":fail timed out", .command(.fail("timed out"))),
    (":cancel", .command(.cancel)),
    (":data", .command(.data)),
    (":events", .command(.events)),
    (":why", .command(.why)),
    (":trace", .command(.trace)),
    (":wait 3000", .command(.wait(ms: 3000))),
    (":wait 1000000000000", .command(.wait(ms: 1_000_000_000_000))),
    (":goto plan", .command(.goto(screenID: "plan"))),
    (":restart", .command(.restart)),
    (":save out/walk.flow-test.yaml", .command(.save(path: "out/walk.flow-test.yaml"))),
    (":help", .command(.help)),
    (":quit", .command(.quit)),
  ]

  @Test(arguments: accepted)
  func parses(line: String, expected: InputLine) throws {
    #expect(try InputLanguage.parse(line).get() == expected)
  }

  static let rejected: [(String, String)] = [
    (":", "a command name must follow ':'"),
    (":frobnicate", "unknown command ':frobnicate'"),
    (":bakc", "did you mean :back?"),
    (":qu", "did you mean :quit?"),
    (":back now", ":back takes no argument"),
    (":quit please", ":quit takes no argument"),
    (":set", ":set needs a field and a value"),
    (":set name", ":set needs a value after 'name'"),
    (":ok {\"granted\": tru}", ":ok takes JSON"),
    (":ok {", ":ok takes JSON"),
    (":wait", ":wait needs a number of milliseconds"),
    (":wait soon", ":wait takes a whole number of milliseconds, not 'soon'"),
    (":wait -5", ":wait takes a whole number"),
    (":wait 1000000000001", ":wait takes between 0 and 1,000,000,000,000 milliseconds, not 1000000000001"),
    (":wait 9223372036854775807", ":wait takes between 0 and 1,000,000,000,000 milliseconds"),
    (":wait 99999999999999999999999", ":wait takes between 0 and 1,000,000,000,000 milliseconds"),
    (":goto", ":goto needs a screen id"),
    (":goto a b", ":goto takes one screen id"),
    (":save", ":save needs a file name"),
  ]

  @Test(arguments: rejected)
  func rejects(line: String, message: String) {
    switch InputLanguage.parse(line) {
    case .success(let parsed): Issue.record("\(line) parsed as \(parsed)")
    case .failure(let error): #expect(error.message.contains(message), "\(error.message)")
    }
  }

  @Test func helpListsEveryCommand() {
    for word in InputLanguage.commandWords {
      #expect(InputLanguage.helpText.contains(word))
    }
  }
}

@Suite struct RunArgumentsTests {
  static let mocks: [(String, String, ActionResult)] = [
    ("permission.notifications=success", "permission.notifications", .success(nil)),
    ("p=success:{\"granted\":true}", "p", .success(.object(["granted": .bool(true)]))),
    ("p=success:", "p", .success(nil)),
    ("p=failure", "p", .failure(nil)),
    ("p=failure:timeout: 30 s", "p", .failure("timeout: 30 s")),
    ("paywall=cancelled", "paywall", .cancelled),
  ]

  @Test(arguments: mocks)
  func mock(text: String, identifier: String, result: ActionResult) throws {
    let parsed = try RunArguments.mock(text).get()
    #expect(parsed.identifier == identifier)
    #expect(parsed.result == result)
  }

  @Test(arguments: ["p", "=success", "p=yes", "p=success:{bad", "p=cancelled:now", "p=Success"])
  func badMock(text: String) {
    #expect(throws: InputLanguageError.self) { try RunArguments.mock(text).get() }
  }

  static let times: [(String, Int64)] = [
    ("2026-01-01T00:00:00Z", 1_767_225_600_000),
    ("2026-01-01", 1_767_225_600_000),
    ("2026-01-01T00:00Z", 1_767_225_600_000),
    ("2026-01-01T00:00:00.250Z", 1_767_225_600_250),
    ("2026-01-01T00:00:00.5Z", 1_767_225_600_500),
    ("2026-01-01T01:00:00+01:00", 1_767_225_600_000),
    ("2025-12-31T19:00:00-0500", 1_767_225_600_000),
    ("2024-02-29t12:00:00z", 1_709_208_000_000),
    ("1970-01-01T00:00:00Z", 0),
    ("0000-01-01", -62_167_219_200_000),
    ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
  ]

  @Test(arguments: times)
  func iso8601(text: String, milliseconds: Int64) throws {
    #expect(try RunArguments.iso8601(text).get() == milliseconds)
  }

  @Test(arguments: [
    "", "2026", "2026-1-01", "2026-13-01", "2025-02-29", "2026-01-32", "2026-01-01T24:00:00Z",
    "2026-01-01T10:00:00", "2026-01-01T10:00:00Zjunk", "yesterday", "2026-01-01T10:00:00.Z",
    // Outside the virtual clock's range (0000-01-01 through 9999-12-31).
    "0000-01-01T00:00:00+00:01", "9999-12-31T23:59:59-01:00",
  ])
  func badISO8601(text: String) {
    #expect(throws: InputLanguageError.self) { try RunArguments.iso8601(text).get() }
  }

  @Test func traitsKeepScalarTypes() {
    #expect(RunArguments.traitValue("30") == .number(30))
    #expect(RunArguments.traitValue("true") == .bool(true))
    #expect(RunArguments.traitValue("en_US") == .string("en_US"))
    #expect(RunArguments.traitValue("[1]") == .string("[1]"))
    #expect(throws: InputLanguageError.self) { try RunArguments.keyValue("locale", option: "--trait").get() }
    #expect(throws: InputLanguageError.self) { try RunArguments.keyValue("locale=", option: "--trait").get() }
  }
}
