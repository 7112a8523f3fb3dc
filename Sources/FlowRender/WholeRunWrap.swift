import FlowSupport

extension TextWrapper {
  /// `wrapTokens` for one run of ASCII or one-scalar characters (Latin, dashes, box drawing:
  /// `DisplayWidth.simpleScalarsWidth`), the text of almost every screen: the same lines, cut
  /// at byte offsets, each line's text after its prefix kept as one run instead of a run per
  /// word and joining space (the words and spaces all have the run's style, so the drawn text
  /// is the same). Nil for other text.
  static func wrapWhole(
    _ run: StyledRun, width: Int, prefix: [StyledRun], continuation: [StyledRun]
  ) -> [StyledLine]? {
    var text = sanitize(run.text)
    let utf8 = text.utf8
    // ASCII left by `sanitize` is printable but `\n`: a column a byte.
    let ascii = utf8.allSatisfy { $0 < 0x80 }
    guard let columns = ascii ? utf8.count : DisplayWidth.simpleScalarsWidth(text) else { return nil }
    let leadWidth = StyledLine(prefix).width
    // Text that fits after the prefix and has no line break and no space to drop or collapse
    // is the first line as it stands (labels, buttons, titles, short answers).
    if !text.isEmpty, leadWidth + columns <= width, utf8.first != 0x20, utf8.last != 0x20,
      !zip(utf8, utf8.dropFirst()).contains(where: { $0 == 0x0A || ($0 == 0x20 && $1 == 0x20) }), utf8.last != 0x0A
    {
      var line = StyledLine(prefix)
      line.append(text, run.style)
      return [line]
    }
    var wrapper = WholeRunWrapper(
      width: width, style: run.style, lead: prefix, leadWidth: leadWidth, continuation: continuation, ascii: ascii)
    text.withUTF8 { wrapper.wrap($0) }
    return wrapper.lines
  }
}

/// The state of `wrapWhole` over the text's bytes. A line's text is a range of the source
/// (one string made per line, not a piece appended per word) while its words are one space
/// apart there; a line whose words the source spaces further apart (the spaces collapse to one)
/// is built word by word.
private struct WholeRunWrapper {
  let width: Int
  let style: TextStyle
  var lead: [StyledRun]
  var leadWidth: Int
  let continuation: [StyledRun]
  let continuationWidth: Int
  /// Every byte a column (else: a column per scalar, none for C1 controls and the soft hyphen).
  let ascii: Bool
  var lines: [StyledLine] = []
  /// The current line's text: `start..<end` of the source, or `built` once the words are not
  /// one space apart there.
  var start = 0
  var end = 0
  var built: String?
  var bodyWidth = 0
  var hasContent = false

  init(
    width: Int, style: TextStyle, lead: [StyledRun], leadWidth: Int, continuation: [StyledRun], ascii: Bool
  ) {
    self.width = width
    self.style = style
    self.lead = lead
    self.leadWidth = leadWidth
    self.continuation = continuation
    continuationWidth = StyledLine(continuation).width
    self.ascii = ascii
  }

  mutating func wrap(_ bytes: UnsafeBufferPointer<UInt8>) {
    var wordStart = 0
    for index in 0...bytes.count {
      let byte: UInt8 = index < bytes.count ? bytes[index] : 0x20
      guard byte == 0x20 || byte == 0x0A else { continue }
      if wordStart < index { add(wordStart, index, bytes) }
      if byte == 0x0A { breakLine(force: true, bytes) }
      wordStart = index + 1
    }
    if hasContent { breakLine(force: false, bytes) }
  }

  /// The columns of the scalar whose first byte is at `index`, and where the next one starts.
  private func scalar(at index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> (width: Int, next: Int) {
    if ascii { return (1, index + 1) }
    var next = index + 1
    while next < bytes.count, bytes[next] & 0xC0 == 0x80 { next += 1 }
    // U+0080–U+009F and U+00AD (C2 80–9F, C2 AD) take no column.
    let zero = bytes[index] == 0xC2 && next == index + 2 && (bytes[index + 1] <= 0x9F || bytes[index + 1] == 0xAD)
    return (zero ? 0 : 1, next)
  }

  private func columns(_ from: Int, _ to: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    if ascii { return to - from }
    var count = 0
    var index = from
    while index < to {
      let (w, next) = scalar(at: index, bytes)
      count += w
      index = next
    }
    return count
  }

  private static func string(_ from: Int, _ to: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
  }

  private mutating func breakLine(force: Bool, _ bytes: UnsafeBufferPointer<UInt8>) {
    if hasContent || force {
      var line = StyledLine(lead)
      if let built {
        if !built.isEmpty { line.append(built, style) }
      } else if start < end {
        line.append(Self.string(start, end, bytes), style)
      }
      lines.append(line)
    }
    (lead, leadWidth, built, start, end, bodyWidth, hasContent) = (continuation, continuationWidth, nil, 0, 0, 0, false)
  }

  /// Puts `from..<to` of the source after the line's text (`spaced`: after a joining space).
  private mutating func place(_ from: Int, _ to: Int, spaced: Bool, _ bytes: UnsafeBufferPointer<UInt8>) {
    if built == nil, start == end {
      (start, end) = (from, to)
    } else if built == nil, spaced ? from == end + 1 : from == end {
      end = to
    } else {
      var text = built ?? Self.string(start, end, bytes)
      if spaced { text += " " }
      text += Self.string(from, to, bytes)
      built = text
    }
  }

  private mutating func add(_ from: Int, _ to: Int, _ bytes: UnsafeBufferPointer<UInt8>) {
    let wordWidth = columns(from, to, bytes)
    if hasContent {
      if leadWidth + bodyWidth + 1 + wordWidth <= width {
        place(from, to, spaced: true, bytes)
        bodyWidth += 1 + wordWidth
        return
      }
      breakLine(force: false, bytes)
    }
    if leadWidth + bodyWidth + wordWidth <= width {
      place(from, to, spaced: false, bytes)
      bodyWidth += wordWidth
      hasContent = true
      return
    }
    // Too wide for an empty line: cut between characters (each scalar is one here).
    var segment = from
    var index = from
    while index < to {
      let (w, next) = scalar(at: index, bytes)
      if (hasContent || segment < index) && leadWidth + bodyWidth + w > width {
        place(segment, index, spaced: false, bytes)
        segment = index
        hasContent = true
        breakLine(force: false, bytes)
      }
      bodyWidth += w
      index = next
    }
    if segment < to {
      place(segment, to, spaced: false, bytes)
      hasContent = true
    }
  }
}
