/// Vocabulary for generated text: onboarding-flavoured words, titles and sentences.
enum Words {
  static let nouns = [
    "habit", "goal", "routine", "reminder", "coach", "plan", "budget", "session", "streak",
    "progress", "workout", "lesson", "journal", "morning", "evening", "week", "team", "profile",
    "account", "schedule", "focus", "energy", "sleep", "meal", "savings", "playlist", "garden",
  ]
  static let verbs = [
    "build", "track", "reach", "plan", "save", "learn", "share", "start", "finish", "improve",
    "review", "choose", "unlock", "measure", "celebrate", "organise", "protect", "discover",
  ]
  static let adjectives = [
    "daily", "personal", "simple", "flexible", "weekly", "gentle", "smart", "private", "quick",
    "steady", "realistic", "friendly", "focused", "balanced", "new", "better", "tiny",
  ]
  static let icons = ["🎯", "🔔", "💪", "📈", "🌙", "☀️", "🧘", "💰", "📚", "✨", "🏃", "🥗"]
  static let customActions = [
    "permission.notifications", "permission.location", "auth.apple", "auth.google",
    "system.review", "paywall.show",
  ]
  static let inputs: [(String, String)] = [
    ("first_name", "text"), ("email", "email"), ("age", "number"), ("city", "text"),
    ("company", "text"), ("height_cm", "number"), ("nickname", "text"),
  ]
  static let choices: [(String, [String])] = [
    ("goal", ["lose", "maintain", "build", "explore"]),
    ("level", ["beginner", "intermediate", "advanced"]),
    ("interests", ["strength", "cardio", "mobility", "running", "yoga"]),
    ("diet", ["none", "vegetarian", "vegan", "keto"]),
    ("source", ["friend", "app_store", "podcast", "social", "other"]),
    ("time_of_day", ["morning", "midday", "evening"]),
  ]
  static let sliders: [(String, Int, Int, Int)] = [
    ("hours_daily", 0, 12, 1), ("minutes_saved", 0, 120, 5), ("monthly_spend", 500, 10000, 50),
    ("weight_kg", 40, 160, 1), ("sessions_per_week", 1, 7, 1),
  ]

  static func word(_ rng: inout SplitMix64) -> String { rng.pick(nouns) }

  static func title(_ rng: inout SplitMix64) -> String {
    let verb = rng.pick(verbs)
    return verb.prefix(1).uppercased() + verb.dropFirst() + " your " + rng.pick(adjectives) + " " + rng.pick(nouns)
  }

  static func question(_ rng: inout SplitMix64) -> String {
    rng.pick([
      "What is your main \(rng.pick(nouns))?", "How often do you \(rng.pick(verbs)) your \(rng.pick(nouns))?",
      "Which \(rng.pick(nouns)) should we \(rng.pick(verbs)) first?",
      "Tell us about your \(rng.pick(adjectives)) \(rng.pick(nouns))",
    ])
  }

  static func sentence(_ rng: inout SplitMix64, end: String = ".") -> String {
    let count = rng.int(5...12)
    var words: [String] = []
    for i in 0..<count {
      switch i % 4 {
      case 0: words.append(rng.pick(verbs))
      case 1: words.append(rng.pick(["your", "a", "the", "every", "one"]))
      case 2: words.append(rng.pick(adjectives))
      default: words.append(rng.pick(nouns))
      }
    }
    let text = words.joined(separator: " ")
    return text.prefix(1).uppercased() + text.dropFirst() + end
  }

  static func paragraph(_ rng: inout SplitMix64, sentences: Int) -> String {
    (0..<max(1, sentences)).map { _ in sentence(&rng) }.joined(separator: " ")
  }
}
