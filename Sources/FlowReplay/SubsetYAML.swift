import FlowEngine
import FlowExpression
import FlowFormat
import FlowSupport

/// A reader for the YAML that replay scripts are written in, about twenty times cheaper than
/// composing Yams nodes: block mappings and sequences, one-line flow `{}` and `[]`, one-line
/// plain, single-quoted and double-quoted (no escapes) scalars, and comments.
///
/// It answers nil for anything outside that subset or anything it is not sure of (tabs, CR,
/// document markers, anchors, aliases, tags, block scalars, multi-line scalars or flow
/// collections, empty values, escapes, duplicate keys, syntax errors, ...), and the caller then
/// composes the text with Yams. When it answers, the tree is the one Yams would give: the same
/// scalars typed the same way and the same line:column marks (`SubsetYAMLTests` compares both
/// on every fixture, sample script, generated benchmark script and a list of edge cases).
struct SubsetYAML {
  private struct Bail: Error {}

  private let b: UnsafeBufferPointer<UInt8>
  private let n: Int
  private let ascii: Bool
  private var i = 0
  private var line = 1
  private var lineStart = 0
  /// Indentation of the line `i` is on (the first non-space byte), -1 at the end of the text.
  private var indent = 0
  /// Collections open around `i`. Past `Limits.nesting` the reader leaves the text to Yams'
  /// path, whose event check reports it (the reader recurses once per level).
  private var depth = 0
  /// The last column counted on a line of non-ASCII text: the next position on the same line
  /// counts on from it, not from the line's start (quadratic on a long line: a flow list of
  /// 10,000 screens took a second).
  private let anchor = ColumnAnchor()
  /// Whether the entries of the root's `steps:` are read as steps where they can be (`parseScript`).
  private var readsSteps = false
  /// One per entry of the root's `steps:`: the step read from its line, or nil where the entry
  /// is a node for `Reader` to read.
  private var steps: [ScriptStep?] = []

  private final class ColumnAnchor {
    var lineStart = -1
    var offset = 0
    var column = 1
  }

  private init(_ bytes: UnsafeBufferPointer<UInt8>, ascii: Bool) {
    b = bytes
    n = bytes.count
    self.ascii = ascii
  }

  /// The located tree of `bytes`, or nil when Yams has to read it.
  static func parse(_ bytes: [UInt8]) -> ScriptNode? {
    bytes.withUnsafeBufferPointer { buffer -> ScriptNode? in
      guard let ascii = admissible(buffer) else { return nil }
      var reader = SubsetYAML(buffer, ascii: ascii)
      return try? reader.document()
    }
  }

  /// `parse`, with the one-line entries of the root's `steps:` (`- tap: Go`, `- fill: {k: v}`,
  /// `- next`, ...) made steps straight from their bytes: a placeholder node stands in the tree
  /// for each, and `steps` holds it where `Reader.script` takes it instead of reading a node
  /// (a step's nodes, then the reader's checks, were most of reading a generated script).
  static func parseScript(_ bytes: [UInt8]) -> (root: ScriptNode, steps: [ScriptStep?])? {
    bytes.withUnsafeBufferPointer { buffer -> (root: ScriptNode, steps: [ScriptStep?])? in
      guard let ascii = admissible(buffer) else { return nil }
      var reader = SubsetYAML(buffer, ascii: ascii)
      reader.readsSteps = true
      guard let root = try? reader.document() else { return nil }
      return (root, reader.steps)
    }
  }

