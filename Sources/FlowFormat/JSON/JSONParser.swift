import FlowExpression

/// Parses JSON text into located ``JSONValue``s.
///
/// Strict RFC 8259: no comments, no trailing commas, no NaN or Infinity, UTF-8 only (a leading
/// byte order mark is skipped). Every value and every object key carries its line, its column
/// (1-based, counted in Unicode scalars) and its byte offset.
///
/// Problems are reported as ``Diagnostic``s with stable ids (`DiagnosticID.JSON`).
/// The parser stops at the first syntax error (the root value is then nil); warnings such as
/// duplicate keys are collected and parsing continues.
///
/// The parser is iterative (no recursion), so deeply nested input cannot overflow the stack;
/// nesting is limited by `maxDepth` instead. (Releasing a value is recursive in the standard
/// library, so limits far above the default should be used with care.)
public enum JSONParser {
  /// The nesting limit used when none is given.
  public static let defaultMaxDepth = Limits.nesting

  /// Parses `bytes`; returns the root value (nil when the text is not JSON) and every
  /// diagnostic found. `file` is only copied into the diagnostics.
  public static func parse(_ bytes: [UInt8], file: String? = nil) -> (JSONValue?, [Diagnostic]) {
    bytes.withUnsafeBufferPointer { parse($0, file: file, maxDepth: defaultMaxDepth) }
  }

  /// Parses `bytes`, allowing at most `maxDepth` nested arrays and objects.
  public static func parse(
    _ bytes: [UInt8], file: String? = nil, maxDepth: Int
  ) -> (JSONValue?, [Diagnostic]) {
    bytes.withUnsafeBufferPointer { parse($0, file: file, maxDepth: maxDepth) }
  }

  /// Parses the UTF-8 form of `text`.
  public static func parse(
    _ text: String, file: String? = nil, maxDepth: Int = defaultMaxDepth
  ) -> (JSONValue?, [Diagnostic]) {
    var text = text
    return text.withUTF8 { parse($0, file: file, maxDepth: maxDepth) }
  }

  /// Parses the bytes in `buffer` without copying them.
  public static func parse(
    _ buffer: UnsafeBufferPointer<UInt8>, file: String? = nil, maxDepth: Int = defaultMaxDepth
  ) -> (JSONValue?, [Diagnostic]) {
    parse(buffer, file: file, maxDepth: maxDepth, screens: nil)
  }

  /// Parses `bytes`, offering each element of a bundle's `screens` arrays to `screens` as soon
  /// as it is parsed (see ``ScreenSite``; what the handler takes out of the value,
  /// `JSONValue.take`, is not in the tree), and splitting `$.screens` by bytes with `split`: the elements of its second half are parsed
  /// by another parser (`parseElements`), which `split` runs on a second thread.
  static func parse(
    _ bytes: [UInt8], file: String?, screens: @escaping (inout JSONValue, ScreenSite) -> Void, split: ScreenSplit
  ) -> (JSONValue?, [Diagnostic]) {
    bytes.withUnsafeBufferPointer { parse($0, file: file, maxDepth: defaultMaxDepth, screens: screens, split: split) }
  }

  private static func parse(
    _ buffer: UnsafeBufferPointer<UInt8>, file: String?, maxDepth: Int,
    screens: ((inout JSONValue, ScreenSite) -> Void)?, split: ScreenSplit? = nil
  ) -> (JSONValue?, [Diagnostic]) {
    var parser = Parser(buffer: buffer, file: file, maxDepth: max(0, maxDepth))
    parser.screens = screens
    parser.split = split
    let root: JSONValue?
    do {
      root = try parser.parseDocument()
    } catch {
      root = nil
    }
    // The second half's thread reads `buffer`: it has stopped before the buffer goes.
    split?.stop()
    return (root, parser.diagnostics)
  }

  /// Parses the elements of an array from `start` (the first byte of an element, with the line
  /// state there) to its `]`, handing each element to `element` with its index from 0 and the
  /// offset just past it; `element` returns false to stop. `depth` containers are open around
  /// the array's elements (they count toward `maxDepth`). Returns the position of the `]` and
  /// what the parser reported on the way (duplicate keys, numbers out of range: reports that
  /// depend on an element's own text only, so one parser would make the same ones there), or
  /// nil at a syntax error, anything between elements but a comma, or when `element` stopped:
  /// the caller then parses the whole text again, so that every error is one parser's.
  static func parseElements(
    _ buffer: UnsafeBufferPointer<UInt8>, from start: ParsePosition, depth: Int, file: String?,
    element: (inout JSONValue, Int, Int) -> Bool
  ) -> (close: ParsePosition, diagnostics: [Diagnostic])? {
    var parser = Parser(buffer: buffer, file: file, maxDepth: max(0, defaultMaxDepth - depth))
    parser.pos = start.offset
    parser.line = start.line
    parser.lineStart = start.lineStart
    parser.lineContinuations = start.lineContinuations
    var index = 0
    do {
      while true {
        var value = try parser.parseValue()
        guard element(&value, index, parser.pos) else { return nil }
        index += 1
        try parser.skipWhitespace()
        guard parser.pos < parser.end else { return nil }
        if parser.buf[parser.pos] == ASCII.closeBracket {
          let close = ParsePosition(
            offset: parser.pos, line: parser.line, lineStart: parser.lineStart,
            lineContinuations: parser.lineContinuations)
          return (close, parser.diagnostics)
        }
        guard parser.buf[parser.pos] == ASCII.comma else { return nil }
        parser.pos += 1
      }
    } catch {
      return nil
    }
  }
}

