import FlowEngine
import FlowExpression
import FlowFormat

/// What a replay types for a secret that a recording wrote as `SecretPolicy.mask`: the first of
/// a fixed list of stand-ins that passes the field's validation (docs/security.md). When none
/// does, the first is typed anyway and the field's own validation message says why.
enum SecretStandIn {
  /// The stand-in for `field` on the session's current screen (else any screen of the flow).
  static func value(for field: String, on session: Session) -> Value {
    guard let block = inputBlock(field, in: session), case .input(let input) = block.content else {
      return .string(letters(8))
    }
    let candidates = candidates(for: input)
    return candidates.first { session.validationMessage(of: block, holding: $0) == nil } ?? candidates[0]
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

  /// Candidates by input type; free text tries mixed characters, then digits only (PINs), then
  /// letters, each at the lengths the field allows.
  static func candidates(for input: InputBlock) -> [Value] {
    switch input.kind {
    case .email: return [.string("secret@example.com")]
    case .phone: return [.string("+15550100")]
    case .url: return [.string("https://example.com/secret")]
    case .date: return [.string("2000-01-01")]
    case .number:
      return [input.min ?? 0, input.max ?? 0, 1].map { .number($0) }
    case .text, .password:
      let low = max(input.minLength ?? 0, 1)
      let high = max(input.maxLength ?? Int.max, low)
      var lengths: [Int] = []
      for length in [12, 8, 6, 4, low, high] where (low...high).contains(length) && !lengths.contains(length) {
        lengths.append(length)
      }
      return [mixed, digits, letters].flatMap { make in lengths.map { .string(make($0)) } }
    }
  }

  static func mixed(_ length: Int) -> String { cycle("Aa1!", length) }
  static func digits(_ length: Int) -> String { cycle("1234567890", length) }
  static func letters(_ length: Int) -> String { cycle("secret", length) }

  private static func cycle(_ pattern: String, _ length: Int) -> String {
    String(String(repeating: pattern, count: length / pattern.count + 1).prefix(length))
  }
}
