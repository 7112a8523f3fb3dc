import FlowEngine
import FlowExpression
import FlowFormat

/// How a recording writes a secret answer, and what a replay types for it (docs/security.md).
///
/// A recording never holds a secret: it writes the placeholder `••••` (`SecretPolicy.mask`),
/// followed by ` (MESSAGE)` when the field's validation rejected the answer at that moment
/// (`•••• (Must be at least 8 characters)`). A replay types a stand-in with the same validation
/// outcome, so it takes the recorded path: the first of a fixed list of candidates that passes
/// (plain placeholder) or fails with that very message. When none does, the first candidate is
/// typed anyway and the replay shows the field's own message. Rules that branch on the secret's
/// value itself are not reproduced (write the value in the script for those).
enum SecretStandIn {
  /// The placeholder for an answer whose validation gave `message` (nil: it passed).
  static func placeholder(validationMessage message: String?) -> Value {
    .string(SecretPolicy.mask + (message.map { " (\($0))" } ?? ""))
  }

  /// The validation outcome a placeholder asks for: `.some(nil)` for a valid stand-in,
  /// `.some(message)` for one that fails with `message`; nil when `value` is no placeholder.
  static func outcome(of value: Value) -> String?? {
    guard case .string(let text) = value, text.hasPrefix(SecretPolicy.mask) else { return nil }
    let rest = text.dropFirst(SecretPolicy.mask.count)
    if rest.isEmpty { return .some(nil) }
    guard rest.hasPrefix(" ("), rest.hasSuffix(")") else { return nil }
    return .some(String(rest.dropFirst(2).dropLast()))
  }

  /// The stand-in for a placeholder of `field` on the session's current screen (else any screen
  /// of the flow).
  static func value(for field: String, outcome message: String?, on session: Session) -> Value {
    guard let block = inputBlock(field, in: session), case .input(let input) = block.content else {
      return .string(letters(8))
    }
    let candidates = message == nil ? valid(for: input) : valid(for: input) + invalid(for: input)
    return candidates.first { session.validationMessage(of: block, holding: $0) == message } ?? candidates.first
      ?? .string(letters(8))
  }

  static func inputBlock(_ field: String, in session: Session) -> Block? {
    func isInput(_ block: Block) -> Bool {
      if case .input = block.content { return block.fieldName == field }
      return false
    }
    if let block = session.currentScreen.content.flatBlocks.first(where: isInput) { return block }
    for screen in session.currentFlow.screens {
      if let block = screen.content.flatBlocks.first(where: isInput) { return block }
    }
    return nil
  }

  /// Candidates meant to pass, by input type; free text tries mixed characters, then digits
  /// only (PINs), then letters, each at the lengths the field allows.
  static func valid(for input: InputBlock) -> [Value] {
    switch input.kind {
    case .email: return [.string("secret@example.com")]
    case .phone: return [.string("+15550100")]
    case .url: return [.string("https://example.com/secret")]
    case .date: return [.string("2000-01-01")]
    case .location: return [.string("New York")]
    case .time, .datetime, .color, .range: return ValueShapes.sample(input).map { [.string($0)] } ?? []
    case .number: return [input.min ?? 0, input.max ?? 0, 1].map { .number($0) }
    case .text, .password:
      let low = max(input.minLength ?? 0, 1)
      let high = max(input.maxLength ?? Int.max, low)
      let bounds = [input.minLength, input.maxLength].compactMap { $0 }.filter { $0 < 10_000 }
      return texts(lengths: ([12, 8, 6, 4] + bounds).filter { (low...high).contains($0) })
    }
  }

  /// Candidates meant to fail: blank (required), too short, too long, and text of every shape
  /// (a pattern or a format that some of them miss).
  static func invalid(for input: InputBlock) -> [Value] {
    var lengths = [1, 3]
    if let minLength = input.minLength, minLength > 1 { lengths.append(minLength - 1) }
    if let maxLength = input.maxLength, maxLength < 10_000 { lengths.append(maxLength + 1) }
    var out: [Value] = [.string("   ")]
    out += texts(lengths: lengths)
    if input.kind == .number {
      out += [input.min.map { $0 - 1 }, input.max.map { $0 + 1 }].compactMap { $0 }.map { .number($0) }
    }
    return out
  }

  static func texts(lengths: [Int]) -> [Value] {
    var unique: [Int] = []
    for length in lengths where !unique.contains(length) { unique.append(length) }
    return [mixed, digits, letters].flatMap { make in unique.map { .string(make($0)) } }
  }

  static func mixed(_ length: Int) -> String { cycle("Aa1!", length) }
  static func digits(_ length: Int) -> String { cycle("1234567890", length) }
  static func letters(_ length: Int) -> String { cycle("secret", length) }

  private static func cycle(_ pattern: String, _ length: Int) -> String {
    String(String(repeating: pattern, count: length / pattern.count + 1).prefix(length))
  }
}
