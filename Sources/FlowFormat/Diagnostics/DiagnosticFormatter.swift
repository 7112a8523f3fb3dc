import FlowExpression
import FlowSupport

/// Renders diagnostics for people (compiler-style text with the source line and a caret) and
/// for programs (deterministic JSON).
///
///     flow.json:3:9: error: expected ':' after object key [json.syntax.expected-colon]
///       "id" 1,
///            ^
///     flow.json:1:1: note: the object starts here
public struct DiagnosticFormatter: Sendable {
  /// Source bytes by file name (as in ``Diagnostic/file``; `""` for diagnostics without a file).
  /// When a diagnostic's file is here, its line is shown with a caret under the column.
  public var sources: [String: [UInt8]]
  /// Files held open instead of their bytes (`LoadResult.held`), read back for each excerpt:
  /// a file that changed since it was read gets `changedFileNote` instead.
  public var files: [String: HeldFile]
  /// Lines longer than this many characters are trimmed around the column.
  public var maxLineWidth: Int
  /// Shown instead of a missing file name.
  public var unnamedFile: String

  public init(
    sources: [String: [UInt8]] = [:], files: [String: HeldFile] = [:], maxLineWidth: Int = 120,
    unnamedFile: String = "<input>"
  ) {
    self.sources = sources
    self.files = files
    self.maxLineWidth = max(maxLineWidth, 20)
    self.unnamedFile = unnamedFile
  }

  // MARK: Text

  /// The diagnostics as text, each ending with a newline: the first `Limits.shownDiagnostics`,
  /// then a line saying how many more there are (a big broken file can have a million).
  public func text(_ diagnostics: [Diagnostic]) -> String {
    diagnostics.prefix(Limits.shownDiagnostics).map(text).joined() + Self.notShown(diagnostics.count)
  }

  /// The line that ends a text report of `count` diagnostics when some were left out; empty
  /// when all were shown. `hint` says where to find them all.
  public static func notShown(_ count: Int, hint: String = "") -> String {
    guard count > Limits.shownDiagnostics else { return "" }
    let more = count - Limits.shownDiagnostics
    return
      "note: \(NumberFormatting.grouped(Double(more))) more \(more == 1 ? "diagnostic" : "diagnostics") not shown\(hint)\n"
  }

  /// One diagnostic as text: the header, the source excerpt, the notes; ends with a newline.
  public func text(_ diagnostic: Diagnostic) -> String {
    let path = diagnostic.file ?? unnamedFile
    var out = header(path, diagnostic.location)
    out += "\(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.id)]\n"
    if let location = diagnostic.location {
      if let source = sources[diagnostic.file ?? ""] {
        out += excerpt(source, at: location)
      } else if let file = files[diagnostic.file ?? ""] {
        out += excerpt(file, at: location)
      }
    }
    // A note without a position belongs to the diagnostic above it; a bare file name would
    // read like a malformed `file:line:col` header (clang prints such notes the same way).
    for note in diagnostic.notes {
      out += (note.location == nil ? "" : header(path, note.location)) + "note: \(note.message)\n"
    }
    return out
  }

  private func header(_ path: String, _ location: SourceLocation?) -> String {
    guard let location else { return "\(path): " }
    return "\(path):\(location.line):\(location.column): "
  }

  /// The source line containing `location` and a caret line under its column.
  ///
  /// Only up to `maxLineWidth` characters either side of the offset are read: a flow written as
  /// one line of several megabytes made every diagnostic decode the whole line.
  public func excerpt(_ source: [UInt8], at location: SourceLocation) -> String {
    excerpt(source, from: 0, of: source.count, at: location)!
  }

  /// Shown instead of an excerpt when the file read back (`files`) is no longer the one
  /// checked: changed, replaced or gone (docs/loading.md).
  public static let changedFileNote = "(no excerpt: the file has changed since it was read)\n"

  /// The excerpt of a held file: the bytes around the offset read back, more when a line's
  /// window reaches past them (a run of UTF-8 continuation bytes).
  func excerpt(_ file: HeldFile, at location: SourceLocation) -> String {
    let offset = min(max(location.offset, 0), file.size)
    var reach = 4 * maxLineWidth + 8
    while true {
      let window = max(0, offset - reach)..<min(file.size, offset + reach)
      guard let bytes = file.read(window) else { return Self.changedFileNote }
      if let text = excerpt(bytes, from: window.lowerBound, of: file.size, at: location) { return text }
      if window == 0..<file.size { return Self.changedFileNote }
      reach *= 4
    }
  }