/// Where a screen of a Sequence document sits: an element of `$.screens`, `$.flows.<id>.screens`
/// or `$.flows[<n>].screens`, told by the parser's open containers (their keys and kinds) only.
/// The loader decodes such a screen while the rest of the file is still being parsed
/// (`ScreenSplit`, `ScreenPipeline`); the document's kind is known only at the end, so it may go
/// unused.
struct ScreenSite: Sendable {
  /// The `[` of the screens array: which `screens` array of the document the screen is in.
  var array: SourceLocation
  /// The screen's index in that array.
  var index: Int
  /// The flow holding the array in a bundle (its key or index in `flows`); nil for `$.screens`.
  var flow: PathComponent?
  /// The offset just past the screen's last byte.
  var end: Int
}

// MARK: - Implementation

private struct Stop: Error {}

private enum ASCII {
  static let tab: UInt8 = 0x09
  static let lf: UInt8 = 0x0A
  static let cr: UInt8 = 0x0D
  static let space: UInt8 = 0x20
  static let quote: UInt8 = 0x22
  static let apostrophe: UInt8 = 0x27
  static let plus: UInt8 = 0x2B
  static let comma: UInt8 = 0x2C
  static let minus: UInt8 = 0x2D
  static let dot: UInt8 = 0x2E
  static let slash: UInt8 = 0x2F
  static let zero: UInt8 = 0x30
  static let nine: UInt8 = 0x39
  static let colon: UInt8 = 0x3A
  static let lessThan: UInt8 = 0x3C
  static let backslash: UInt8 = 0x5C
  static let openBracket: UInt8 = 0x5B
  static let closeBracket: UInt8 = 0x5D
  static let openBrace: UInt8 = 0x7B
  static let closeBrace: UInt8 = 0x7D
  static let asterisk: UInt8 = 0x2A
  static let hash: UInt8 = 0x23
  static let percent: UInt8 = 0x25
}

@inline(__always) private func isDigit(_ b: UInt8) -> Bool { b &- ASCII.zero < 10 }

@inline(__always) private func isWordByte(_ b: UInt8) -> Bool {
  let lower = b | 0x20
  return (lower >= 0x61 && lower <= 0x7A) || isDigit(b) || b == 0x5F || b == 0x24
}

private let exactPowersOfTen: [Double] = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

private struct Parser {
  typealias ID = DiagnosticID.JSON

  struct Frame {
    var isObject: Bool
    /// Index of the first element in `values` or member in `members`.
    var start: Int
    var open: SourceLocation
    var key: String = ""
    var keyLocation = SourceLocation(line: 0, column: 0, offset: 0)
    /// Built lazily for large objects: key -> index of its first member.
    var keyIndex: [String: Int]? = nil
    /// The `String.keyMark`s of the members so far: a key whose mark is not among them is new.
    var keyMarks: UInt64 = 0
  }

  let buf: UnsafeBufferPointer<UInt8>
  let end: Int
  let file: String?
  let maxDepth: Int
  var pos = 0
  var line = 1
  var lineStart = 0
  /// UTF-8 continuation bytes between `lineStart` and `pos`: column = bytes - this + 1.
  var lineContinuations = 0
  var diagnostics: [Diagnostic] = []
  var scratch: [UInt8] = []
  /// Offered the screens of a Sequence document as they close (see ``ScreenSite``).
  var screens: ((inout JSONValue, ScreenSite) -> Void)?
  /// Splits the first `$.screens` array by bytes (`ScreenSplit`): offered its first half's
  /// elements instead of `screens`.
  var split: ScreenSplit?
  /// The offset of the `[` of the array being split (-1: none yet), and of the element where
  /// its second half starts: -1 none, `splitUndecided` while the second thread looks for it.
  var splitArray = -1
  var splitStart = -1
  static let splitUndecided = -2
  var shortStrings: ShortStringCache
  /// The containers open and their elements and members, kept from one `parseValue` to the
  /// next: the second half's parser parses each screen with a call of its own, and making
  /// them again per screen (and growing them to a screen's depth and size) showed in profiles.
  var spareFrames: [Frame] = []
  let values = MoveStack<JSONValue>()
  let members = MoveStack<JSONObject.Member>()

  init(buffer: UnsafeBufferPointer<UInt8>, file: String?, maxDepth: Int) {
    self.buf = buffer
    self.end = buffer.count
    self.file = file
    self.maxDepth = maxDepth
    shortStrings = ShortStringCache(inputSize: buffer.count)
  }

  // MARK: Locations and diagnostics

  /// The location of `offset`, which must be on the current line, at or before `pos` (or
  /// after it with no non-ASCII bytes in between).
  @inline(__always) func location(_ offset: Int) -> SourceLocation {
    SourceLocation(line: line, column: offset - lineStart - lineContinuations + 1, offset: offset)
  }

