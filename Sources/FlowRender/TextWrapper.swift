import FlowSupport

/// Greedy word wrapping by display width, across styled runs.
///
/// Spaces separate words (runs of spaces collapse to one; leading spaces of a line are dropped);
/// `\n` forces a line break (an empty line stays empty). A word wider than the room left on an
/// empty line is hard-wrapped at grapheme boundaries, so no line is wider than `width` unless a
/// single character is wider than the room there is.
public enum TextWrapper {
  /// Plain text wrapped to `width` columns; the first line starts with `indent`, later ones
  /// with `continuationIndent` (default: as many spaces as `indent` is wide).
  public static func wrap(
    _ text: String, width: Int, indent: String = "", continuationIndent: String? = nil
  )
    -> [String]
  {
    wrap(
      [StyledRun(text)], width: width, prefix: [StyledRun(indent)],
      continuation: continuationIndent.map { [StyledRun($0)] }
    ).map { $0.text(color: false) }
  }

  /// Styled runs wrapped to `width`: the first line starts with `prefix`, later ones with
  /// `continuation` (default: as many spaces as `prefix` is wide).
  static func wrap(
    _ runs: [StyledRun], width: Int, prefix: [StyledRun] = [], continuation: [StyledRun]? = nil
  ) -> [StyledLine] {
    let continuation = continuation ?? [StyledRun(String(repeating: " ", count: StyledLine(prefix).width))]
    if let lines = wrapSimple(runs, width: width, prefix: prefix, continuation: continuation) { return lines }
    return wrapTokens(runs, width: width, prefix: prefix, continuation: continuation)
  }

  /// `wrap` word by word: any runs and any text.
  static func wrapTokens(
    _ runs: [StyledRun], width: Int, prefix: [StyledRun], continuation: [StyledRun]
  ) -> [StyledLine] {
    var builder = LineBuilder(width: width, prefix: prefix, continuation: continuation)
    forEachToken(runs) { token in
      switch token {
      case .word(let pieces): builder.add(word: pieces)
      case .space: builder.pendingSpace = true
      case .newline: builder.breakLine(force: true)
      }
    }
    builder.finish()
    return builder.lines
  }

  enum Token {
    case word([StyledRun])
    case space
    case newline
  }

  /// The words, spaces and line breaks of `runs`, handed over one at a time: a long text is
  /// never held as a list of tokens.
  static func forEachToken(_ runs: [StyledRun], _ body: (Token) -> Void) {
    var lastWasSpace = false
    func emit(_ token: Token) {
      if case .space = token {
        if lastWasSpace { return }
        lastWasSpace = true
      } else {
        lastWasSpace = false
      }
      body(token)
    }
    var word: [StyledRun] = []
    // The word's last piece is built here, not in `word`: appending to a string inside the
    // array copied it each time, quadratic in a long word (a long answer shown in a template).
    var piece = StyledRun("")
    func flush() {
      if !piece.text.isEmpty { word.append(piece) }
      if !word.isEmpty { emit(.word(word)) }
      word = []
      piece.text = ""
    }
    for run in runs {
      let text = sanitize(run.text)
      if text.utf8.allSatisfy({ $0 < 0x80 }) || DisplayWidth.simpleScalarsWidth(text) != nil {
        // ASCII, or scalars that are each a whole character (Latin, dashes, box drawing:
        // `sanitize` left no control but `\n`): spaces and newlines are single bytes no other
        // character holds or joins, so words are cut at byte offsets, not found by walking
        // grapheme clusters.
        forEachSimpleToken(text) { text in
          if piece.style != run.style {
            if !piece.text.isEmpty { word.append(piece) }
            piece = StyledRun("", run.style)
          }
          piece.text += text
        } separator: { byte in
          flush()
          emit(byte == 0x0A ? .newline : .space)
        }
        continue
      }
      for character in text {
        if character == "\n" {
          flush()
          emit(.newline)
        } else if character == " " || character == "\u{3000}" {
          flush()
          emit(.space)
        } else {
          if piece.style != run.style {
            if !piece.text.isEmpty { word.append(piece) }
            piece = StyledRun("", run.style)
          }
          piece.text.append(character)
        }
      }
    }
    flush()
  }

  /// The words of simple text (ASCII or one-scalar characters, as `sanitize` leaves it: no
  /// control but `\n`), cut at its space and newline bytes, and each such byte, in order.
  /// The separators are found in the contiguous bytes; a word's bounds become indices by
  /// offset (constant time in native UTF-8), not by stepping an index byte by byte.
  static func forEachSimpleToken(_ text: String, word: (Substring) -> Void, separator: (UInt8) -> Void) {
    let utf8 = text.utf8
    var copy = text
    copy.withUTF8 { bytes in
      var start = 0
      for offset in 0...bytes.count {
        let byte: UInt8 = offset < bytes.count ? bytes[offset] : 0
        guard byte == 0x20 || byte == 0x0A || offset == bytes.count else { continue }
        if start < offset {
          let from = utf8.index(utf8.startIndex, offsetBy: start)
          word(text[from..<utf8.index(from, offsetBy: offset - start)])
        }
        if offset == bytes.count { return }
        separator(byte)
        start = offset + 1
      }
    }
  }

  struct LineBuilder {
    let width: Int
    let prefix: [StyledRun]
    let continuation: [StyledRun]
    var lines: [StyledLine] = []
    var current: StyledLine
    var currentWidth: Int
    var hasContent = false
    var pendingSpace = false

    init(width: Int, prefix: [StyledRun], continuation: [StyledRun]) {
      self.width = width
      self.prefix = prefix
      self.continuation = continuation
      self.current = StyledLine(prefix)
      self.currentWidth = StyledLine(prefix).width
    }

    mutating func breakLine(force: Bool) {
      if hasContent || force { lines.append(current) }
      current = StyledLine(continuation)
      currentWidth = current.width
      hasContent = false
      pendingSpace = false
    }

    mutating func add(word: [StyledRun]) {
      let wordWidth = word.reduce(0) { $0 + DisplayWidth.of($1.text) }
      if hasContent {
        if currentWidth + 1 + wordWidth <= width {
          // The joining space takes the style both neighbours share, so styled runs stay whole.
          let before = current.runs.last?.style ?? []
          current.append(" ", before == word.first?.style ? before : [])
          currentWidth += 1
          place(word, wordWidth)
          return
        }
        breakLine(force: false)
      }
      if currentWidth + wordWidth <= width {
        place(word, wordWidth)
      } else {
        hardWrap(word)
      }
    }

    private mutating func place(_ word: [StyledRun], _ wordWidth: Int) {
      current.runs += word
      currentWidth += wordWidth
      hasContent = true
      pendingSpace = false
    }

    /// Splits a word too wide for an empty line at grapheme boundaries. The characters that
    /// go on one line make one run (a run per character made a long answer cost a run, and
    /// an allocation, for every character).
    private mutating func hardWrap(_ word: [StyledRun]) {
      for piece in word {
        var segment = ""
        for character in piece.text {
          let w = DisplayWidth.of(character)
          if (hasContent || !segment.isEmpty) && currentWidth + w > width {
            if !segment.isEmpty { current.append(segment, piece.style) }
            segment = ""
            hasContent = true
            breakLine(force: false)
          }
          segment.append(character)
          currentWidth += w
        }
        if !segment.isEmpty {
          current.append(segment, piece.style)
          hasContent = true
        }
      }
      pendingSpace = false
    }

    mutating func finish() {
      if hasContent { lines.append(current) }
    }
  }
}
