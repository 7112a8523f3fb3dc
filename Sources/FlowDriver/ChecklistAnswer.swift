import FlowEngine
import FlowExpression

/// An answer typed at a checklist prompt, read into the options it picks (docs/cli.md,
/// "Answering a checklist").
///
/// Parts are separated by commas. Each part is an option's number as rendered, or names it as
/// `OptionMatching` says (id in any case, label without its emoji in any case and without
/// accents, or the start of one). A part in double quotes is one part whatever commas it holds,
/// and neighbouring parts that together are an option's exact label are one part too, so a
/// label with commas (`Chest, back & arms`, as Tab completes it) needs no quotes. The answer
/// is the whole new selection; parts written `+PART` or `-PART` add to or remove from the
/// current selection instead.
public enum ChecklistAnswer {
  /// The indices of the options picked, in order, or why the answer names none.
  public static func resolve(
    _ line: String, options: [OptionMatching.Names], current: [Int], field: String
  ) -> Result<[Int], InputLanguageError> {
    let parts = split(line)
    let toggles = parts.contains { $0.sign != nil }
    var picked = toggles ? current : []
    // A run of parts longer than the most commas a name holds cannot be one name, and each text
    // is matched once: a long answer (up to 1 MiB) costs time in proportion to its length.
    let widest =
      options.map { names in
        ([names.label] + names.ids).map { name in name.count { $0 == "," } }.max() ?? 0
      }.max() ?? 0
    var exact: [String: OptionMatching.Outcome] = [:]
    var picks: [String: Result<Int, InputLanguageError>] = [:]
    var index = 0
    while index < parts.count {
      let part = parts[index]
      var taken = 1
      var found: Int?
      // The longest run of plain parts that is one option's exact name (a label with commas).
      if !part.quoted {
        var last = min(parts.count - 1, index + widest)
        while found == nil, last > index {
          let run = parts[index...last]
          if run.dropFirst().allSatisfy({ !$0.quoted && $0.sign == nil }) {
            let joined = run.map(\.text).joined(separator: ",")
            let outcome = exact[joined] ?? OptionMatching.match(joined, among: options, prefixes: false)
            exact[joined] = outcome
            if case .one(let option) = outcome {
              found = option
              taken = run.count
            }
          }
          last -= 1
        }
      }
      if found == nil {
        let text = part.text.trimmingWhitespace
        if text.isEmpty {
          index += 1
          continue
        }
        let key = (part.quoted ? "\"" : "") + text
        let result = picks[key] ?? pick(text, quoted: part.quoted, options: options, field: field)
        picks[key] = result
        switch result {
        case .success(let option): found = option
        case .failure(let error): return .failure(error)
        }
      }
      if let option = found {
        if part.sign == "-" {
          picked.removeAll { $0 == option }
        } else if !picked.contains(option) {
          picked.append(option)
        }
      }
      index += taken
    }
    return .success(picked)
  }

  private static func pick(
    _ text: String, quoted: Bool, options: [OptionMatching.Names], field: String
  ) -> Result<Int, InputLanguageError> {
    if !quoted, text.allSatisfy(\.isASCIIDigit) {
      guard let number = Int(text), number >= 1, number <= options.count else {
        return .failure(InputLanguageError("no option \(text) in '\(field)' (options 1 to \(options.count))"))
      }
      return .success(number - 1)
    }
    switch OptionMatching.match(text, among: options) {
    case .one(let option):
      return .success(option)
    case .several(let matches):
      let names = matches.map { describe($0, options) }.joined(separator: ", ")
      return .failure(
        InputLanguageError("'\(text)' could be several options of '\(field)': \(names); type more of it, or its number")
      )
    case .none:
      let names = options.indices.map { describe($0, options) }.joined(separator: ", ")
      return .failure(
        InputLanguageError(
          "no option '\(text)' in '\(field)'; answer with numbers, ids or labels (or their start), "
            + "separated by commas: \(names)"))
    }
  }

  /// `1 💪 Strength (strength)`.
  private static func describe(_ index: Int, _ options: [OptionMatching.Names]) -> String {
    let id = options[index].ids.first.map { " (\($0))" } ?? ""
    return "\(index + 1) \(options[index].label)\(id)"
  }

  /// Tab candidates for an answer typed so far (`linePrefix`): each label that the answer, or
  /// its part after a comma, is the start of (as `OptionMatching` compares: any case, no emoji,
  /// no accents), as the text that replaces the word at the cursor (`Completion` in
  /// FlowTerminal). Labels are completed without their leading emoji, and a label with commas
  /// completes from the start of the answer, so every candidate is an answer the run accepts.
  public static func completions(_ linePrefix: String, labels: [String]) -> [String] {
    let word = String(linePrefix.reversed().prefix { !$0.isWhitespace }.reversed())
    var starts = [linePrefix.startIndex]
    starts += linePrefix.indices.filter { linePrefix[$0] == "," }.map { linePrefix.index(after: $0) }
    var candidates: [String] = []
    for start in starts {
      var segment = linePrefix[start...].drop(while: \.isWhitespace)
      if let first = segment.first, first == "+" || first == "-" { segment = segment.dropFirst() }
      let quoted = segment.first == "\""
      if quoted { segment = segment.dropFirst() }
      guard segment.hasSuffix(word) || word.hasSuffix(segment) else { continue }
      let folded = OptionMatching.folded(String(segment))
      for label in labels.map(OptionMatching.typedForm) where OptionMatching.folded(label).hasPrefix(folded) {
        // The longest start of the label that reads as the segment and, like it, ends with a
        // space or not ("Get" + "Started" would lose the space): the rest is what Tab adds.
        let endsInSpace = segment.last?.isWhitespace == true
        let reads = (0...label.count).filter { OptionMatching.folded(String(label.prefix($0))) == folded }
        let typed = reads.last { (label.prefix($0).last?.isWhitespace == true) == endsInSpace } ?? reads.last ?? 0
        let candidate = word + label.dropFirst(typed) + (quoted ? "\"" : "")
        if !candidates.contains(candidate) { candidates.append(candidate) }
      }
    }
    return candidates
  }

  struct Part {
    var text: String
    var quoted: Bool
    /// `+` or `-` before the part: add to or remove from the current selection.
    var sign: Character?
  }

  /// The comma-separated parts of `line`; a comma inside double quotes does not separate.
  static func split(_ line: String) -> [Part] {
    var raw: [String] = []
    var text = ""
    var inQuotes = false
    for character in line {
      if character == "\"" { inQuotes.toggle() }
      if character == ",", !inQuotes {
        raw.append(text)
        text = ""
      } else {
        text.append(character)
      }
    }
    raw.append(text)
    return raw.map { text in
      var body = text.trimmingWhitespace[...]
      var sign: Character?
      if let first = body.first, first == "+" || first == "-", body.count > 1 {
        sign = first
        body = body.dropFirst().drop(while: \.isWhitespace)
      }
      if body.count >= 2, body.hasPrefix("\""), body.hasSuffix("\"") {
        return Part(text: String(body.dropFirst().dropLast()), quoted: true, sign: sign)
      }
      // Unquoted text keeps its spaces: parts joined back into a label with commas need them.
      return Part(text: sign == nil ? text : String(body), quoted: false, sign: sign)
    }
  }
}