  @inline(__always) var here: SourceLocation { location(pos) }

  mutating func report(
    _ id: DiagnosticID, _ severity: Severity, _ message: String, at location: SourceLocation?,
    notes: [Diagnostic.Note] = []
  ) {
    diagnostics.append(
      Diagnostic(
        id, severity: severity, message: message.elidedForDiagnostic, file: file,
        location: location,
        notes: notes.map { Diagnostic.Note($0.message.elidedForDiagnostic, at: $0.location) }))
  }

  mutating func stop(
    _ id: DiagnosticID, _ message: String, at location: SourceLocation?, notes: [Diagnostic.Note] = []
  ) -> Stop {
    report(id, .error, message, at: location, notes: notes)
    return Stop()
  }

  // MARK: Characters

  /// Decodes the UTF-8 scalar starting at `offset`; nil when the bytes there are not valid.
  func scalar(at offset: Int) -> (Unicode.Scalar, Int)? {
    guard offset < end else { return nil }
    let b0 = buf[offset]
    if b0 < 0x80 { return (Unicode.Scalar(b0), 1) }
    guard let length = utf8Length(at: offset) else { return nil }
    var value = UInt32(b0) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
    for i in 1..<length { value = value << 6 | UInt32(buf[offset + i] & 0x3F) }
    guard let s = Unicode.Scalar(value) else { return nil }
    return (s, length)
  }

  /// The length of the valid UTF-8 sequence for a non-ASCII lead byte at `offset`, or nil.
  @inline(__always) func utf8Length(at offset: Int) -> Int? {
    let b0 = buf[offset]
    @inline(__always) func cont(_ i: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> Bool {
      let j = offset + i
      return j < end && buf[j] >= lo && buf[j] <= hi
    }
    switch b0 {
    case 0xC2...0xDF: return cont(1) ? 2 : nil
    case 0xE0: return cont(1, 0xA0) && cont(2) ? 3 : nil
    case 0xE1...0xEC, 0xEE...0xEF: return cont(1) && cont(2) ? 3 : nil
    case 0xED: return cont(1, 0x80, 0x9F) && cont(2) ? 3 : nil
    case 0xF0: return cont(1, 0x90) && cont(2) && cont(3) ? 4 : nil
    case 0xF1...0xF3: return cont(1) && cont(2) && cont(3) ? 4 : nil
    case 0xF4: return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : nil
    default: return nil
    }
  }

  static func hex(_ b: UInt8) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    return "0x" + String(decoding: [digits[Int(b >> 4)], digits[Int(b & 15)]], as: UTF8.self)
  }

  static func codePoint(_ v: UInt32) -> String {
    var s = String(v, radix: 16, uppercase: true)
    while s.count < 4 { s = "0" + s }
    return "U+" + s
  }

  /// `'x'` for a printable character, `U+0001` for a control character.
  static func describe(_ s: Unicode.Scalar) -> String {
    if s.value < 0x20 || s.value == 0x7F || (s.value >= 0x80 && s.value < 0xA0) {
      return codePoint(s.value)
    }
    if s.properties.generalCategory == .format || s.properties.isWhitespace {
      return codePoint(s.value)
    }
    return "'\(Character(s))'"
  }

  /// Reports the character at `pos`: an invalid UTF-8 byte, or `message(description)`.
  mutating func stopAtCharacter(
    _ id: DiagnosticID, _ message: (String) -> String, notes: [Diagnostic.Note] = []
  ) -> Stop {
    guard let (s, _) = scalar(at: pos) else {
      return stop(ID.invalidUTF8, "invalid UTF-8 byte \(Self.hex(buf[pos]))", at: here)
    }
    return stop(id, message(Self.describe(s)), at: here, notes: notes)
  }

  // MARK: Whitespace

  /// Skips JSON whitespace, counting lines (CRLF, LF and lone CR each end one line).
  /// Stops with an error at a comment.
  @inline(__always) mutating func skipWhitespace() throws(Stop) {
    while pos < end {
      let b = buf[pos]
      if b == ASCII.space || b == ASCII.tab {
        pos += 1
      } else if b == ASCII.lf {
        pos += 1
        newLine()
      } else if b == ASCII.cr {
        pos += 1
        if pos < end && buf[pos] == ASCII.lf { pos += 1 }
        newLine()
      } else if b == ASCII.slash && pos + 1 < end
        && (buf[pos + 1] == ASCII.slash || buf[pos + 1] == ASCII.asterisk)
      {
        throw stop(ID.comment, "comments are not allowed in JSON", at: here)
      } else {
        return
      }
    }
  }

  @inline(__always) mutating func newLine() {
    line += 1
    lineStart = pos
    lineContinuations = 0
  }

  // MARK: Document

