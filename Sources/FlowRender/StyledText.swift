import FlowSupport

/// How a run of text looks when colour is on. Plain output ignores every style.
public struct TextStyle: OptionSet, Hashable, Sendable {
  public let rawValue: UInt16
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  public static let bold = TextStyle(rawValue: 1 << 0)
  public static let dim = TextStyle(rawValue: 1 << 1)
  public static let italic = TextStyle(rawValue: 1 << 2)
  public static let underline = TextStyle(rawValue: 1 << 3)
  public static let red = TextStyle(rawValue: 1 << 4)
  public static let green = TextStyle(rawValue: 1 << 5)
  public static let yellow = TextStyle(rawValue: 1 << 6)
  public static let cyan = TextStyle(rawValue: 1 << 7)

  /// The SGR parameters, in a fixed order.
  var sgr: [String] {
    var codes: [String] = []
    if contains(.bold) { codes.append("1") }
    if contains(.dim) { codes.append("2") }
    if contains(.italic) { codes.append("3") }
    if contains(.underline) { codes.append("4") }
    if contains(.red) { codes.append("31") }
    if contains(.green) { codes.append("32") }
    if contains(.yellow) { codes.append("33") }
    if contains(.cyan) { codes.append("36") }
    return codes
  }
}

/// A piece of text with one style.
public struct StyledRun: Hashable, Sendable {
  public var text: String
  public var style: TextStyle

  public init(_ text: String, _ style: TextStyle = []) {
    self.text = text
    self.style = style
  }
}

/// One output line: runs without newlines.
struct StyledLine: Hashable, Sendable {
  var runs: [StyledRun]

  init(_ runs: [StyledRun] = []) { self.runs = runs }
  init(_ text: String, _ style: TextStyle = []) { self.runs = [StyledRun(text, style)] }

  static let blank = StyledLine()

  var width: Int { runs.reduce(0) { $0 + Self.columns($1.text) } }

  /// `DisplayWidth.of(text)`, a column a byte for printable ASCII found eight bytes at a time
  /// (a feature card measures each of its lines).
  static func columns(_ text: String) -> Int {
    var copy = text
    return copy.withUTF8(isPrintableASCII) ? text.utf8.count : DisplayWidth.of(text)
  }
  var plain: String { runs.map(\.text).joined() }

  mutating func append(_ text: String, _ style: TextStyle = []) {
    runs.append(StyledRun(text, style))
  }

  /// The line as terminal text: ANSI SGR sequences around styled runs when `color`, else plain.
  /// Trailing spaces are trimmed so golden files stay stable.
  func text(color: Bool) -> String {
    if !color, let plain = plainTrimmed() { return plain }
    var merged: [StyledRun] = []
    for run in runs where !run.text.isEmpty {
      if let last = merged.last, last.style == run.style {
        merged[merged.count - 1].text += run.text
      } else {
        merged.append(run)
      }
    }
    // Only the trailing spaces are looked at: rebuilding the run through a reversed view cost
    // most of the time of rendering a long text (every line's last run, character by character).
    while let last = merged.last, last.text.last == " " {
      if let end = last.text.lastIndex(where: { $0 != " " }) {
        merged[merged.count - 1].text = String(last.text[...end])
        break
      }
      merged.removeLast()
    }
    guard color else { return merged.map(\.text).joined() }
    var out = ""
    for run in merged {
      let codes = run.style.sgr
      if codes.isEmpty {
        out += run.text
      } else {
        out += "\u{1B}[" + codes.joined(separator: ";") + "m" + run.text + "\u{1B}[0m"
      }
    }
    return out
  }
}

extension StyledLine {
  /// The plain text with its trailing spaces cut as bytes, without merging runs: what
  /// `text(color: false)` gives whenever the scalar left before the spaces is ASCII or one of
  /// `DisplayWidth`'s one-scalar clusters (no such scalar joins a following space into one
  /// character); nil otherwise (a prepended mark), for the character-wise trim.
  fileprivate func plainTrimmed() -> String? {
    var out = ""
    for run in runs { out += run.text }
    let utf8 = out.utf8
    var end = utf8.endIndex
    while end > utf8.startIndex, utf8[utf8.index(before: end)] == 0x20 { end = utf8.index(before: end) }
    guard end < utf8.endIndex else { return out }
    let kept = String(decoding: utf8[..<end], as: UTF8.self)
    guard let last = kept.unicodeScalars.last else { return kept }
    return last.isASCII || DisplayWidth.simpleScalarsWidth(String(last)) != nil ? kept : nil
  }
}

