/// The colours `check` and `test` give the words their lines lead with, on a terminal or with
/// `--color always` (docs/cli.md, "Colour"): red for errors and failures, yellow for warnings and
/// skips, green for passes, cyan for notes. Only those words are coloured; the text itself is
/// unchanged, so `--color never` and a pipe give the same bytes as before.
enum StatusColors {
  static let red = "31", green = "32", yellow = "33", cyan = "36"

  static func paint(_ text: some StringProtocol, _ color: String) -> String {
    "\u{1B}[1;\(color)m\(text)\u{1B}[0m"
  }

  /// Diagnostic text (`FILE:LINE:COL: error: message [id]`, `note: …`) with each header's
  /// severity word coloured.
  static func diagnostics(_ text: String) -> String {
    let words = [("error:", red), ("warning:", yellow), ("note:", cyan)]
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
      for (word, color) in words {
        if line.hasPrefix(word) { return paint(word, color) + line.dropFirst(word.count) }
        // A header: the location (no spaces in `FILE:LINE:COL`, as a rule) then the word.
        if let range = line.firstRange(of: ": " + word), !line[..<range.lowerBound].contains(" ") {
          let start = line.index(range.lowerBound, offsetBy: 2)
          return line[..<start] + paint(word, color) + line[range.upperBound...]
        }
      }
      return String(line)
    }.joined(separator: "\n")
  }

  /// A `test` result line (`PASS`, `FAIL`, `ERROR`, `SKIP` first) with its word coloured.
  static func outcome(_ text: String) -> String {
    for (word, color) in [("PASS", green), ("FAIL", red), ("ERROR", red), ("SKIP", yellow)]
    where text.hasPrefix(word + " ") {
      return paint(word, color) + text.dropFirst(word.count)
    }
    return text
  }

  /// `3 passed, 1 failed`: the counts coloured when not zero.
  static func summary(_ text: String) -> String {
    text.split(separator: ",", omittingEmptySubsequences: false).map { part -> String in
      let words = part.split(separator: " ")
      guard words.count == 2, let count = Int(words[0]), count > 0 else { return String(part) }
      let color = [("passed", green), ("failed", red), ("skipped", yellow)].first { $0.0 == words[1] }?.1
      guard let color else { return String(part) }
      return (part.hasPrefix(" ") ? " " : "") + paint(part.trimmingPrefix(" "), color)
    }.joined(separator: ",")
  }
}