  mutating func parseDocument() throws(Stop) -> JSONValue {
    if end >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF {
      pos = 3
      lineStart = 3  // the byte order mark is not a column
    } else if end >= 2 && looksUTF16(buf[0], buf[1], startsText: Self.startsJSON) {
      throw stop(ID.utf16, "this file is UTF-16 encoded (JSON must be UTF-8)", at: nil)
    }
    try skipWhitespace()
    if pos == end {
      throw stop(ID.empty, "this file is empty", at: nil)
    }
    try checkLooksLikeJSON()
    let root = try parseValue()
    try skipWhitespace()
    if pos < end {
      throw stop(
        ID.extraContent, "extra content after the root value", at: here,
        notes: [.init("the root value starts here", at: root.location)])
    }
    return root
  }

  static func startsJSON(_ b: UInt8) -> Bool {
    b == ASCII.openBrace || b == ASCII.openBracket || b == ASCII.quote || b == ASCII.space
      || b == ASCII.lf || b == ASCII.cr || b == ASCII.tab
  }

  /// Recognises HTML, XML and YAML so the user gets a better message than a syntax error.
  mutating func checkLooksLikeJSON() throws(Stop) {
    let b = buf[pos]
    var start: String? = nil
    if b == ASCII.lessThan {
      start = "<"
    } else if b == ASCII.minus && pos + 2 < end && buf[pos + 1] == ASCII.minus
      && buf[pos + 2] == ASCII.minus
    {
      start = "---"
    } else if b == ASCII.percent {
      start = "%"
    } else if b == ASCII.hash {
      start = "#"
    } else if isWordByte(b) && !isDigit(b) {
      // `name: value` is a YAML mapping.
      var i = pos
      while i < end && (isWordByte(buf[i]) || buf[i] == ASCII.minus) { i += 1 }
      if i < end && buf[i] == ASCII.colon && i - pos <= 60 {
        start = String(decoding: UnsafeBufferPointer(rebasing: buf[pos...i]), as: UTF8.self)
      }
    }
    if let start {
      throw stop(ID.notJSON, "this does not look like JSON (it starts with '\(start)')", at: here)
    }
  }

  // MARK: Values

  /// Parses one value and everything nested in it, iteratively.
  mutating func parseValue() throws(Stop) -> JSONValue {
    var frames: [Frame] = []
    swap(&frames, &spareFrames)
    defer {
      frames.removeAll(keepingCapacity: true)
      spareFrames = frames
    }
    let values = values
    let members = members
    var value: JSONValue

    nextValue: while true {
      try skipWhitespace()
      guard pos < end else { throw eofInside(frames.last) }
      let b = buf[pos]
      let loc = here
      switch b {
      case ASCII.openBrace, ASCII.openBracket:
        if frames.count >= maxDepth {
          throw stop(ID.tooDeep, "nesting deeper than \(maxDepth) levels", at: loc)
        }
        let isObject = b == ASCII.openBrace
        pos += 1
        try skipWhitespace()
        if pos < end && buf[pos] == (isObject ? ASCII.closeBrace : ASCII.closeBracket) {
          pos += 1
          value = JSONValue(isObject ? .object(JSONObject(members: [])) : .array([]), at: loc)
        } else {
          frames.append(
            Frame(isObject: isObject, start: isObject ? members.count : values.count, open: loc))
          if isObject {
            try parseKey(into: &frames[frames.count - 1])
          } else if let split, splitArray < 0, frames.count == 2, frames[0].isObject, frames[0].key == "screens" {
            splitArray = loc.offset
            let first = ParsePosition(
              offset: pos, line: line, lineStart: lineStart, lineContinuations: lineContinuations)
            splitStart = split.begin(buf, array: loc, first: first) ? Self.splitUndecided : -1
          }
          continue nextValue
        }
      case ASCII.quote:
        value = JSONValue(.string(try parseString(open: loc)), at: loc)
      case ASCII.minus, ASCII.zero...ASCII.nine:
        value = try parseNumber(at: loc)
      default:
        guard let literal = parseLiteral(at: loc) else { try failAtValue(at: loc) }
        value = literal
      }

      // Attach the finished value to its container; close containers that end here.
      while true {
        let depth = frames.count
        guard depth > 0 else { return value }
        try skipWhitespace()
        // Read fields rather than copying the frame: a copy would share (and force copying)
        // its key index.
        if frames[depth - 1].isObject {
          // `consume`: the value moves into the member (a copy was a retain and a release).
          addMember(consume value, to: &frames[depth - 1], members: members)
          guard pos < end else { throw eofInside(frames[depth - 1]) }
          let c = buf[pos]
          if c == ASCII.comma {
            let commaLocation = here
            pos += 1
            try skipWhitespace()
            if pos < end && buf[pos] == ASCII.closeBrace {
              throw stop(ID.trailingComma, "trailing comma is not allowed in JSON", at: commaLocation)
            }
            try parseKey(into: &frames[frames.count - 1])
            continue nextValue
          } else if c == ASCII.closeBrace {
            pos += 1
            let top = frames.removeLast()
            value = JSONValue(.object(JSONObject(members: members.popArray(from: top.start))), at: top.open)
          } else {
            throw stopAtCharacter(ID.expectedComma) { _ in "expected ',' or '}' after object member" }
          }
        } else {
          let splitting = depth == 2 && frames[1].open.offset == splitArray
          if splitting, let split, let site = screenSite(frames, valueCount: values.count) {
            guard split.take(&value, at: site) else { throw abandonSplit() }
          } else if let screens, depth == 4, let site = screenSite(frames, valueCount: values.count) {
            screens(&value, site)
          }
          values.append(consume value)
          guard pos < end else { throw eofInside(frames[depth - 1]) }
          let c = buf[pos]
          if splitting && c != ASCII.comma && splitStart == Self.splitUndecided {
            // The array ends (or the text is not JSON here): too late for a second half.
            splitStart = split?.secondHalf(parserAt: .max) ?? -1
          }
          if splitting && splitStart >= 0 && (pos >= splitStart || c != ASCII.comma) {
            // The scan and this parser disagree (the text is not JSON there).
            throw abandonSplit()
          }
          if c == ASCII.comma {
            let commaLocation = here
            pos += 1
            try skipWhitespace()
            if pos < end && buf[pos] == ASCII.closeBracket {
              throw stop(ID.trailingComma, "trailing comma is not allowed in JSON", at: commaLocation)
            }
            if splitting && splitStart == Self.splitUndecided {
              splitStart = split?.secondHalf(parserAt: pos) ?? Self.splitUndecided
            }
            guard splitting && pos == splitStart else { continue nextValue }
            // The second half was parsed (and decoded) apart: its elements stand as null, as
            // screens taken out of the tree do; this parser goes on at its `]`.
            guard let split, let (count, close, reports) = split.join() else { throw abandonSplit() }
            splitStart = -1
            diagnostics += reports
            for _ in 0..<count { values.append(JSONValue(.null, at: loc)) }
            (pos, line, lineStart, lineContinuations) = (
              close.offset, close.line, close.lineStart, close.lineContinuations
            )
            pos += 1
            let top = frames.removeLast()
            value = JSONValue(.array(values.popArray(from: top.start)), at: top.open)
          } else if c == ASCII.closeBracket {
            pos += 1
            let top = frames.removeLast()
            value = JSONValue(.array(values.popArray(from: top.start)), at: top.open)
          } else {
            throw stopAtCharacter(ID.expectedComma) { _ in "expected ',' or ']' after array element" }
          }
        }
      }
    }
  }

