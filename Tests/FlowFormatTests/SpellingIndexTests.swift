import FlowGenerator
import Testing

@testable import FlowFormat

/// `SpellingIndex` and the banded distance against the plain algorithm they replace: a full
/// Levenshtein table and a scan of every candidate.
@Suite struct SpellingIndexTests {
  /// Levenshtein distance, the whole table (the function "did you mean" used before).
  static func fullDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }

  /// The closest candidate by the full distance, ties to the first (the scan used before).
  static func referenceClosest(to word: String, in candidates: [String], maxDistance: Int) -> String? {
    let w = Array(word.lowercased().unicodeScalars)
    var best: (String, Int)?
    for candidate in candidates {
      let distance = fullDistance(w, Array(candidate.lowercased().unicodeScalars))
      if distance <= maxDistance, distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
    }
    return best?.0
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var candidates: [String]
    var words: [String]
    var testDescription: String { name }
  }

  /// `text` with `edits` random substitutions, insertions and deletions from `alphabet`.
  static func misspell(_ text: String, edits: Int, alphabet: [Character], rng: inout SplitMix64) -> String {
    var characters = Array(text)
    for _ in 0..<edits {
      let position = Int.random(in: 0...characters.count, using: &rng)
      switch Int.random(in: 0..<3, using: &rng) {
      case 0 where position < characters.count: characters[position] = alphabet.randomElement(using: &rng)!
      case 1 where position < characters.count: characters.remove(at: position)
      default: characters.insert(alphabet.randomElement(using: &rng)!, at: position)
      }
    }
    return String(characters)
  }

  static let cases: [Case] = {
    var rng = SplitMix64(seed: 23)
    var cases: [Case] = []
    func words(from candidates: [String], alphabet: [Character], count: Int) -> [String] {
      (0..<count).map { _ in
        misspell(
          candidates.randomElement(using: &rng)!, edits: Int.random(in: 0...3, using: &rng), alphabet: alphabet,
          rng: &rng)
      }
    }
    let digits = Array("0123456789_se")
    let ids = (0..<400).map { index in "screen_" + String(String(100_000 + index * 7).dropFirst()) }
    cases.append(
      Case(
        name: "numbered ids with a common prefix", candidates: ids,
        words: words(from: ids, alphabet: digits, count: 300)))
    let letters = Array("abcdefgh")
    let random = (0..<300).map { _ in
      String((0..<Int.random(in: 1...9, using: &rng)).map { _ in letters.randomElement(using: &rng)! })
    }
    cases.append(
      Case(
        name: "short random words, many ties", candidates: random,
        words: words(from: random, alphabet: letters, count: 400)))
    let long = (0..<150).map { index in
      String(repeating: "onboarding_section_", count: 3) + "step_\(index)_"
        + String((0..<Int.random(in: 0...30, using: &rng)).map { _ in letters.randomElement(using: &rng)! })
    }
    cases.append(
      Case(
        name: "long keys sharing their first 60 characters", candidates: long,
        words: words(from: long, alphabet: letters + ["_"], count: 200)))
    let unicode = ["Größe", "größe", "ÉCRAN", "écran_1", "画面一", "画面二", "🏃‍♀️run", "naïve", "nai\u{0308}ve", "", "a", "AB"]
    cases.append(
      Case(
        name: "case, accents, combining marks, emoji, empty", candidates: unicode,
        words: words(from: unicode, alphabet: ["ö", "e", "É", "面", "🏃", "i", "\u{0308}"], count: 200) + [
          "", "b", "groesse", "ECRAN_1",
        ]))
    let keys = KnownKeys.blockContent.spelling.candidates
    cases.append(
      Case(
        name: "block content keys", candidates: keys,
        words: words(from: keys, alphabet: Array("abcdeilnorstxyzAT"), count: 300)))
    let duplicates = ["plan", "Plan", "plans", "plan", "PLAN", "span", "plank"]
    cases.append(
      Case(
        name: "duplicates and case twins", candidates: duplicates,
        words: ["plan", "pla", "flan", "planks", "x", "sPAN"]))
    return cases
  }()

  @Test(arguments: cases)
  func indexAnswersAsTheFullScan(_ test: Case) {
    for maxDistance in [0, 1, 2] {
      let index = SpellingIndex(test.candidates, maxDistance: maxDistance)
      for word in test.words {
        let expected = Self.referenceClosest(to: word, in: test.candidates, maxDistance: maxDistance)
        #expect(index.closest(to: word) == expected, "\(word) within \(maxDistance)")
        #expect(
          closestMatch(to: word, in: test.candidates, maxDistance: maxDistance) == expected,
          "\(word) within \(maxDistance)")
      }
    }
  }

  @Test func bandedDistanceAgreesWithTheFullTable() {
    var rng = SplitMix64(seed: 7)
    let alphabet = Array("abcé🏃")
    for _ in 0..<3_000 {
      let a = (0..<Int.random(in: 0...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
      let b = Self.misspell(String(a), edits: Int.random(in: 0...5, using: &rng), alphabet: alphabet, rng: &rng)
      let x = Array(String(a).unicodeScalars)
      let y = Array(b.unicodeScalars)
      let full = Self.fullDistance(x, y)
      for limit in 0...4 {
        #expect(boundedEditDistance(x, y, limit: limit) == min(full, limit + 1), "\(String(a)) / \(b) within \(limit)")
      }
    }
  }

  /// A megabyte key costs a band, not a table: its distance to another is found at all.
  @Test func longKeysAreCompared() {
    let key = Array(String(repeating: "ab", count: 500_000).unicodeScalars)
    var other = key
    other[700_000] = "x"
    #expect(boundedEditDistance(key, other, limit: 2) == 1)
    #expect(
      SpellingIndex([String(String.UnicodeScalarView(other))]).closest(to: String(String.UnicodeScalarView(key))) != nil
    )
  }
}
