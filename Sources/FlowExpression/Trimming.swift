extension StringProtocol {
  /// The text without leading and trailing whitespace (`Character.isWhitespace`: spaces, tabs,
  /// line breaks, no-break spaces): how typed answers, labels and commands are compared.
  public var trimmingWhitespace: String {
    // Fast path: starting and ending with a visible ASCII character, nothing can be trimmed (a
    // grapheme cluster ending in such a byte is that character alone or starts with a
    // non-whitespace scalar). Answers and labels usually do.
    var text = Substring(self)
    let utf8 = text.utf8
    if let first = utf8.first, let last = utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
      return String(text)
    }
    while let first = text.first, first.isWhitespace { text.removeFirst() }
    while let last = text.last, last.isWhitespace { text.removeLast() }
    return String(text)
  }

  /// The text without leading and trailing U+0020 spaces only: what Sequence trims (a field
  /// label's spaces, a number's padding), keeping tabs and line breaks.
  public var trimmingSpaces: String {
    var text = Substring(self)
    while text.first == " " { text.removeFirst() }
    while text.last == " " { text.removeLast() }
    return String(text)
  }
}