  /// Stops the parse without a report: the split of `$.screens` failed, and the loader parses
  /// the text again on one thread.
  mutating func abandonSplit() -> Stop {
    split?.abandon()
    return Stop()
  }

  /// The site of the value closing now when it is an element of a Sequence document's
  /// `screens` array (two or four containers deep, the innermost one an array), else nil.
  func screenSite(_ frames: [Frame], valueCount: Int) -> ScreenSite? {
    let depth = frames.count
    guard frames[depth - 2].isObject, frames[depth - 2].key == "screens" else { return nil }
    var flow: PathComponent? = nil
    if depth == 4 {
      guard frames[0].isObject, frames[0].key == "flows" else { return nil }
      // In an array of flows, the flows before this one are the values between the two
      // arrays' starts (the flow itself is an object: its members are on the other stack).
      flow = frames[1].isObject ? .key(frames[1].key) : .index(frames[3].start - frames[1].start)
    }
    return ScreenSite(
      array: frames[depth - 1].open, index: valueCount - frames[depth - 1].start, flow: flow, end: pos)
  }

  mutating func eofInside(_ frame: Frame?) -> Stop {
    guard let frame else {
      return stop(ID.unexpectedEOF, "unexpected end of file, expected a value", at: here)
    }
    let kind = frame.isObject ? "object" : "array"
    return stop(
      ID.unexpectedEOF, "unexpected end of file inside \(kind) started at \(frame.open)", at: here,
      notes: [.init("the \(kind) starts here", at: frame.open)])
  }

  /// Records the member whose key is pending in `frame`, warning about duplicate keys.
  @inline(__always) mutating func addMember(
    _ value: consuming JSONValue, to frame: inout Frame, members: MoveStack<JSONObject.Member>
  ) {
    // Taken out of the frame rather than copied: the next key replaces it anyway.
    var key = ""
    swap(&key, &frame.key)
    let count = members.count - frame.start
    var first: Int? = nil
    if count < 16 {
      let mark = key.keyMark
      var i = frame.keyMarks & mark == 0 ? members.count : frame.start
      frame.keyMarks |= mark
      while i < members.count {
        if members[i].key.isSameKey(key) {
          first = i
          break
        }
        i += 1
      }
    } else {
      if frame.keyIndex == nil {
        var index: [String: Int] = [:]
        index.reserveCapacity(count * 2)
        for i in frame.start..<members.count where index[members[i].key] == nil {
          index[members[i].key] = i
        }
        frame.keyIndex = index
      }
      if let i = frame.keyIndex![key] {
        first = i
      } else {
        frame.keyIndex![key] = members.count
      }
    }
    if let first {
      report(
        ID.duplicateKey, .warning, "duplicate key '\(key)' (the last one wins)",
        at: frame.keyLocation,
        notes: [.init("'\(key)' was first defined here", at: members[first].keyLocation)])
    }
    members.append(JSONObject.Member(key: key, keyLocation: frame.keyLocation, value: value))
  }

