import FlowExpression
import Testing

/// The one ISO-8601 reader (`CivilTime.readInstant`), the table docs/cli.md ("Times") shows:
/// what it accepts, as epoch milliseconds and whether the text named no zone, and what it
/// refuses, and why.
@Suite struct ISOTimeTests {
  static let acceptedTexts: [(String, Int64, zoneless: Bool)] = [
    ("2026-01-01", 1_767_225_600_000, false),
    ("2026-01-01T00:00:00Z", 1_767_225_600_000, false),
    ("2026-01-01T00:00Z", 1_767_225_600_000, false),
    ("2026-01-01t00:00:00z", 1_767_225_600_000, false),
    ("2026-01-01 00:00:00Z", 1_767_225_600_000, false),
    ("2026-01-01T00:00:00", 1_767_225_600_000, true),
    ("2026-01-01T00:00", 1_767_225_600_000, true),
    ("2026-01-01T00:00:00.5Z", 1_767_225_600_500, false),
    ("2026-01-01T00:00:00,25Z", 1_767_225_600_250, false),
    ("2026-01-01T00:00:00.123456789Z", 1_767_225_600_123, false),
    ("2026-01-01T01:00:00+01:00", 1_767_225_600_000, false),
    ("2025-12-31T19:00:00-0500", 1_767_225_600_000, false),
    ("2026-01-01T01:00:00+01", 1_767_225_600_000, false),
    // A leap second reads as the second before it.
    ("2026-01-01T00:00:60Z", 1_767_225_659_000, false),
    ("2024-02-29", 1_709_164_800_000, false),
    ("1970-01-01T00:00:00Z", 0, false),
    ("0000-01-01", -62_167_219_200_000, false),
    ("9999-12-31T23:59:59.999Z", 253_402_300_799_999, false),
  ]

  @Test(arguments: acceptedTexts)
  func accepted(_ text: String, _ milliseconds: Int64, zoneless: Bool) throws {
    let read = try CivilTime.readInstant(iso8601: text).get()
    #expect(read.instant.milliseconds == milliseconds)
    #expect(read.zoneless == zoneless)
    #expect(CivilTime.instant(iso8601: text) == read.instant)
  }

  static let refusedTexts: [(String, CivilTime.ISORefusal)] = [
    ("", .malformed),
    ("yesterday", .malformed),
    ("2026", .malformed),
    ("2026-1-01", .malformed),
    (" 2026-01-01", .malformed),
    ("2026-01-01 ", .malformed),
    ("2026-01-01T9:30Z", .malformed),
    ("2026-01-01T09", .malformed),
    ("2026-01-01T09:30:5Z", .malformed),
    ("2026-01-01T10:00:00.Z", .malformed),
    ("2026-01-01T10:00:00Zjunk", .malformed),
    ("2026-01-01T10:00:00+1", .malformed),
    ("2026-01-01T10:00:00+24:00", .malformed),
    ("2026-01-01T10:00:00+01:60", .malformed),
    ("2026-01-01T10:00:00+01:00:00", .malformed),
    ("2026-13-01", .noSuchDate),
    ("2026-00-10", .noSuchDate),
    ("2025-02-29", .noSuchDate),
    ("2026-02-31T10:00:00Z", .noSuchDate),
    ("2026-01-32", .noSuchDate),
    ("2026-01-01T24:00:00Z", .noSuchTime),
    ("2026-01-01T10:60Z", .noSuchTime),
    ("2026-01-01T10:00:61Z", .noSuchTime),
    ("2026-01-01T10:00:00 UTC", .badZone),
    ("2026-01-01T10:00:00X", .badZone),
  ]

  @Test(arguments: refusedTexts)
  func refused(_ text: String, _ refusal: CivilTime.ISORefusal) {
    #expect(throws: refusal) { try CivilTime.readInstant(iso8601: text).get() }
    #expect(CivilTime.instant(iso8601: text) == nil)
  }
}
