import FlowSupport

/// Where the wrappers put the lines they make: a list of `StyledLine` values (`LineList`) or
/// the output bytes themselves (`Canvas`). A line is its lead (prefix or continuation), then
/// pieces of text; only how they are drawn matters, not how they are split into runs.
protocol LineSink {
  /// Starts a line with its lead, `leadWidth` columns wide.
  mutating func startLine(_ lead: [StyledRun], leadWidth: Int)
  /// Bytes of simple UTF-8 text (no control but what the caller allows) after the line's text.
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, _ style: TextStyle)
  /// One space, of `style`, after the line's text.
  mutating func appendSpace(_ style: TextStyle)
  /// Ends the line started last.
  mutating func endLine()
  associatedtype Mark
  /// Where the lines stand between two, to go back to when a way of wrapping gives up.
  func mark() -> Mark
  mutating func rollBack(to mark: Mark)
}

/// Lines collected as `StyledLine` values (`TextWrapper.wrap`): pieces of one style that follow
/// each other make one run.
struct LineList: LineSink {
  var lines: [StyledLine] = []
  private var runs: [StyledRun] = []
  private var piece = StyledRun("")

  mutating func startLine(_ lead: [StyledRun], leadWidth: Int) { runs = lead }

  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, _ style: TextStyle) {
    add(String(decoding: bytes, as: UTF8.self), style)
  }

  mutating func appendSpace(_ style: TextStyle) { add(" ", style) }

  private mutating func add(_ text: String, _ style: TextStyle) {
    if !piece.text.isEmpty, piece.style != style { runs.append(piece) }
    if piece.text.isEmpty || piece.style != style {
      piece = StyledRun(text, style)
    } else {
      piece.text += text
    }
  }

  func mark() -> Int { lines.count }

  mutating func rollBack(to mark: Int) {
    lines.removeSubrange(mark...)
    (runs, piece) = ([], StyledRun(""))
  }

  mutating func endLine() {
    if !piece.text.isEmpty { runs.append(piece) }
    piece = StyledRun("")
    lines.append(StyledLine(runs))
    runs = []
  }
}

/// Lines drawn straight into the output bytes, as `[StyledLine].text(color:)` draws them (a
/// line per `StyledLine` value, its array of runs and their strings, was a third of drawing a
/// big flow). The line being drawn stays open until `finishLine`: its text is in `bytes` from
/// `lineStart`, its runs (merged by style) in `runs`; finishing cuts its trailing spaces and,
/// with colour, writes its styled runs in their place.
struct Canvas: LineSink {
  var bytes: [UInt8] = []
  let color: Bool
  /// Lines finished so far.
  private(set) var lineCount = 0
  private(set) var isOpen = false
  private var lineStart = 0
  /// The open line's runs, the first `runCount`: where each ends in `bytes` and its style
  /// (counted, not emptied: emptying the array per line cost more than drawing a short one).
  private var runs: [(end: Int, style: TextStyle)] = []
  private var runCount = 0
  /// While set, the open line's columns are counted as it is drawn (`columns`).
  private var counting = false
  private var measuring: Bool { counting || box != nil }
  /// The open line's columns, while measured (`StyledLine.width`).
  private(set) var columns = 0
  /// While set, every line is closed as a box's: padded with spaces to `columns`, then `tail`.
  var box: (columns: Int, tail: [StyledRun])?
  /// The styled line's text, copied out while its styled runs are written back.
  private var scratch: [UInt8] = []

  init(color: Bool) { self.color = color }

  struct Mark {
    fileprivate let count: Int
    fileprivate let lines: Int
  }

  /// Where drawing stands between lines, to go back to when what follows draws nothing.
  func mark() -> Mark {
    precondition(!isOpen, "a mark is taken between lines")
    return Mark(count: bytes.count, lines: lineCount)
  }

  mutating func rollBack(to mark: Mark) {
    bytes.removeSubrange(mark.count...)
    (lineCount, isOpen) = (mark.lines, false)
  }

  /// Counts the columns of the line opened next (`columns`), as `StyledLine.width` does.
  mutating func measure(_ on: Bool) { counting = on }

  private mutating func open() {
    guard !isOpen else { return }
    (isOpen, lineStart, columns, runCount) = (true, bytes.count, 0, 0)
  }

  private mutating func noteRun(_ style: TextStyle) {
    if runCount > 0, runs[runCount - 1].style == style {
      runs[runCount - 1].end = bytes.count
      return
    }
    if runCount < runs.count {
      runs[runCount] = (bytes.count, style)
    } else {
      runs.append((bytes.count, style))
    }
    runCount += 1
  }

  mutating func append(_ text: String, _ style: TextStyle = []) {
    open()
    guard !text.isEmpty else { return }
    bytes += text.utf8
    noteRun(style)
    if measuring { columns += StyledLine.columns(text) }
  }

  mutating func append(_ text: UnsafeBufferPointer<UInt8>, _ style: TextStyle) {
    open()
    guard !text.isEmpty else { return }
    bytes.append(contentsOf: text)
    noteRun(style)
    if measuring {
      columns +=
        isPrintableASCII(text)
        ? text.count : simpleColumns(text) ?? DisplayWidth.of(String(decoding: text, as: UTF8.self))
    }
  }

