import FlowDriver
import FlowEngine
import Testing

/// Answers typed at a checklist prompt (issue 19 items 1, 2 and "checklist answers toggle").
@Suite struct ChecklistAnswerTests {
  static let goals = [
    OptionMatching.Names(ids: ["upper"], label: "Chest, back & arms"),
    OptionMatching.Names(ids: ["lower"], label: "Legs & glutes"),
    OptionMatching.Names(ids: ["core"], label: "Core"),
    OptionMatching.Names(ids: ["full"], label: "Full body"),
  ]

  static let accepted: [(String, [Int], [Int])] = [
    ("1, 3", [], [0, 2]),
    ("Chest, back & arms", [], [0]),
    ("Chest, back & arms, legs", [], [0, 1]),
    ("\"Chest, back & arms\",core", [], [0, 2]),
    ("UPPER,Full", [], [0, 3]),
    ("core", [0], [2]),  // a plain answer is the whole new selection
    ("+core", [0], [0, 2]),  // +PART adds
    ("-upper", [0, 2], [2]),  // -PART removes
    ("2,2,legs", [], [1]),
  ]

  @Test(arguments: accepted)
  func picks(line: String, current: [Int], expected: [Int]) throws {
    let picked = try ChecklistAnswer.resolve(line, options: Self.goals, current: current, field: "muscle_focus").get()
    #expect(picked == expected)
  }

  static let refused: [(String, String)] = [
    ("9", "no option 9 in 'muscle_focus' (options 1 to 4)"),
    (
      "swim",
      "no option 'swim' in 'muscle_focus'; answer with numbers, ids or labels (or their start), separated by commas: "
        + "1 Chest, back & arms (upper), 2 Legs & glutes (lower), 3 Core (core), 4 Full body (full)"
    ),
    (
      "c",
      "'c' could be several options of 'muscle_focus': 1 Chest, back & arms (upper), 3 Core (core); "
        + "type more of it, or its number"
    ),
  ]

  @Test(arguments: refused)
  func refuses(line: String, message: String) {
    let result = ChecklistAnswer.resolve(line, options: Self.goals, current: [], field: "muscle_focus")
    switch result {
    case .success(let picked): Issue.record("'\(line)' was accepted as \(picked)")
    case .failure(let error): #expect(error.message == message)
    }
  }

  /// Every Tab candidate, put in place of the word at the cursor, is an answer `resolve` accepts.
  static let completed: [(String, [String], [String])] = [
    ("Ch", ["Chest, back & arms", "Core"], ["Chest, back & arms"]),
    ("Str", ["💪 Strength", "🫀 Cardio"], ["Strength"]),
    ("Get", ["Get Started"], ["Get Started"]),
    ("Get S", ["Get Started"], ["Started"]),
    ("cafe", ["Café au lait"], ["cafe au lait"]),
    ("core, F", ["Core", "Full body"], ["Full body"]),
    ("x", ["Core"], []),
  ]

  @Test(arguments: completed)
  func completes(prefix: String, labels: [String], expected: [String]) {
    #expect(ChecklistAnswer.completions(prefix, labels: labels) == expected)
  }
}