  /// Parses `"key" :` and stores the key in `frame`.
  mutating func parseKey(into frame: inout Frame) throws(Stop) {
    try skipWhitespace()
    guard pos < end else { throw eofInside(frame) }
    let b = buf[pos]
    let loc = here
    if b == ASCII.quote {
      frame.key = try parseString(open: loc)
      frame.keyLocation = loc
    } else if b == ASCII.apostrophe {
      throw stop(ID.singleQuotes, "strings must use double quotes, not single quotes", at: loc)
    } else if isWordByte(b) {
      let word = readWord()
      throw stop(ID.expectedKey, "expected a key in double quotes, found '\(word)'", at: loc)
    } else {
      throw stopAtCharacter(ID.expectedKey) { "expected a key in double quotes, found \($0)" }
    }
    try skipWhitespace()
    guard pos < end else { throw eofInside(frame) }
    guard buf[pos] == ASCII.colon else {
      throw stopAtCharacter(ID.expectedColon) { _ in "expected ':' after object key" }
    }
    pos += 1
  }

  func readWord() -> String {
    var i = pos
    while i < end && isWordByte(buf[i]) && i - pos < 40 { i += 1 }
    return String(decoding: UnsafeBufferPointer(rebasing: buf[pos..<i]), as: UTF8.self)
  }

  /// `true`, `false` or `null` at `pos` read from the bytes, or nil for `failAtValue` to
  /// report (reading a word as a `String` cost ~330 instructions a literal).
  @inline(__always) mutating func parseLiteral(at loc: SourceLocation) -> JSONValue? {
    /// `word` is at `pos`, and no other word byte follows it (`trueish` is not `true`).
    func at(_ word: StaticString) -> Bool {
      let count = word.utf8CodeUnitCount
      guard pos + count <= end else { return false }
      for i in 1..<count where buf[pos + i] != word.utf8Start[i] { return false }
      return pos + count == end || !isWordByte(buf[pos + count])
    }
    let kind: JSONValue.Kind
    let count: Int
    switch buf[pos] {
    case UInt8(ascii: "t") where at("true"): (kind, count) = (.bool(true), 4)
    case UInt8(ascii: "f") where at("false"): (kind, count) = (.bool(false), 5)
    case UInt8(ascii: "n") where at("null"): (kind, count) = (.null, 4)
    default: return nil
    }
    pos += count
    return JSONValue(kind, at: loc)
  }

  /// The error describing what is at `pos` where a value should start and none does (the
  /// literals are `parseLiteral`'s).
  mutating func failAtValue(at loc: SourceLocation) throws(Stop) -> Never {
    let b = buf[pos]
    if isWordByte(b) {
      let word = readWord()
      switch word {
      case "NaN", "Infinity":
        throw stop(ID.nonFiniteNumber, "\(word) is not valid JSON", at: loc)
      default:
        let suggestion: String? =
          switch word.lowercased() {
          case "true", "false", "null": word.lowercased()
          case "none", "nil", "undefined": "null"
          case let w where w.count >= 2:
            ["true", "false", "null"].first { $0.hasPrefix(w) }
          default: nil
          }
        if let suggestion {
          throw stop(ID.invalidLiteral, "'\(word)' is not valid JSON (use '\(suggestion)')", at: loc)
        }
        throw stop(
          ID.unexpectedCharacter, "unexpected character '\(Character(Unicode.Scalar(b)))'", at: loc)
      }
    }
    switch b {
    case ASCII.apostrophe:
      throw stop(ID.singleQuotes, "strings must use double quotes, not single quotes", at: loc)
    case ASCII.comma, ASCII.colon, ASCII.closeBrace, ASCII.closeBracket:
      throw stop(
        ID.expectedValue, "expected a value, found '\(Character(Unicode.Scalar(b)))'", at: loc)
    case ASCII.plus:
      throw stop(ID.invalidNumber, "a number cannot start with '+'", at: loc)
    case ASCII.dot:
      throw stop(ID.invalidNumber, "a number cannot start with '.' (write 0 before it)", at: loc)
    default:
      throw stopAtCharacter(ID.unexpectedCharacter) { "unexpected character \($0)" }
    }
  }

  // MARK: Strings

  /// Parses a string whose opening quote is at `pos`; returns its decoded text.
  @inline(__always) mutating func parseString(open: SourceLocation) throws(Stop) -> String {
    pos += 1
    let start = pos
    while true {
      // Eight bytes at a time while none needs a look: most string bytes are plain ASCII.
      while pos &+ 8 <= end {
        let special = Self.specialBytes(at: pos, in: buf)
        if special != 0 {
          pos &+= special.trailingZeroBitCount &>> 3
          break
        }
        pos &+= 8
      }
      guard pos < end else { break }
      let b = buf[pos]
      if b == ASCII.quote {
        let count = pos - start
        let s =
          count <= ShortStringCache.maxLength
          ? shortStrings.string(buf, from: start, count: count)
          : String(decoding: UnsafeBufferPointer(rebasing: buf[start..<pos]), as: UTF8.self)
        pos += 1
        return s
      } else if b == ASCII.backslash {
        return try parseEscapedString(from: start, open: open)
      } else if b < 0x20 {
        throw controlCharacterInString(open: open)
      } else if b < 0x80 {
        pos += 1
      } else {
        try skipMultiByteScalar()
      }
    }
    throw stop(ID.unterminatedString, "unterminated string", at: open)
  }