  mutating func append(_ runs: [StyledRun]) {
    open()
    for run in runs { append(run.text, run.style) }
  }

  mutating func appendSpace(_ style: TextStyle) {
    open()
    bytes.append(0x20)
    noteRun(style)
    if measuring { columns += 1 }
  }

  /// A wrapped line begins: the line before it (if one is open) is finished first.
  mutating func startLine(_ lead: [StyledRun], leadWidth: Int) {
    if isOpen { finishLine() }
    open()
    appendUnmeasured(lead)
    columns = leadWidth
  }

  /// `runs` appended as they are, their width not counted (the caller knows it).
  private mutating func appendUnmeasured(_ runs: [StyledRun]) {
    for run in runs where !run.text.isEmpty {
      bytes += run.text.utf8
      noteRun(run.style)
    }
  }

  /// A wrapped line stays open when the wrapper ends it: the caller may add to the last one.
  mutating func endLine() {}

  /// `line` as a line of its own.
  mutating func write(_ line: StyledLine) {
    append(line.runs)
    finishLine()
  }

  mutating func write(_ lines: [StyledLine]) {
    for line in lines { write(line) }
  }

  /// `TextWrapper.wrap`'s lines, drawn here; the last one stays open. The number of lines.
  /// `prefixWidth`, when given, is `prefix`'s columns.
  @discardableResult
  mutating func wrap(
    _ runs: [StyledRun], width: Int, prefix: [StyledRun] = [], prefixWidth: Int? = nil,
    continuation: [StyledRun]? = nil
  ) -> Int {
    precondition(!isOpen, "a wrapped text starts on a line of its own")
    let continuation = continuation ?? (prefix.isEmpty ? [] : [StyledRun(Self.spaces(StyledLine(prefix).width))])
    let before = lineCount
    if TextWrapper.wrapSimple(
      runs, width: width, prefix: prefix, prefixWidth: prefixWidth, continuation: continuation, into: &self)
    {
      return lineCount - before + (isOpen ? 1 : 0)
    }
    let lines = TextWrapper.wrapTokens(runs, width: width, prefix: prefix, continuation: continuation)
    for line in lines {
      if isOpen { finishLine() }
      append(line.runs)
    }
    return lines.count
  }

  /// `wrap`, its last line finished too.
  mutating func wrapLines(
    _ runs: [StyledRun], width: Int, prefix: [StyledRun] = [], prefixWidth: Int? = nil,
    continuation: [StyledRun]? = nil
  ) {
    if wrap(runs, width: width, prefix: prefix, prefixWidth: prefixWidth, continuation: continuation) > 0 {
      finishLine()
    }
  }

  /// Ends the open line (an empty line when none is open): its trailing spaces cut, its runs
  /// styled when `color`, a line feed after it.
  mutating func finishLine() {
    open()
    if let box {
      append(Self.spaces(max(0, box.columns - columns)))
      // The tail ends the line: appended without measuring it.
      appendUnmeasured(box.tail)
    }
    isOpen = false
    lineCount += 1
    var end = bytes.count
    while end > lineStart, bytes[end - 1] == 0x20 { end -= 1 }
    // Before trailing spaces, a character other than ASCII may join a space into itself (a
    // prepended mark): that line is trimmed character by character, by `StyledLine.text`.
    if end < bytes.count, end > lineStart, bytes[end - 1] >= 0x80 {
      let line = StyledLine(openRuns())
      bytes.removeSubrange(lineStart...)
      bytes += line.text(color: color).utf8
    } else if color {
      writeStyled(end)
    } else if end < bytes.count {
      bytes.removeSubrange(end...)
    }
    bytes.append(0x0A)
  }

  /// The open line's runs as values.
  private func openRuns() -> [StyledRun] {
    var start = lineStart
    return runs[..<runCount].map { run in
      defer { start = run.end }
      return StyledRun(String(decoding: bytes[start..<run.end], as: UTF8.self), run.style)
    }
  }

  /// The open line's text up to `end`, each run between its SGR sequences (`StyledLine.text`).
  private mutating func writeStyled(_ end: Int) {
    scratch.removeAll(keepingCapacity: true)
    scratch += bytes[lineStart..<end]
    bytes.removeSubrange(lineStart...)
    var start = 0
    for run in runs[..<runCount] {
      let to = min(run.end, end) - lineStart
      guard to > start else { break }
      let codes = run.style.sgr
      if codes.isEmpty {
        bytes += scratch[start..<to]
      } else {
        bytes += "\u{1B}[\(codes.joined(separator: ";"))m".utf8
        bytes += scratch[start..<to]
        bytes += "\u{1B}[0m".utf8
      }
      start = to
    }
  }
}

extension Canvas {
  /// Padding inside a feature card (at most 56 columns): `String(repeating:count:)` cost more
  /// than the rest of the line.
  private static let paddings = (0...56).map { String(repeating: " ", count: $0) }

  static func spaces(_ count: Int) -> String {
    count < paddings.count ? paddings[count] : String(repeating: " ", count: count)
  }
}