  /// Whether the text has only what this reader handles byte by byte: no control characters
  /// but LF, no tab or CR, no document markers or directives, and valid UTF-8 of printable
  /// characters without YAML's Unicode line breaks. Returns whether the text is ASCII; nil
  /// when it is not admissible.
  private static func admissible(_ b: UnsafeBufferPointer<UInt8>) -> Bool? {
    var ascii = true
    var atLineStart = true
    var i = 0
    let n = b.count
    while i < n {
      // Within a line, eight printable ASCII bytes at a time.
      if !atLineStart, i + 8 <= n,
        ByteWords.isPrintableASCII(UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self))
      {
        i += 8
        continue
      }
      let c = b[i]
      if atLineStart {
        if c == UInt8(ascii: "%") { return nil }
        if i + 2 < n, c == UInt8(ascii: "-") || c == UInt8(ascii: "."), b[i + 1] == c, b[i + 2] == c { return nil }
      }
      if c < 0x20 {
        guard c == 0x0A else { return nil }
        atLineStart = true
      } else {
        atLineStart = false
        if c == 0x7F { return nil }
        if c >= 0x80 { ascii = false }
      }
      i += 1
    }
    if ascii { return true }
    guard String(validating: b, as: UTF8.self) != nil else { return nil }
    // Valid UTF-8: each sequence from 0x80 on decoded in place (a walk of every scalar of the
    // text cost more than the rest of reading it).
    i = 0
    while i < n {
      let c = b[i]
      guard c >= 0x80 else {
        i += 1
        continue
      }
      let length = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4
      var value = UInt32(c & (0x7F >> length))
      for k in 1..<length { value = value << 6 | UInt32(b[i + k] & 0x3F) }
      switch value {
      case 0xA0...0xD7FF where value != 0x2028 && value != 0x2029: break
      case 0xE000...0xFFFD where value != 0xFEFF: break
      case 0x10000...0x10FFFF: break
      default: return nil
      }
      i += length
    }
    return false
  }

  // MARK: Positions

  private func location(_ at: Int) -> SourceLocation {
    var column = 1
    if ascii {
      column += at - lineStart
    } else {
      var j = lineStart
      if anchor.lineStart == lineStart, anchor.offset <= at { (j, column) = (anchor.offset, anchor.column) }
      while j < at {
        if b[j] & 0xC0 != 0x80 { column += 1 }
        j += 1
      }
      (anchor.lineStart, anchor.offset, anchor.column) = (lineStart, at, column)
    }
    return SourceLocation(line: line, column: column, offset: at)
  }

  private func byte(_ at: Int) -> UInt8 { at < n ? b[at] : 0x0A }

  private func isBlank(_ at: Int) -> Bool {
    let c = byte(at)
    return c == 0x20 || c == 0x0A
  }

  private mutating func skipSpaces() {
    while i < n, b[i] == 0x20 { i += 1 }
  }

  /// After a value: spaces, an optional comment, the line break, then blank and comment lines;
  /// stops at the first content of the next line (`indent` set) or at the end (`indent` -1).
  private mutating func endLine() throws(Bail) {
    skipSpaces()
    if i < n, b[i] == UInt8(ascii: "#") {
      guard i == lineStart || b[i - 1] == 0x20 else { throw Bail() }
      while i < n, b[i] != 0x0A { i += 1 }
    }
    guard i == n || b[i] == 0x0A else { throw Bail() }
    nextContentLine()
  }

  /// From a line break (or the start), skips blank and comment-only lines.
  private mutating func nextContentLine() {
    while i < n {
      if b[i] == 0x0A {
        i += 1
        line += 1
        lineStart = i
      }
      skipSpaces()
      if i == n { break }
      if b[i] == 0x0A { continue }
      if b[i] == UInt8(ascii: "#") {
        while i < n, b[i] != 0x0A { i += 1 }
        continue
      }
      indent = i - lineStart
      return
    }
    indent = -1
  }

  // MARK: Structure

  private mutating func document() throws(Bail) -> ScriptNode {
    lineStart = 0
    i = 0
    skipSpaces()
    if i < n, b[i] == UInt8(ascii: "#") {
      while i < n, b[i] != 0x0A { i += 1 }
    }
    if i < n, b[i] != 0x0A {
      indent = i - lineStart
    } else {
      nextContentLine()
    }
    guard indent >= 0 else { throw Bail() }
    let root = try blockNode(indent)
    guard indent == -1 else { throw Bail() }
    return root
  }

  private mutating func enter() throws(Bail) {
    depth += 1
    guard depth <= Limits.nesting else { throw Bail() }
  }

  private func atEntry() -> Bool { i < n && b[i] == UInt8(ascii: "-") && isBlank(i + 1) }

  /// A block mapping or sequence starting at `i`, on a line of indentation `column`.
  private mutating func blockNode(_ column: Int, steps: Bool = false) throws(Bail) -> ScriptNode {
    if atEntry() { return try blockSequence(column, steps: steps) }
    guard try keyAhead() else { throw Bail() }
    return try blockMapping(column)
  }

  /// With `steps`, the root's `steps:`: each entry on one line that `step` reads is a step.
  private mutating func blockSequence(_ column: Int, steps: Bool = false) throws(Bail) -> ScriptNode {
    try enter()
    defer { depth -= 1 }
    let start = location(i)
    var elements: [ScriptNode] = []
    while true {
      i += 1
      skipSpaces()
      guard i < n, b[i] != 0x0A, b[i] != UInt8(ascii: "#"), !atEntry() else { throw Bail() }
      if steps, let step = try step(column) {
        elements.append(ScriptNode(kind: .scalar(.null), location: step.location ?? start))
        self.steps.append(step)
      } else if try keyAhead() {
        elements.append(try blockMapping(i - lineStart))
      } else {
        elements.append(try inlineValue())
        try endLine()
        guard indent <= column else { throw Bail() }
      }
      if steps, self.steps.count < elements.count { self.steps.append(nil) }
      if indent == column, atEntry() { continue }
      guard indent < column || indent == -1 || (indent == column && !atEntry()) else { throw Bail() }
      break
    }
    return ScriptNode(kind: .sequence(elements), location: start)
  }

  private mutating func blockMapping(_ column: Int) throws(Bail) -> ScriptNode {
    try enter()
    defer { depth -= 1 }
    let start = location(i)
    var members: [ScriptNode.Member] = []
    while true {
      let keyStart = i
      guard let key = try scalar(flow: false), !(key.plain && key.text == "<<") else { throw Bail() }
      skipSpaces()
      guard i < n, b[i] == UInt8(ascii: ":"), isBlank(i + 1) else { throw Bail() }
      guard i - keyStart <= 1024 else { throw Bail() }
      let keyLocation = location(keyStart)
      let colon = i
      i += 1
      skipSpaces()
      let value: ScriptNode
      if i == n || b[i] == 0x0A || b[i] == UInt8(ascii: "#") {
        // An empty value is a null marked just after the colon (libyaml's VALUE token end).
        let empty = ScriptNode(kind: .scalar(.null), location: location(colon + 1), text: "")
        try endLine()
        let steps = readsSteps && depth == 1 && key.text == "steps"
        if indent > column {
          value = try blockNode(indent, steps: steps)
        } else if indent == column, atEntry() {
          value = try blockSequence(column, steps: steps)
        } else {
          value = empty
        }
      } else {
        value = try inlineValue()
        try endLine()
      }
      guard indent <= column else { throw Bail() }
      for member in members where member.key == key.text { throw Bail() }
      members.append(ScriptNode.Member(key: key.text, keyLocation: keyLocation, value: value))
      if indent == column {
        guard !atEntry() else { throw Bail() }
        continue
      }
      break
    }
    return ScriptNode(kind: .mapping(members), location: start)
  }

  /// Whether the line from `i` on is `key: ...` (a one-line scalar, then `:` and a blank).
  private mutating func keyAhead() throws(Bail) -> Bool {
    let (saveI, saveIndent) = (i, indent)
    defer { (i, indent) = (saveI, saveIndent) }
    let c = byte(i)
    guard c != UInt8(ascii: "{"), c != UInt8(ascii: "[") else { return false }
    guard try scalarEnd(flow: false) != nil else { return false }
    skipSpaces()
    return i < n && b[i] == UInt8(ascii: ":") && isBlank(i + 1)
  }

  /// A value on the rest of this line: a flow collection or a scalar.
  private mutating func inlineValue() throws(Bail) -> ScriptNode {
    let c = b[i]
    if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") { return try flowCollection() }
    let start = i
    guard let scalar = try scalar(flow: false) else { throw Bail() }
    skipSpaces()
    // `a: b: c` is an error; a comment needs a space before it (checked by `endLine`).
    guard i == n || b[i] != UInt8(ascii: ":") else { throw Bail() }
    return node(scalar, at: start)
  }

  private mutating func flowCollection() throws(Bail) -> ScriptNode {
    try enter()
    defer { depth -= 1 }
    let start = location(i)
    let isMapping = b[i] == UInt8(ascii: "{")
    let close = isMapping ? UInt8(ascii: "}") : UInt8(ascii: "]")
    i += 1
    skipSpaces()
    var members: [ScriptNode.Member] = []
    var elements: [ScriptNode] = []
    if i < n, b[i] == close {
      i += 1
    } else {
      while true {
        guard i < n, b[i] != 0x0A, b[i] != UInt8(ascii: "#") else { throw Bail() }
        if isMapping {
          let keyStart = i
          guard let key = try scalar(flow: true), !(key.plain && key.text == "<<") else { throw Bail() }
          let keyLocation = location(keyStart)  // before the value's: columns count on left to right
          skipSpaces()
          guard i < n, b[i] == UInt8(ascii: ":"), byte(i + 1) == 0x20 else { throw Bail() }
          i += 1
          skipSpaces()
          let value = try flowValue()
          for member in members where member.key == key.text { throw Bail() }
          members.append(ScriptNode.Member(key: key.text, keyLocation: keyLocation, value: value))
        } else {
          elements.append(try flowValue())
          guard i == n || b[i] != UInt8(ascii: ":") else { throw Bail() }  // `[a: b]`
        }
        skipSpaces()
        guard i < n else { throw Bail() }
        if b[i] == close {
          i += 1
          break
        }
        guard b[i] == UInt8(ascii: ",") else { throw Bail() }
        i += 1
        skipSpaces()
        guard i < n, b[i] != close else { throw Bail() }  // a trailing comma
      }
    }
    return ScriptNode(kind: isMapping ? .mapping(members) : .sequence(elements), location: start)
  }

  private mutating func flowValue() throws(Bail) -> ScriptNode {
    guard i < n else { throw Bail() }
    let c = b[i]
    if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") { return try flowCollection() }
    let start = i
    guard let scalar = try scalar(flow: true) else { throw Bail() }
    skipSpaces()
    return node(scalar, at: start)
  }

  // MARK: Steps

  /// The step an entry of `steps:` (its `-` at `column`) holds on its one line, read as
  /// `Reader.step` reads its node: a bare word (`next`, `back`, ...), or `tap: SCALAR`,
  /// `fill: {...}`, `set: {...}`, `select: {...}` or `result: {status: ...}` of scalars. Nil, with the reader
  /// back where it was, for any other entry and for one that goes on to the next line
  /// (`expect_error:`), which `Reader` reads from its node with all its checks.
  private mutating func step(_ column: Int) throws(Bail) -> ScriptStep? {
    let saved = (i, line, lineStart, indent)
    guard let step = try oneLineStep(), indent <= column else {
      (i, line, lineStart, indent) = saved
      return nil
    }
    return step
  }

  private mutating func oneLineStep() throws(Bail) -> ScriptStep? {
    let start = i
    let c = b[i]
    guard c != UInt8(ascii: "{"), c != UInt8(ascii: "["), let word = try scalar(flow: false), word.plain else {
      return nil
    }
    let keyLocation = location(start)
    skipSpaces()
    guard i < n, b[i] == UInt8(ascii: ":"), isBlank(i + 1) else {
      try endLine()
      return ScriptParser.bareStepKinds[word.text].map { ScriptStep($0, location: keyLocation) }
    }
    i += 1
    skipSpaces()
    guard i < n, b[i] != 0x0A, b[i] != UInt8(ascii: "#") else { return nil }
    let value = try inlineValue()
    try endLine()
    let kind: ScriptStep.Kind?
    switch (word.text, value.kind) {
    case ("tap", .scalar(.integer(let number))): kind = number >= 1 ? .tap(.number(Int(number))) : nil
    case ("tap", .scalar(.null)), ("tap", .mapping), ("tap", .sequence): kind = nil
    case ("tap", _): kind = value.scalarText.map { .tap(.label($0)) }
    case ("fill", .mapping(let members)), ("set", .mapping(let members)):
      let fields = members.map { ScriptStep.FieldValue(field: $0.key, value: $0.value.value, location: $0.keyLocation) }
      kind = word.text == "fill" ? .fill(fields) : .set(fields)
    case ("select", .mapping(let members)): kind = Self.picks(members).map { .select($0) }
    case ("result", .mapping(let members)): kind = Self.result(members)
    default: kind = nil
    }
    return kind.map { ScriptStep($0, location: keyLocation) }
  }

  /// `select:`'s items when each is a scalar or a list of scalars (what `Reader.stringList` takes).
  private static func picks(_ members: [ScriptNode.Member]) -> [ScriptStep.FieldItems]? {
    var picks: [ScriptStep.FieldItems] = []
    for member in members {
      var items: [String] = []
      switch member.value.kind {
      case .scalar:
        guard let text = member.value.scalarText else { return nil }
        items.append(text)
      case .sequence(let elements):
        for element in elements {
          guard case .scalar = element.kind, let text = element.scalarText else { return nil }
          items.append(text)
        }
      case .mapping: return nil
      }
      picks.append(ScriptStep.FieldItems(field: member.key, items: items, location: member.keyLocation))
    }
    return picks
  }

  /// `result: {status: success | failure | cancelled}` alone.
  private static func result(_ members: [ScriptNode.Member]) -> ScriptStep.Kind? {
    guard members.count == 1, members[0].key == "status", case .scalar(.string(let status)) = members[0].value.kind
    else { return nil }
    switch status {
    case "success": return .result(.success(nil))
    case "failure": return .result(.failure(nil))
    case "cancelled": return .result(.cancelled)
    default: return nil
    }
  }

  // MARK: Scalars

  private struct Scalar {
    var text: String
    var plain: Bool
  }

  private func node(_ scalar: Scalar, at start: Int) -> ScriptNode {
    let kind: ScriptNode.Scalar = scalar.plain ? ScriptNodeReader.plainKind(scalar.text) : .string(scalar.text)
    return ScriptNode(kind: .scalar(kind), location: location(start), text: scalar.text)
  }

  /// A one-line scalar at `i` (nil when there is none); `i` ends after it.
  private mutating func scalar(flow: Bool) throws(Bail) -> Scalar? {
    guard let (from, to, quoted) = try scalarEnd(flow: flow) else { return nil }
    var text = String(decoding: UnsafeBufferPointer(rebasing: b[from..<to]), as: UTF8.self)
    if quoted == UInt8(ascii: "'"), text.utf8.contains(UInt8(ascii: "'")) {
      text = text.replacing("''", with: "'")
    }
    return Scalar(text: text, plain: quoted == 0)
  }

  /// Scans a one-line scalar at `i`: the byte range of its content and its quote (0 when
  /// plain); `i` ends after it (a plain scalar's trailing spaces are not part of it).
  private mutating func scalarEnd(flow: Bool) throws(Bail) -> (Int, Int, UInt8)? {
    guard i < n else { return nil }
    let first = b[i]
    if first == UInt8(ascii: "'") || first == UInt8(ascii: "\"") {
      var j = i + 1
      while true {
        guard j < n, b[j] != 0x0A else { throw Bail() }  // multi-line or unterminated
        if b[j] == UInt8(ascii: "\\"), first == UInt8(ascii: "\"") { throw Bail() }  // escapes
        if b[j] == first {
          if first == UInt8(ascii: "'"), j + 1 < n, b[j + 1] == first {
            j += 2
            continue
          }
          break
        }
        j += 1
      }
      let range = (i + 1, j, first)
      i = j + 1
      // What may follow a quoted scalar on the line.
      let next = byte(i)
      guard
        next == 0x20 || next == 0x0A || next == UInt8(ascii: ":")
          || (flow && (next == UInt8(ascii: ",") || next == UInt8(ascii: "}") || next == UInt8(ascii: "]")))
      else { throw Bail() }
      return range
    }
    switch first {
    case UInt8(ascii: "-"):
      let next = byte(i + 1)
      if next == 0x20 || next == 0x0A { return nil }
      guard !Self.isIndicator(next) else { throw Bail() }
    case UInt8(ascii: "#"), 0x0A, 0x20:
      return nil
    case UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"),
      UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"),
      UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"):
      throw Bail()
    default:
      break
    }
    let from = i
    var end = i
    var j = i
    while j < n {
      let c = b[j]
      if c == 0x0A { break }
      if c == UInt8(ascii: ":") {
        let next = byte(j + 1)
        if next == 0x20 || next == 0x0A { break }
        if flow { throw Bail() }
      } else if c == 0x20 {
        var k = j
        while k < n, b[k] == 0x20 { k += 1 }
        if k == n || b[k] == 0x0A || b[k] == UInt8(ascii: "#") { break }
        j = k
        continue
      } else if flow,
        c == UInt8(ascii: ",") || c == UInt8(ascii: "[") || c == UInt8(ascii: "]") || c == UInt8(ascii: "{")
          || c == UInt8(ascii: "}")
      {
        break
      }
      j += 1
      end = j
    }
    i = end
    return (from, end, 0)
  }

  private static func isIndicator(_ c: UInt8) -> Bool {
    switch c {
    case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "["),
      UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "#"), UInt8(ascii: "&"),
      UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "'"),
      UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"):
      true
    default: false
    }
  }
}
