import FlowExpression

/// How a typed answer names one of several options: a checklist item or a button
/// (docs/semantics.md, "Naming an option"). One rule for `run`, `test` and `run --answers`.
///
/// In order, the first step that finds something decides:
/// 1. an exact id or value;
/// 2. an id or value in any case;
/// 3. the label, folded (`folded(_:)`: leading emoji and symbols dropped, case and diacritics
///    ignored, runs of spaces as one);
/// 4. the start of a folded label or of a lowercased id, when one option only has it.
/// A step that finds several options is ambiguous (`.several`), not a match.
public enum OptionMatching {
  /// What one option can be called: its ids (a checklist item's id and value, a button's
  /// block id) and its rendered label.
  public struct Names: Hashable, Sendable {
    public var ids: [String]
    public var label: String
    public init(ids: [String], label: String) {
      self.ids = ids
      self.label = label
    }
  }

  public enum Outcome: Hashable, Sendable {
    case one(Int)
    /// The answer names several options (their indices, in order): type more.
    case several([Int])
    case none
  }

  /// Which option `text` names. `prefixes: false` stops after step 3 (exact names only).
  public static func match(_ text: String, among options: [Names], prefixes: Bool = true) -> Outcome {
    let typed = text.trimmingWhitespace
    guard !typed.isEmpty else { return .none }
    if let exact = options.firstIndex(where: { $0.ids.contains(typed) }) { return .one(exact) }
    let lowered = typed.lowercased()
    let folded = Self.folded(typed)
    let steps: [(Names) -> Bool] = [
      { $0.ids.contains { $0.lowercased() == lowered } },
      { !folded.isEmpty && Self.folded($0.label) == folded },
    ]
    for step in steps {
      let found = options.indices.filter { step(options[$0]) }
      if found.count == 1 { return .one(found[0]) }
      if found.count > 1 { return .several(found) }
    }
    guard prefixes, !folded.isEmpty else { return .none }
    let found = options.indices.filter { index in
      Self.folded(options[index].label).hasPrefix(folded)
        || options[index].ids.contains { $0.lowercased().hasPrefix(lowered) }
    }
    switch found.count {
    case 0: return .none
    case 1: return .one(found[0])
    default: return .several(found)
    }
  }

  /// The label as a person types it: without the leading emoji and symbols it starts with
  /// (`💪 Strength` → `Strength`), trimmed. A label of symbols only stays as it is.
  public static func typedForm(_ label: String) -> String {
    let trimmed = label.trimmingWhitespace
    guard let start = trimmed.firstIndex(where: isWordCharacter) else { return trimmed }
    return String(trimmed[start...])
  }

  /// `text` as labels are compared: `typedForm`, lowercased, accents and other marks removed
  /// (`Café` → `cafe`, `Ærø` → `aero`), each run of whitespace one space.
  public static func folded(_ text: String) -> String {
    var result = ""
    var pendingSpace = false
    for scalar in typedForm(text).lowercased().unicodeScalars {
      if scalar.properties.isWhitespace {
        pendingSpace = !result.isEmpty
        continue
      }
      if scalar.isASCII {
        if pendingSpace { result.append(" ") }
        pendingSpace = false
        result.unicodeScalars.append(scalar)
        continue
      }
      // Combining marks (a decomposed accent) are dropped; a precomposed Latin letter becomes
      // its base letter, read from its Unicode name (the standard library has no decomposition).
      if scalar.properties.canonicalCombiningClass != .notReordered
        || scalar.properties.generalCategory == .nonspacingMark
      {
        continue
      }
      if pendingSpace { result.append(" ") }
      pendingSpace = false
      if let base = latinBase(of: scalar) {
        result += base
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// `é` (LATIN SMALL LETTER E WITH ACUTE) → `e`, `æ` (LATIN SMALL LETTER AE) → `ae`; nil for
  /// anything else.
  static func latinBase(of scalar: Unicode.Scalar) -> String? {
    guard let name = scalar.properties.name else { return nil }
    let prefixes = ["LATIN SMALL LETTER ", "LATIN CAPITAL LETTER "]
    guard let prefix = prefixes.first(where: name.hasPrefix) else { return nil }
    let letters = name.dropFirst(prefix.count).prefix { $0 != " " }
    guard (1...2).contains(letters.count), letters.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
    return letters.lowercased()
  }

  static func isWordCharacter(_ character: Character) -> Bool {
    character.isLetter || character.isNumber
  }
}