extension [StyledLine] {
  /// The lines as terminal text, each ending with a newline (`StyledLine.text(color:)`).
  func text(color: Bool) -> String {
    var bytes: [UInt8] = []
    write(into: &bytes, color: color)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `text(color:)` appended to `bytes`, never made a string (`flowrun render` hands the bytes
  /// to its output as they are: making the string checked 16 MB of a big flow's text as
  /// UTF-8), each line drawn by `Canvas`.
  func write(into bytes: inout [UInt8], color: Bool) {
    var canvas = Canvas(color: color)
    swap(&canvas.bytes, &bytes)
    canvas.write(self)
    swap(&canvas.bytes, &bytes)
  }
}

/// `count` box-drawing dashes (`─`), written as bytes: `String(repeating:count:)` of a
/// non-ASCII character cost about 15,000 instructions for one header rule.
func horizontalRule(_ count: Int) -> String {
  guard count > 0 else { return "" }
  return count < rules.count ? rules[count] : makeRule(count)
}

/// The rules of the usual widths, made once: a feature card draws two (about 2,700
/// instructions each to write).
private let rules = (0...160).map(makeRule)

private func makeRule(_ count: Int) -> String { repeated("─", count) }

/// `count` times a character of three UTF-8 bytes (box drawing: `─`, `━`, `═`), written as
/// bytes (see `horizontalRule`).
func repeated(_ character: Unicode.Scalar, _ count: Int) -> String {
  guard count > 0 else { return "" }
  let utf8 = character.utf8
  precondition(utf8.count == 3, "a character of three bytes")
  // The bytes read once: the scalar's UTF-8 view read per byte cost more than the string
  // (the 161 rules made at the first header were 3.4 M instructions).
  let (first, second, third) = (utf8[0], utf8[1], utf8[2])
  return String(unsafeUninitializedCapacity: count * 3) { buffer in
    for index in 0..<count {
      buffer[3 * index] = first
      buffer[3 * index + 1] = second
      buffer[3 * index + 2] = third
    }
    return count * 3
  }
}

/// Removes ANSI escape sequences (CSI ... final byte, and OSC ... BEL/ST) from text.
public func stripANSI(_ text: String) -> String {
  guard text.contains("\u{1B}") else { return text }
  var out = ""
  out.reserveCapacity(text.utf8.count)
  var scalars = text.unicodeScalars.makeIterator()
  while let scalar = scalars.next() {
    guard scalar == "\u{1B}" else {
      out.unicodeScalars.append(scalar)
      continue
    }
    guard let kind = scalars.next() else { break }
    if kind == "[" {
      while let next = scalars.next(), !(0x40...0x7E).contains(next.value) {}
    } else if kind == "]" {
      var previous: Unicode.Scalar = " "
      while let next = scalars.next() {
        if next == "\u{07}" || (previous == "\u{1B}" && next == "\\") { break }
        previous = next
      }
    }
  }
  return out
}

/// Text shown from a flow, made safe for a terminal: tabs become spaces, carriage returns and
/// other control characters are dropped (newlines stay).
func sanitize(_ text: String) -> String {
  // A control is a byte below 0x20 (but `\n`, which stays), DEL, or C2 80–9F (a C1 control).
  // Text with none is returned as it is.
  guard holdsControl(text, tabIsControl: true) else { return text }
  var out = ""
  for scalar in text.unicodeScalars {
    if scalar == "\n" {
      out.unicodeScalars.append(scalar)
    } else if scalar == "\t" {
      out += " "
    } else if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) {
      continue
    } else {
      out.unicodeScalars.append(scalar)
    }
  }
  return out
}
