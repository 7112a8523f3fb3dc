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
    wrapSimple([run], width: width, prefix: prefix, continuation: continuation)
  }

  /// `wrapTokens` for runs of simple text (as `wrapWhole`), styled runs too (rich text): the
  /// same lines, whose runs of one style next to each other are one run (drawn the same:
  /// `StyledLine.text` merges them). Nil when a run holds other text.
  static func wrapSimple(
    _ runs: [StyledRun], width: Int, prefix: [StyledRun], continuation: [StyledRun]
  ) -> [StyledLine]? {
    var list = LineList()
    guard wrapSimple(runs, width: width, prefix: prefix, continuation: continuation, into: &list) else { return nil }
    return list.lines
  }

  /// `wrapSimple`'s lines handed to `sink`; false (and nothing handed over) when a run holds
  /// other text. `prefixWidth`, when given, is `prefix`'s columns (a feature card's side,
  /// measured once instead of at every text it wraps).
  static func wrapSimple<Sink: LineSink>(
    _ runs: [StyledRun], width: Int, prefix: [StyledRun], prefixWidth: Int? = nil, continuation: [StyledRun],
    into sink: inout Sink
  ) -> Bool {
    // One run (nearly every text) is its own text and bound: no list is made of it.
    var text = runs.count == 1 ? runs[0].text : ""
    var bounds: [(end: Int, style: TextStyle)] = []
    if runs.count > 1 {
      bounds.reserveCapacity(runs.count)
      for run in runs {
        text += run.text
        bounds.append((text.utf8.count, run.style))
      }
    }
    // One pass over the bytes: whether they hold a control (nearly never: then the runs are
    // sanitized and looked at again), are ASCII, and have a line break or two spaces in a row.
    var shape = text.withUTF8 { TextShape($0, tabIsControl: true) }
    if shape.control {
      (text, bounds) = ("", [])
      for run in runs {
        text += sanitize(run.text)
        bounds.append((text.utf8.count, run.style))
      }
      shape = text.withUTF8 { TextShape($0, tabIsControl: true) }
    }
    let ascii = shape.ascii
    // Words one space apart: no line break, no two spaces in a row, no space at either end.
    let spacedOnce =
      !shape.lineBreak && !shape.doubleSpace && text.utf8.first != 0x20 && text.utf8.last != 0x20
    // ASCII left by `sanitize` is printable but `\n`: a column a byte.
    guard let columns = ascii ? text.utf8.count : text.withUTF8(simpleColumns) else { return false }
    let leadWidth = prefixWidth ?? StyledLine(prefix).width
    func continuationWidth() -> Int { continuation == prefix ? leadWidth : StyledLine(continuation).width }
    // One run that fits after the prefix and has no line break and no space to drop or collapse
    // is the first line as it stands (labels, buttons, titles, short answers).
    if runs.count == 1, !text.isEmpty, spacedOnce, leadWidth + columns <= width {
      sink.startLine(prefix, leadWidth: leadWidth)
      text.withUTF8 { sink.append($0, runs[0].style) }
      sink.endLine()
      return true
    }
    if runs.count == 1, spacedOnce, !text.isEmpty {
      let continuationWidth = continuationWidth()
      // Handed over as found; taken back in the rare case of a word wider than a line.
      let mark = sink.mark()
      var first = true
      let spaced = text.withUTF8 { bytes in
        spacedLines(bytes, ascii: ascii, width: width, leadWidth: leadWidth, continuationWidth: continuationWidth) {
          from, to in
          first
            ? sink.startLine(prefix, leadWidth: leadWidth) : sink.startLine(continuation, leadWidth: continuationWidth)
          sink.append(UnsafeBufferPointer(rebasing: bytes[from..<to]), runs[0].style)
          sink.endLine()
          first = false
        }
      }
      if spaced { return true }
      sink.rollBack(to: mark)
    }
    if bounds.isEmpty, let run = runs.first { bounds = [(text.utf8.count, run.style)] }
    var wrapper = SimpleTextWrapper(
      width: width, bounds: bounds, lead: prefix, leadWidth: leadWidth, continuation: continuation,
      continuationWidth: continuationWidth(), ascii: ascii)
    text.withUTF8 { wrapper.wrap($0, into: &sink) }
    return true
  }

  /// The lines of one run of simple text whose words are one space apart (no line break, no
  /// space at either end), the text of nearly every block and header, as ranges of the source
  /// handed to `line`: each found by its first and last word, so a word costs its width and a
  /// comparison, not a place in a run. False when a word is wider than an empty line (the
  /// wrapper cuts it).
  private static func spacedLines(
    _ bytes: UnsafeBufferPointer<UInt8>, ascii: Bool, width: Int, leadWidth: Int, continuationWidth: Int,
    line: (Int, Int) -> Void
  ) -> Bool {
    var leadWidth = leadWidth
    // The current line's text is `lineStart..<lineEnd` of the source, `bodyWidth` columns.
    var (lineStart, lineEnd, wordStart, bodyWidth) = (0, 0, 0, 0)
    var spaces = SpaceScan(bytes)
    while true {
      let index = spaces.next()
      let wordWidth = ascii ? index - wordStart : columns(bytes, wordStart, index)
      if lineEnd > lineStart, leadWidth + bodyWidth + 1 + wordWidth <= width {
        lineEnd = index
        bodyWidth += 1 + wordWidth
      } else {
        if lineEnd > lineStart {
          line(lineStart, lineEnd)
          leadWidth = continuationWidth
        }
        guard leadWidth + wordWidth <= width else { return false }
        (lineStart, lineEnd, bodyWidth) = (wordStart, index, wordWidth)
      }
      wordStart = index + 1
      if index == bytes.count { break }
    }
    line(lineStart, lineEnd)
    return true
  }
}