  /// A mask with the high bit set in each of the eight bytes at `offset` that ends or escapes a
  /// string, is a control character or is not ASCII; exact up to its lowest set bit (the
  /// borrows of the zero-byte tests only mark bytes after a true match).
  @inline(__always) static func specialBytes(at offset: Int, in buffer: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let w = UInt64(littleEndian: UnsafeRawPointer(buffer.baseAddress! + offset).loadUnaligned(as: UInt64.self))
    let quote = w ^ (ones &* UInt64(ASCII.quote))
    let backslash = w ^ (ones &* UInt64(ASCII.backslash))
    let isQuote = (quote &- ones) & ~quote
    let isBackslash = (backslash &- ones) & ~backslash
    let isControl = (w &- ones &* 0x20) & ~w
    return (isQuote | isBackslash | isControl | w) & highs
  }

  @inline(__always) mutating func skipMultiByteScalar() throws(Stop) {
    guard let length = utf8Length(at: pos) else {
      throw stop(ID.invalidUTF8, "invalid UTF-8 byte \(Self.hex(buf[pos]))", at: here)
    }
    pos += length
    lineContinuations += length - 1
  }

  mutating func controlCharacterInString(open: SourceLocation) -> Stop {
    let b = buf[pos]
    if b == ASCII.lf || b == ASCII.cr {
      return stop(
        ID.unterminatedString, "unterminated string", at: open,
        notes: [.init("the line ends here; write \\n for a line break inside a string", at: here)])
    }
    let hint =
      switch b {
      case ASCII.tab: " (write \\t)"
      default: ""
      }
    return stop(
      ID.controlCharacter,
      "control character \(Self.codePoint(UInt32(b))) must be escaped in strings\(hint)", at: here)
  }

