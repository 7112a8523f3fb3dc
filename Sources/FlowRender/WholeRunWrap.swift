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
    let text = sanitize(run.text)
    let utf8 = text.utf8
    // ASCII left by `sanitize` is printable but `\n`: a column a byte.
    guard let columns = utf8.allSatisfy({ $0 < 0x80 }) ? utf8.count : DisplayWidth.simpleScalarsWidth(text) else {
      return nil
    }
    var lead = prefix
    var leadWidth = StyledLine(prefix).width
    // Text that fits after the prefix and has no line break and no space to drop or collapse
    // is the first line as it stands (labels, buttons, titles, short answers).
    if !text.isEmpty, leadWidth + columns <= width, utf8.first != 0x20, utf8.last != 0x20,
      !zip(utf8, utf8.dropFirst()).contains(where: { $0 == 0x0A || ($0 == 0x20 && $1 == 0x20) }), utf8.last != 0x0A
    {
      var line = StyledLine(prefix)
      line.append(text, run.style)
      return [line]
    }
    var lines: [StyledLine] = []
    let continuationWidth = StyledLine(continuation).width
    var body = ""
    var bodyWidth = 0
    var hasContent = false
    func breakLine(force: Bool) {
      if hasContent || force {
        var line = StyledLine(lead)
        if !body.isEmpty { line.append(body, run.style) }
        lines.append(line)
      }
      (lead, leadWidth, body, bodyWidth, hasContent) = (continuation, continuationWidth, "", 0, false)
    }
    func add(_ word: Substring) {
      let wordWidth = DisplayWidth.of(word)
      if hasContent {
        if leadWidth + bodyWidth + 1 + wordWidth <= width {
          body += " "
          body += word
          bodyWidth += 1 + wordWidth
          return
        }
        breakLine(force: false)
      }
      if leadWidth + bodyWidth + wordWidth <= width {
        body += word
        bodyWidth += wordWidth
        hasContent = true
        return
      }
      // Too wide for an empty line: cut between characters (each scalar is one here).
      var segment = ""
      for scalar in word.unicodeScalars {
        let w = DisplayWidth.of(scalar)
        if (hasContent || !segment.isEmpty) && leadWidth + bodyWidth + w > width {
          body += segment
          segment = ""
          hasContent = true
          breakLine(force: false)
        }
        segment.unicodeScalars.append(scalar)
        bodyWidth += w
      }
      if !segment.isEmpty {
        body += segment
        hasContent = true
      }
    }
    forEachSimpleToken(text, word: add) { byte in
      if byte == 0x0A { breakLine(force: true) }
    }
    if hasContent { breakLine(force: false) }
    return lines
  }
}