  /// The excerpt from `window`, the file's bytes from offset `base` on, of a file of `count`
  /// bytes; nil when it needs a byte outside the window.
  private func excerpt(_ window: [UInt8], from base: Int, of count: Int, at location: SourceLocation) -> String? {
    let offset = min(max(location.offset, 0), count)
    let limit = base + window.count
    guard base <= offset, offset <= limit else { return nil }
    func byte(_ index: Int) -> UInt8 { window[index - base] }
    func isBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }
    func startsScalar(_ byte: UInt8) -> Bool { byte & 0xC0 != 0x80 }
    var start = offset
    var before = 0
    while start > 0 && before < maxLineWidth {
      guard start > base else { return nil }
      if isBreak(byte(start - 1)) { break }
      start -= 1
      if startsScalar(byte(start)) { before += 1 }
    }
    guard start == 0 || start > base else { return nil }
    let atLineStart = start == 0 || isBreak(byte(start - 1))
    if start == 0 {
      guard window.count >= min(3, count) else { return nil }
      if window.starts(with: [0xEF, 0xBB, 0xBF]) { start = min(3, offset) }
    }
    var end = offset
    var after = 0
    while end < count && after < maxLineWidth {
      guard end < limit else { return nil }
      if isBreak(byte(end)) { break }
      end += 1
      while end < count {
        guard end < limit else { return nil }
        if startsScalar(byte(end)) { break }
        end += 1
      }
      after += 1
    }
    guard end == count || end < limit else { return nil }
    let atLineEnd = end == count || isBreak(byte(end))
    let scalars = Array(String(decoding: window[(start - base)..<(end - base)], as: UTF8.self).unicodeScalars)
    let wholeLine = atLineStart && atLineEnd
    // A whole line places the caret by the location's column; a window of a longer line by
    // the characters before the offset (the same place when the location is consistent).
    let column =
      wholeLine
      ? min(max(location.column - 1, 0), scalars.count)
      : String(decoding: window[(start - base)..<(offset - base)], as: UTF8.self).unicodeScalars.count

