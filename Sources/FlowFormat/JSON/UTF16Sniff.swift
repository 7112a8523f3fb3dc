/// Whether a text's first two bytes say UTF-16: a byte order mark of either order, or a zero
/// byte beside a byte that may start the text (`startsText`: what the format's first character
/// can be). Flows and replay scripts both refuse UTF-16 by name rather than as stray bytes.
public func looksUTF16(_ first: UInt8, _ second: UInt8, startsText: (UInt8) -> Bool) -> Bool {
  (first == 0xFF && second == 0xFE) || (first == 0xFE && second == 0xFF)
    || (first == 0 && startsText(second)) || (second == 0 && startsText(first))
}
