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
    ("007", .number(7)),
    ("99999999999999999999", .text("99999999999999999999")),
    ("+5", .text("+5")),
    ("\t4\t", .number(4)),
    ("x", .text("x")),
    ("x ", .text("x ")),
    ("\u{A0}1", .number(1)),
    ("caf\u{E9}", .text("caf\u{E9}")),
    ("a:b", .text("a:b")),
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
    (":decline", .command(.decline)),
    (":track screen_completed", .command(.track("screen_completed", properties: [:]))),
    (
      ":track buttonTapped {\"button_label\": \"Get Started\"}",
      .command(.track("buttonTapped", properties: ["button_label": .string("Get Started")]))
    ),
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
    (":track", ":track needs an event type"),
    (":track button_tapped [1]", ":track takes a JSON object of properties after the type"),
    (":decline now", ":decline takes no argument"),
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