    var first = 0
    var last = scalars.count
    if scalars.count > maxLineWidth || !wholeLine {
      first = max(0, column - maxLineWidth / 2)
      last = min(scalars.count, first + maxLineWidth)
      first = max(0, last - maxLineWidth)
    }
    let cutBefore = first > 0 || !atLineStart
    // Both lines are written as UTF-8 bytes: a string grown a scalar at a time (and a string
    // of spaces made per column) cost 100,000 instructions an excerpt of a 300-column line.
    var line: [UInt8] = cutBefore ? Array("...".utf8) : []
    var caret: [UInt8] = cutBefore ? Array("   ".utf8) : []
    line.reserveCapacity(line.count + (last - first) + 8)
    for index in first..<last {
      let s = scalars[index]
      let shown = Self.visible(s)
      UTF8.encode(shown) { line.append($0) }
      if index < column {
        if s == "\t" {
          caret.append(UInt8(ascii: "\t"))
        } else if shown.value >= 0x20 && shown.value < 0x7F {
          caret.append(UInt8(ascii: " "))
        } else {
          for _ in 0..<DisplayWidth.of(shown) { caret.append(UInt8(ascii: " ")) }
        }
      }
    }
    if last < scalars.count || !atLineEnd { line += "...".utf8 }
    line.append(UInt8(ascii: "\n"))
    line += caret
    line += "^\n".utf8
    return String(decoding: line, as: UTF8.self)
  }

  /// Control characters other than tab shown as their Unicode control pictures.
  private static func visible(_ s: Unicode.Scalar) -> Unicode.Scalar {
    if s.value < 0x20 && s != "\t" { return Unicode.Scalar(0x2400 + s.value)! }
    if s.value == 0x7F { return "\u{2421}" }
    return s
  }

  // MARK: JSON

  /// One diagnostic as a JSON object with the members file, line, column, severity, id,
  /// message, path and notes (null when absent).
  public static func jsonValue(_ diagnostic: Diagnostic) -> JSONWriter.Value {
    func optional(_ s: String?) -> JSONWriter.Value { s.map { .string($0) } ?? .null }
    func position(_ l: SourceLocation?) -> [(key: String, value: JSONWriter.Value)] {
      [
        ("line", l.map { .int($0.line) } ?? .null),
        ("column", l.map { .int($0.column) } ?? .null),
      ]
    }
    let notes: [JSONWriter.Value] = diagnostic.notes.map { note in
      .object(
        [("file", optional(diagnostic.file))] + position(note.location) + [
          ("message", .string(note.message))
        ])
    }
    return .object(
      [("file", optional(diagnostic.file))] + position(diagnostic.location) + [
        ("severity", .string(diagnostic.severity.rawValue)),
        ("id", .string(diagnostic.id)),
        ("message", .string(diagnostic.message)),
        ("path", optional(diagnostic.path)),
        ("notes", .array(notes)),
      ])
  }

  /// The diagnostics as a JSON array of ``jsonValue(_:)`` objects.
  public static func json(_ diagnostics: [Diagnostic], style: JSONWriter.Style = .pretty) -> String {
    JSONWriter(style: style).string(.array(diagnostics.map(jsonValue)))
  }

  /// `json(diagnostics) + "\n"` (pretty), handed to `write` a piece of `chunk` diagnostics at a
  /// time as it is formatted: a report of tens of thousands of diagnostics is then never held
  /// whole, nor are the values it is written from (37 MB on the `lint-chain` bench flow).
  public static func writeJSON(_ diagnostics: [Diagnostic], chunk: Int = 1_024, to write: ([UInt8]) -> Void) {
    writeJSON(count: diagnostics.count, chunk: chunk, diagnostic: { diagnostics[$0] }, to: write)
  }

  /// `writeJSON` of `count` diagnostics that `diagnostic` makes (it may write their texts
  /// then), made and formatted `chunk` at a time (`chunk` >= 1) on two threads and written in
  /// order, at most two chunks ahead of `write` (`OrderedPieces`): on `lint-chain` writing the
  /// 21,714 notes of `check.uncollected-variable` and formatting them is two thirds of
  /// `check --format json`.
  public static func writeJSON(
    count: Int, chunk: Int = 1_024, diagnostic: @Sendable @escaping (Int) -> Diagnostic, to write: ([UInt8]) -> Void
  ) {
    guard count > 0 else { return write(Array("[]\n".utf8)) }
    write([UInt8(ascii: "[")])
    OrderedPieces.run(
      count: count, partsPerPiece: chunk, window: 2,
      draw: { index, out in
        if index > 0 { out.append(UInt8(ascii: ",")) }
        writeJSONElement(diagnostic(index), to: &out)
      }, write: write)
    write(Array("\n]\n".utf8))
  }

  /// A diagnostic as `JSONWriter.pretty` writes ``jsonValue(_:)`` as an element of the top
  /// array (its newline and indent first), straight into `out`: building the values and
  /// freeing them cost twice the writing on a report of 21,700 diagnostics.
  private static func writeJSONElement(_ diagnostic: Diagnostic, to out: inout [UInt8]) {
    func indent(_ level: Int) {
      out.append(0x0A)
      out.append(contentsOf: repeatElement(0x20, count: level * 2))
    }
    func member(_ key: StaticString, _ level: Int, first: Bool = false) {
      if !first { out.append(UInt8(ascii: ",")) }
      indent(level)
      out.append(UInt8(ascii: "\""))
      key.withUTF8Buffer { out.append(contentsOf: $0) }
      out.append(contentsOf: "\": ".utf8)
    }
    func string(_ text: String?) {
      guard let text else { return out.append(contentsOf: "null".utf8) }
      JSONWriter.appendQuoted(text, to: &out)
    }
    func int(_ number: Int?) {
      out.append(contentsOf: (number.map { String($0) } ?? "null").utf8)
    }
    // `{` and the members file, line and column of an object whose members are at `level`.
    func open(at location: SourceLocation?, _ level: Int) {
      indent(level - 1)
      out.append(UInt8(ascii: "{"))
      member("file", level, first: true)
      string(diagnostic.file)
      member("line", level)
      int(location?.line)
      member("column", level)
      int(location?.column)
    }
    open(at: diagnostic.location, 2)
    member("severity", 2)
    string(diagnostic.severity.rawValue)
    member("id", 2)
    string(diagnostic.id)
    member("message", 2)
    string(diagnostic.message)
    member("path", 2)
    string(diagnostic.path)
    member("notes", 2)
    if diagnostic.notes.isEmpty {
      out.append(contentsOf: "[]".utf8)
    } else {
      out.append(UInt8(ascii: "["))
      for (index, note) in diagnostic.notes.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        open(at: note.location, 4)
        member("message", 4)
        string(note.message)
        indent(3)
        out.append(UInt8(ascii: "}"))
      }
      indent(2)
      out.append(UInt8(ascii: "]"))
    }
    indent(1)
    out.append(UInt8(ascii: "}"))
  }

  /// The diagnostics as JSON Lines: one compact object per line, each ending with a newline.
  public static func jsonLines(_ diagnostics: [Diagnostic]) -> String {
    diagnostics.map { JSONWriter.compact.string(jsonValue($0)) + "\n" }.joined()
  }
}