  /// The slow path: the string has escapes. `pos` is at the first backslash.
  mutating func parseEscapedString(from start: Int, open: SourceLocation) throws(Stop) -> String {
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<pos]))
    while pos < end {
      let b = buf[pos]
      if b == ASCII.quote {
        pos += 1
        return String(decoding: scratch, as: UTF8.self)
      } else if b == ASCII.backslash {
        try parseEscape()
      } else if b < 0x20 {
        throw controlCharacterInString(open: open)
      } else if b < 0x80 {
        scratch.append(b)
        pos += 1
      } else {
        let from = pos
        try skipMultiByteScalar()
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buf[from..<pos]))
      }
    }
    throw stop(ID.unterminatedString, "unterminated string", at: open)
  }

  mutating func parseEscape() throws(Stop) {
    let escapeLocation = here
    guard pos + 1 < end else {
      pos += 1
      return
    }
    let c = buf[pos + 1]
    let replacement: UInt8
    switch c {
    case ASCII.quote: replacement = ASCII.quote
    case ASCII.backslash: replacement = ASCII.backslash
    case ASCII.slash: replacement = ASCII.slash
    case 0x62: replacement = 0x08  // b
    case 0x66: replacement = 0x0C  // f
    case 0x6E: replacement = ASCII.lf  // n
    case 0x72: replacement = ASCII.cr  // r
    case 0x74: replacement = ASCII.tab  // t
    case 0x75:  // u
      try parseUnicodeEscape(at: escapeLocation)
      return
    default:
      pos += 1
      if c < 0x20 {
        throw stop(
          ID.invalidEscape, "invalid escape '\\' followed by \(Self.codePoint(UInt32(c))) in string",
          at: escapeLocation)
      }
      guard let (s, _) = scalar(at: pos) else {
        throw stop(ID.invalidUTF8, "invalid UTF-8 byte \(Self.hex(c))", at: here)
      }
      throw stop(ID.invalidEscape, "invalid escape '\\\(Character(s))' in string", at: escapeLocation)
    }
    scratch.append(replacement)
    pos += 2
  }

  /// Reads the four hex digits after `\u` at `pos`; nil (with `pos` unchanged) when invalid.
  func hexQuad(at offset: Int) -> UInt32? {
    guard offset + 6 <= end, buf[offset] == ASCII.backslash, buf[offset + 1] == 0x75 else {
      return nil
    }
    var v: UInt32 = 0
    for i in 2..<6 {
      let b = buf[offset + i]
      let d: UInt8
      if isDigit(b) {
        d = b - ASCII.zero
      } else if (b | 0x20) >= 0x61 && (b | 0x20) <= 0x66 {
        d = (b | 0x20) - 0x61 + 10
      } else {
        return nil
      }
      v = v << 4 | UInt32(d)
    }
    return v
  }

  func escapeText(at offset: Int) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: buf[offset..<min(end, offset + 6)]), as: UTF8.self)
      .lowercased()
  }

  mutating func parseUnicodeEscape(at loc: SourceLocation) throws(Stop) {
    guard let unit = hexQuad(at: pos) else {
      throw stop(ID.invalidUnicodeEscape, "expected four hex digits after '\\u'", at: loc)
    }
    var scalarValue = unit
    if unit >= 0xD800 && unit <= 0xDBFF {
      guard let low = hexQuad(at: pos + 6), low >= 0xDC00 && low <= 0xDFFF else {
        throw stop(
          ID.unpairedSurrogate, "unpaired surrogate '\(escapeText(at: pos))' in string", at: loc)
      }
      scalarValue = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
      pos += 12
    } else if unit >= 0xDC00 && unit <= 0xDFFF {
      throw stop(
        ID.unpairedSurrogate, "unpaired surrogate '\(escapeText(at: pos))' in string", at: loc)
    } else {
      pos += 6
    }
    // Append the UTF-8 encoding of the scalar.
    let v = scalarValue
    if v < 0x80 {
      scratch.append(UInt8(v))
    } else if v < 0x800 {
      scratch.append(UInt8(0xC0 | v >> 6))
      scratch.append(UInt8(0x80 | v & 0x3F))
    } else if v < 0x10000 {
      scratch.append(UInt8(0xE0 | v >> 12))
      scratch.append(UInt8(0x80 | (v >> 6) & 0x3F))
      scratch.append(UInt8(0x80 | v & 0x3F))
    } else {
      scratch.append(UInt8(0xF0 | v >> 18))
      scratch.append(UInt8(0x80 | (v >> 12) & 0x3F))
      scratch.append(UInt8(0x80 | (v >> 6) & 0x3F))
      scratch.append(UInt8(0x80 | v & 0x3F))
    }
  }

  // MARK: Numbers

  mutating func parseNumber(at loc: SourceLocation) throws(Stop) -> JSONValue {
    let start = pos
    var negative = false
    if buf[pos] == ASCII.minus {
      negative = true
      pos += 1
      if pos < end && buf[pos] == 0x49 {  // I
        let word = readWord()
        if word == "Infinity" {
          throw stop(ID.nonFiniteNumber, "-Infinity is not valid JSON", at: loc)
        }
      }
      guard pos < end && isDigit(buf[pos]) else {
        throw stop(ID.invalidNumber, "expected a digit after '-'", at: here)
      }
    }
    var mantissa: UInt64 = 0
    var digits = 0
    var exponent = 0
    var isInteger = true
    if buf[pos] == ASCII.zero {
      pos += 1
      if pos < end && isDigit(buf[pos]) {
        throw stop(ID.leadingZero, "leading zeros are not allowed in numbers", at: location(pos - 1))
      }
    } else {
      while pos < end && isDigit(buf[pos]) {
        if digits < 19 {
          mantissa = mantissa &* 10 &+ UInt64(buf[pos] &- ASCII.zero)
        } else {
          exponent += 1
        }
        digits += 1
        pos += 1
      }
    }
    if pos < end && buf[pos] == ASCII.dot {
      isInteger = false
      pos += 1
      guard pos < end && isDigit(buf[pos]) else {
        throw stop(ID.invalidNumber, "expected a digit after the decimal point", at: here)
      }
      while pos < end && isDigit(buf[pos]) {
        if mantissa == 0 && buf[pos] == ASCII.zero {
          exponent -= 1  // leading zeros of the fraction are not significant
        } else if digits < 19 {
          mantissa = mantissa &* 10 &+ UInt64(buf[pos] &- ASCII.zero)
          digits += 1
          exponent -= 1
        } else {
          digits += 1
        }
        pos += 1
      }
    }
    if pos < end && (buf[pos] | 0x20) == 0x65 {  // e or E
      isInteger = false
      pos += 1
      var exponentNegative = false
      if pos < end && (buf[pos] == ASCII.plus || buf[pos] == ASCII.minus) {
        exponentNegative = buf[pos] == ASCII.minus
        pos += 1
      }
      guard pos < end && isDigit(buf[pos]) else {
        throw stop(ID.invalidNumber, "expected a digit in the exponent", at: here)
      }
      var e = 0
      while pos < end && isDigit(buf[pos]) {
        if e < 100_000 { e = e * 10 + Int(buf[pos] &- ASCII.zero) }
        pos += 1
      }
      exponent += exponentNegative ? -e : e
    }

    var result: Double
    if digits <= 19 && mantissa <= (1 << 53) && exponent >= -22 && exponent <= 22 {
      // Exact: both the mantissa and the power of ten are representable.
      result = Double(mantissa)
      if exponent < 0 {
        result /= exactPowersOfTen[-exponent]
      } else if exponent > 0 {
        result *= exactPowersOfTen[exponent]
      }
      if negative { result = -result }
    } else if mantissa == 0 && digits <= 19 {
      result = negative ? -0.0 : 0.0
    } else {
      result = slowNumber(from: start)
    }
    if !result.isFinite {
      let text = String(decoding: UnsafeBufferPointer(rebasing: buf[start..<pos]), as: UTF8.self)
      report(ID.numberOutOfRange, .error, "number \(text) is too large", at: loc)
    }
    return JSONValue(.number(result, isInteger: isInteger), at: loc)
  }

  func slowNumber(from start: Int) -> Double {
    let text = String(decoding: UnsafeBufferPointer(rebasing: buf[start..<pos]), as: UTF8.self)
    return Double(text) ?? .nan
  }
}
