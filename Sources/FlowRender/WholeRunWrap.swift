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
    guard text.utf8.allSatisfy({ $0 < 0x80 }) || DisplayWidth.simpleScalarsWidth(text) != nil else { return nil }
    var lines: [StyledLine] = []
    var lead = prefix
    var leadWidth = StyledLine(prefix).width
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
    let utf8 = text.utf8
    var start = utf8.startIndex
    var index = start
    while true {
      let byte: UInt8? = index < utf8.endIndex ? utf8[index] : nil
      guard byte == 0x0A || byte == 0x20 || byte == nil else {
        index = utf8.index(after: index)
        continue
      }
      if start < index { add(text[start..<index]) }
      guard let byte else { break }
      if byte == 0x0A { breakLine(force: true) }
      index = utf8.index(after: index)
      start = index
    }
    if hasContent { breakLine(force: false) }
    return lines
  }
}