extension Diagnostic {
  /// The display order: by file (diagnostics without a file first), then by offset
  /// (those without a location first), then errors before warnings before notes, then id.
  public static func displayOrder(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
    if a.file != b.file {
      guard let fa = a.file else { return true }
      guard let fb = b.file else { return false }
      return fa < fb
    }
    let oa = a.location?.offset ?? -1
    let ob = b.location?.offset ?? -1
    if oa != ob { return oa < ob }
    if a.severity != b.severity { return a.severity > b.severity }
    return a.id < b.id
  }
}

extension Sequence where Element == Diagnostic {
  /// The diagnostics in ``Diagnostic/displayOrder(_:_:)``; equal ones keep their order.
  public func sortedForDisplay() -> [Diagnostic] {
    let diagnostics = Array(self)
    return Diagnostic.displayPositions(count: diagnostics.count) { index in
      let diagnostic = diagnostics[index]
      return (diagnostic.file, diagnostic.location?.offset, diagnostic.severity, diagnostic.id)
    }.map { diagnostics[Int($0)] }
  }
}

extension Diagnostic {
  /// The positions of `count` diagnostics in ``displayOrder(_:_:)``, each told by `key` (its
  /// file, offset, severity and id): equal ones keep their order. A report can so order
  /// diagnostics it keeps as numbers (`lint-chain`'s 21,714 as `Diagnostic`s were 2 MB).
  ///
  /// Sorted as small keys (the file's and id's ranks among the distinct ones, the offset, the
  /// severity, the position): comparing the diagnostics themselves, strings and all, and moving
  /// them about cost 132 M instructions for the 21,714 of `lint-chain`.
  public static func displayPositions(
    count: Int, _ key: (Int) -> (file: String?, offset: Int?, severity: Severity, id: String)
  ) -> [Int32] {
    var files = DisplayRanks()
    var ids = DisplayRanks()
    var keys = (0..<count).map { index in
      let (file, offset, severity, id) = key(index)
      return DisplayKey(
        offset: Int64(offset ?? -1), file: files.number(file), id: ids.number(id), index: Int32(index),
        severity: 2 - severity.rank)
    }
    let (fileRanks, idRanks) = (files.ranks(), ids.ranks())
    for index in keys.indices {
      if keys[index].file >= 0 { keys[index].file = fileRanks[Int(keys[index].file)] }
      keys[index].id = idRanks[Int(keys[index].id)]
    }
    keys.sort {
      ($0.file, $0.offset, $0.severity, $0.id, $0.index) < ($1.file, $1.offset, $1.severity, $1.id, $1.index)
    }
    return keys.map(\.index)
  }
}

/// Where a diagnostic goes in the display order, as numbers.
///
/// 24 bytes (the offset first, the byte last: 32 in the order they compare), a key per
/// diagnostic while they sort.
private struct DisplayKey {
  var offset: Int64
  var file: Int32
  var id: Int32
  var index: Int32
  /// 0 for an error (shown first), 2 for a note.
  var severity: UInt8
}

/// Numbers for distinct values in the order they come, then each number's rank among the
/// values in `<` order (nil is -1, first).
private struct DisplayRanks {
  private var distinct: [String: Int32] = [:]
  // Runs of one value are the rule: a rule's diagnostics come together, all in one file.
  private var last: (value: String, number: Int32)?

  /// The number of `value` (-1 for nil).
  mutating func number(_ value: String?) -> Int32 {
    guard let value else { return -1 }
    if let last, last.value == value { return last.number }
    let number = distinct[value] ?? Int32(distinct.count)
    distinct[value] = number
    last = (value, number)
    return number
  }

  /// Each number's rank.
  func ranks() -> [Int32] {
    var rankOf = [Int32](repeating: 0, count: distinct.count)
    for (rank, entry) in distinct.sorted(by: { $0.key < $1.key }).enumerated() {
      rankOf[Int(entry.value)] = Int32(rank)
    }
    return rankOf
  }
}
