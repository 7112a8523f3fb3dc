/// The pure logic behind Tab completion, kept apart from libedit so it can be tested.
public enum Completion {
  /// What pressing Tab should do.
  public enum Outcome: Equatable, Sendable {
    /// No candidate starts with the word: beep.
    case noMatch
    /// Insert `text` at the cursor (empty when the word is already complete).
    case insert(String)
    /// Several candidates remain: insert `text` (their common extension), then list them.
    case ambiguous(insert: String, candidates: [String])
  }

  /// The word being completed: the text after the last whitespace of `linePrefix`
  /// (the line up to the cursor).
  public static func wordAtCursor(in linePrefix: String) -> Substring {
    guard let lastSpace = linePrefix.lastIndex(where: \.isWhitespace) else {
      return linePrefix[...]
    }
    return linePrefix[linePrefix.index(after: lastSpace)...]
  }

  /// The longest string that every element starts with (compared by `Character`).
  public static func longestCommonPrefix(_ strings: [String]) -> String {
    guard var prefix = strings.first?[...] else { return "" }
    for string in strings.dropFirst() {
      var shared = prefix.startIndex
      var other = string.startIndex
      while shared < prefix.endIndex, other < string.endIndex, prefix[shared] == string[other] {
        shared = prefix.index(after: shared)
        other = string.index(after: other)
      }
      prefix = prefix[..<shared]
      if prefix.isEmpty { break }
    }
    return String(prefix)
  }

  /// Decides what Tab does for `word` given the `candidates` (duplicates and candidates
  /// that do not start with `word` are ignored; matching is case-sensitive).
  public static func resolve(word: Substring, candidates: [String]) -> Outcome {
    var seen = Set<String>()
    let matches = candidates.filter { $0.hasPrefix(word) && seen.insert($0).inserted }
    guard !matches.isEmpty else { return .noMatch }
    let extensionText = String(longestCommonPrefix(matches).dropFirst(word.count))
    if matches.count == 1 { return .insert(extensionText) }
    return .ambiguous(insert: extensionText, candidates: matches)
  }

  /// Lays `items` out in columns, row by row, as shells list completions; each returned
  /// line is at most `width` characters wide unless a single item is wider.
  public static func columns(_ items: [String], width: Int) -> [String] {
    guard !items.isEmpty else { return [] }
    let gap = 2
    let cell = (items.map(\.count).max() ?? 0) + gap
    let perRow = max(1, (max(width, 1) + gap) / cell)
    let rows = (items.count + perRow - 1) / perRow
    return (0..<rows).map { row in
      var line = ""
      for column in 0..<perRow {
        let index = column * rows + row
        guard index < items.count else { break }
        let item = items[index]
        let isLastInRow = (column + 1) * rows + row >= items.count
        line += isLastInRow ? item : item + String(repeating: " ", count: cell - item.count)
      }
      return line
    }
  }
}
