import ArgumentParser
import FlowEngine
import FlowExpression
import OrderedCollections
import Testing

@testable import FlowCommands

/// The command line's option types: what each reads, and the usage error (exit 64) for what
/// it refuses, word for word.
@Suite struct OptionValueTests {
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
    let parsed = try Mock.parse(text).get()
    #expect(parsed.identifier == identifier)
    #expect(parsed.answer == .action(result))
  }

  @Test(arguments: [
    ("hook=proceed", "", HookAnswer.proceed(data: nil)),
    ("hook.s2=block Code expired", "s2", .block(message: "Code expired")),
    ("hook=stay", "", .stay(message: nil)),
    ("hook=skipTo s3", "", .skipTo(screenID: "s3", data: nil)),
    (#"hook={"type":"proceedWithData","data":{"ok":true}}"#, "", .proceed(data: ["ok": true])),
  ])
  func hookMock(text: String, step: String, answer: HookAnswer) throws {
    #expect(try Mock.parse(text).get().answer == .hook(step: step, answer))
  }

  @Test(arguments: [
    ("p", "--mock 'p': expected IDENTIFIER=success[:JSON], IDENTIFIER=failure[:TEXT] or IDENTIFIER=cancelled"),
    (
      "=success",
      "--mock '=success': expected IDENTIFIER=success[:JSON], IDENTIFIER=failure[:TEXT] or IDENTIFIER=cancelled"
    ),
    (
      "p=yes",
      "--mock 'p=yes': unknown status 'yes'; expected IDENTIFIER=success[:JSON], IDENTIFIER=failure[:TEXT] or IDENTIFIER=cancelled"
    ),
    (
      "p=success:{bad",
      "--mock 'p=success:{bad': the data after 'success:' is not JSON: expected a key in double quotes, found 'bad' (column 2)"
    ),
    ("p=cancelled:now", "--mock 'p=cancelled:now': 'cancelled' takes nothing after it"),
    (
      "p=Success",
      "--mock 'p=Success': unknown status 'Success'; expected IDENTIFIER=success[:JSON], IDENTIFIER=failure[:TEXT] or IDENTIFIER=cancelled"
    ),
  ])
  func badMock(text: String, message: String) {
    #expect(Self.message(Mock.parse(text)) == message)
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
  func now(text: String, milliseconds: Int64) throws {
    #expect(try Instant.parse(text).get().milliseconds == milliseconds)
  }

  @Test(arguments: [
    "", "2026", "2026-1-01", "2026-13-01", "2025-02-29", "2026-01-32", "2026-01-01T24:00:00Z",
    "2026-01-01T10:00:00", "2026-01-01T10:00:00Zjunk", "yesterday", "2026-01-01T10:00:00.Z",
    // Outside the virtual clock's range (0000-01-01 through 9999-12-31).
    "0000-01-01T00:00:00+00:01", "9999-12-31T23:59:59-01:00",
  ])
  func badNow(text: String) {
    #expect(Self.message(Instant.parse(text))?.hasPrefix("--now '\(text)': ") == true)
  }

  @Test func traitsKeepScalarTypes() throws {
    #expect(try Trait.parse("age=30").get().value == .number(30))
    #expect(try Trait.parse("pro=true").get().value == .bool(true))
    #expect(try Trait.parse("locale=en_US").get().value == .string("en_US"))
    #expect(try Trait.parse("list=[1]").get().value == .string("[1]"))
    #expect(Self.message(Trait.parse("locale")) == "--trait 'locale': expected KEY=VALUE")
    #expect(Self.message(VariantChoice.parse("onb_length=")) == "--variant 'onb_length=': expected KEY=VALUE")
  }

  /// One bound per option, the same in every command that takes it.
  @Test(arguments: [
    (Self.message(Width.parse("19")), "--width must be between 20 and 1,000 columns, not 19"),
    (Self.message(Width.parse("abc")), "--width must be between 20 and 1,000 columns, not abc"),
    (Self.message(Jobs.parse("0")), "--jobs must be between 1 and 1,000, not 0"),
    (Self.message(MaxDepth.parse("0")), "--max-depth must be between 1 and 1,000,000, not 0"),
    (Self.message(MaxStates.parse("100000001")), "--max-states must be between 1 and 100,000,000, not 100000001"),
    (Self.message(MaxSelections.parse("0")), "--max-selections must be between 1 and 100,000, not 0"),
    (Self.message(Percentage.parse("nan")), "--min-coverage must be a percentage between 0 and 100, not nan"),
    (Self.message(Shard.parse("3/2")), "--shard must be I/N with 1 <= I <= N, e.g. 2/4"),
  ])
  func bounds(_ message: String?, _ expected: String) {
    #expect(message == expected)
  }

  @Test func valuesWithinTheirBounds() throws {
    #expect(try Width.parse("20").get().value == 20)
    #expect(try Width.parse("1000").get().value == 1_000)
    #expect(try Percentage.parse("100").get().value == 100)
    let shard = try Shard.parse("2/4").get()
    #expect((shard.index, shard.count) == (2, 4))
  }

  @Test(arguments: [
    (SessionStatus.completed, Int32(0)), (.dismissed, 0), (.quit(.endOfInput), 1), (.failed("budget"), 1),
    (.running, 1),
  ])
  func runExitCodes(_ status: SessionStatus, _ code: Int32) {
    #expect(ExitStatus.of(status) == code)
  }

  static func message<T>(_ result: Result<T, ValidationError>) -> String? {
    if case .failure(let error) = result { return error.message }
    return nil
  }
}
