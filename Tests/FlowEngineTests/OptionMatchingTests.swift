import FlowEngine
import Testing

/// How a typed answer names an option (issue 19 item 1): id in any case, label without its
/// emoji, case or accents, and unambiguous starts.
@Suite struct OptionMatchingTests {
  static let interests = [
    OptionMatching.Names(ids: ["strength"], label: "💪 Strength"),
    OptionMatching.Names(ids: ["cardio"], label: "🫀 Cardio"),
    OptionMatching.Names(ids: ["mobility"], label: "🧘 Mobility & stretching"),
    OptionMatching.Names(ids: ["running"], label: "🏃 Running"),
    OptionMatching.Names(ids: ["hiit"], label: "⚡ HIIT"),
    OptionMatching.Names(ids: ["cafe"], label: "Café au lait"),
    OptionMatching.Names(ids: ["upper"], label: "Chest, back & arms"),
  ]

  static let cases: [(String, OptionMatching.Outcome)] = [
    ("strength", .one(0)),
    ("STRENGTH", .one(0)),
    ("Strength", .one(0)),
    ("💪 Strength", .one(0)),
    ("  strength  ", .one(0)),
    ("Str", .one(0)),
    ("mobility & STRETCHING", .one(2)),
    ("Mob", .one(2)),
    ("hi", .one(4)),
    ("cafe AU lait", .one(5)),
    ("Café", .one(5)),
    ("chest, back & arms", .one(6)),
    ("c", .several([1, 5, 6])),
    ("swim", .none),
    ("", .none),
    ("💪", .none),
  ]

  @Test(arguments: cases)
  func namesAnOption(typed: String, expected: OptionMatching.Outcome) {
    #expect(OptionMatching.match(typed, among: Self.interests) == expected)
  }

  @Test func exactNamesOnlyWithoutPrefixes() {
    #expect(OptionMatching.match("Str", among: Self.interests, prefixes: false) == .none)
    #expect(OptionMatching.match("strength", among: Self.interests, prefixes: false) == .one(0))
  }

  static let foldedCases: [(String, String)] = [
    ("💪 Strength", "strength"),
    ("Ærø  Café", "aero cafe"),
    ("☀️ Morning", "morning"),
    ("Cafe\u{301}", "cafe"),
    ("🔔", "🔔"),
  ]

  @Test(arguments: foldedCases)
  func folding(text: String, folded: String) {
    #expect(OptionMatching.folded(text) == folded)
  }
}