/// The spaces of text one after the other, found eight bytes at a time (a word's spaces are a
/// mask of marked bytes, `ByteWords.bytes`): the bytes between two are not looked at one by one.
private struct SpaceScan {
  let bytes: UnsafeBufferPointer<UInt8>
  var cursor = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// The offset of the next space, or the end of the text.
  mutating func next() -> Int {
    let count = bytes.count
    guard let base = bytes.baseAddress else { return count }
    var index = cursor
    while index + 8 <= count {
      let spaces = ByteWords.bytes(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self), equalTo: 0x20)
      if spaces != 0 {
        index += spaces.trailingZeroBitCount / 8
        cursor = index + 1
        return index
      }
      index += 8
    }
    while index < count, base[index] != 0x20 { index += 1 }
    cursor = index + 1
    return index
  }
}

/// The columns of `from..<to` of simple text: a column a scalar, none for C1 controls and the
/// soft hyphen, as `SimpleTextWrapper` counts them.
private func columns(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Int {
  var count = 0
  for index in from..<to where bytes[index] & 0xC0 != 0x80 {
    if !takesNoColumn(bytes, index, end: to) { count += 1 }
  }
  return count
}

/// Whether the scalar whose first byte is at `index` (before `end`) is U+0080–U+009F or U+00AD
/// (C2 80–9F, C2 AD): a C1 control or the soft hyphen, which take no column.
private func takesNoColumn(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, end: Int) -> Bool {
  bytes[index] == 0xC2 && index + 1 < end && (bytes[index + 1] <= 0x9F || bytes[index + 1] == 0xAD)
}

/// The state of `wrapSimple` over the runs' bytes, one after the other. A line's text is
/// ranges of the source handed to the sink as they close (not a piece appended per word); a
/// range grows while its words are one space apart in the source and of one style; where the
/// source spaces them further apart the spaces collapse to one.
private struct SimpleTextWrapper {
  let width: Int
  /// Where each run ends in the bytes, and its style.
  let bounds: [(end: Int, style: TextStyle)]
  var lead: [StyledRun]
  var leadWidth: Int
  let continuation: [StyledRun]
  let continuationWidth: Int
  /// Every byte a column (else: a column per scalar, none for C1 controls and the soft hyphen).
  let ascii: Bool
  /// Whether the current line has been started in the sink (with its lead).
  var started = false
  /// The current line's last piece, still open: `start..<end` of the source, of `style`.
  var style: TextStyle = []
  var start = 0
  var end = 0
  var isOpen = false
  var bodyWidth = 0
  var hasContent = false
  var runIndex = 0

  init(
    width: Int, bounds: [(end: Int, style: TextStyle)], lead: [StyledRun], leadWidth: Int,
    continuation: [StyledRun], continuationWidth: Int, ascii: Bool
  ) {
    self.width = width
    self.bounds = bounds
    self.lead = lead
    self.leadWidth = leadWidth
    self.continuation = continuation
    self.continuationWidth = continuationWidth
    self.ascii = ascii
  }

  mutating func wrap<Sink: LineSink>(_ bytes: UnsafeBufferPointer<UInt8>, into sink: inout Sink) {
    var wordStart = 0
    for index in 0...bytes.count {
      let byte: UInt8 = index < bytes.count ? bytes[index] : 0x20
      guard byte == 0x20 || byte == 0x0A else { continue }
      if wordStart < index { add(wordStart, index, bytes, &sink) }
      if byte == 0x0A { breakLine(force: true, bytes, &sink) }
      wordStart = index + 1
    }
    if hasContent { breakLine(force: false, bytes, &sink) }
  }

  /// The columns of the scalar whose first byte is at `index`, and where the next one starts.
  private func scalar(at index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> (width: Int, next: Int) {
    if ascii { return (1, index + 1) }
    var next = index + 1
    while next < bytes.count, bytes[next] & 0xC0 == 0x80 { next += 1 }
    return (takesNoColumn(bytes, index, end: next) ? 0 : 1, next)
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

  /// The run holding the byte at `offset` (words come in order: the search goes on from the
  /// last one, and skips empty runs).
  private mutating func run(at offset: Int) -> Int {
    while bounds[runIndex].end <= offset { runIndex += 1 }
    return runIndex
  }

  /// `body` for the piece of `from..<to` in each run it crosses, with that run's style (a list
  /// of the pieces, made per word, was most of the wrapping).
  private mutating func forEachPiece(
    _ from: Int, _ to: Int, _ body: (inout Self, Int, Int, TextStyle) -> Void
  ) {
    var cursor = from
    while cursor < to {
      let index = run(at: cursor)
      let end = min(bounds[index].end, to)
      body(&self, cursor, end, bounds[index].style)
      cursor = end
    }
  }

  private mutating func startLine<Sink: LineSink>(_ sink: inout Sink) {
    guard !started else { return }
    sink.startLine(lead, leadWidth: leadWidth)
    started = true
  }

  /// Hands the open piece to the sink.
  private mutating func close<Sink: LineSink>(_ bytes: UnsafeBufferPointer<UInt8>, _ sink: inout Sink) {
    guard isOpen else { return }
    startLine(&sink)
    sink.append(UnsafeBufferPointer(rebasing: bytes[start..<end]), style)
    isOpen = false
  }

  /// Puts `from..<to` of the source, of `style`, after the line's text.
  private mutating func place<Sink: LineSink>(
    _ from: Int, _ to: Int, _ style: TextStyle, _ bytes: UnsafeBufferPointer<UInt8>, _ sink: inout Sink
  ) {
    if isOpen, style == self.style, from == end {
      end = to
      return
    }
    close(bytes, &sink)
    (isOpen, self.style, start, end) = (true, style, from, to)
  }

  /// The space joining two words: of the style both have, else unstyled (as `LineBuilder`).
  private mutating func placeSpace<Sink: LineSink>(
    before next: TextStyle, _ bytes: UnsafeBufferPointer<UInt8>, _ sink: inout Sink
  ) {
    let style: TextStyle = isOpen && self.style == next ? next : []
    if isOpen, style == self.style, end < bytes.count, bytes[end] == 0x20 {
      end += 1
      return
    }
    close(bytes, &sink)
    startLine(&sink)
    sink.appendSpace(style)
  }

  private mutating func breakLine<Sink: LineSink>(
    force: Bool, _ bytes: UnsafeBufferPointer<UInt8>, _ sink: inout Sink
  ) {
    close(bytes, &sink)
    if hasContent || force {
      startLine(&sink)
      sink.endLine()
    }
    (lead, leadWidth, bodyWidth, hasContent, started) = (continuation, continuationWidth, 0, false, false)
  }

  private mutating func add<Sink: LineSink>(
    _ from: Int, _ to: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ sink: inout Sink
  ) {
    let wordWidth = columns(from, to, bytes)
    if hasContent {
      if leadWidth + bodyWidth + 1 + wordWidth <= width {
        placeSpace(before: bounds[run(at: from)].style, bytes, &sink)
        forEachPiece(from, to) { wrapper, from, to, style in wrapper.place(from, to, style, bytes, &sink) }
        bodyWidth += 1 + wordWidth
        return
      }
      breakLine(force: false, bytes, &sink)
    }
    if leadWidth + bodyWidth + wordWidth <= width {
      forEachPiece(from, to) { wrapper, from, to, style in wrapper.place(from, to, style, bytes, &sink) }
      bodyWidth += wordWidth
      hasContent = true
      return
    }
    // Too wide for an empty line: cut between characters (each scalar is one here).
    forEachPiece(from, to) { wrapper, from, to, style in wrapper.hardWrap(from, to, style, bytes, &sink) }
  }

  /// A piece of a word too wide for an empty line, cut where the line is full.
  private mutating func hardWrap<Sink: LineSink>(
    _ from: Int, _ to: Int, _ style: TextStyle, _ bytes: UnsafeBufferPointer<UInt8>, _ sink: inout Sink
  ) {
    var segment = from
    var index = from
    while index < to {
      let (w, next) = scalar(at: index, bytes)
      if (hasContent || segment < index) && leadWidth + bodyWidth + w > width {
        if segment < index { place(segment, index, style, bytes, &sink) }
        segment = index
        hasContent = true
        breakLine(force: false, bytes, &sink)
      }
      bodyWidth += w
      index = next
    }
    if segment < to {
      place(segment, to, style, bytes, &sink)
      hasContent = true
    }
  }
}
