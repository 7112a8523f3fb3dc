#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Template text with `{ expr | filter: arg }` interpolations (flow-format §6).
public struct Template: Hashable, Sendable {
  /// A `{…}` whose contents parsed: an expression and its filters.
  public struct Interpolation: Hashable, Sendable {
    /// The text including the braces, shown as-is when evaluation fails.
    public var source: String
    /// UTF-8 offset of `{` in the template; expression ranges are relative to `offset + 1`.
    public var offset: Int
    /// The expression before the first `|`.
    public var expression: Expression
    /// The filters, applied left to right.
    public var filters: [Filter]
  }

  /// A piece of a template.
  public enum Segment: Hashable, Sendable {
    /// Literal text (with `\{` already turned into `{`).
    case text(String)
    /// An interpolation.
    case interpolation(Interpolation)
    /// Braces whose contents are not an expression: kept literally; the error is for linters.
    case invalid(source: String, offset: Int, error: ExpressionError)
  }

  /// The template's pieces in order, built from `pieces` (each call makes the array: walks
  /// that only need the interpolations use `forEachInterpolation`).
  public var segments: [Segment] {
    var segments: [Segment] = []
    forEachSegment { segments.append($0) }
    return segments
  }
  /// The braces and the literal runs holding `\{`, in order; the text between two of them is a
  /// literal run of `source` as written. Empty for a text shown as written (`isPlainText`).
  /// Pieces are ranges of `source`, not copies: an interpolating text kept its literal runs
  /// and braces again as `String`s, and a segment array of 64-byte elements (docs/performance.md,
  /// ninth round).
  private let pieces: [Piece]
  /// The original text.
  public let source: String

  /// Splits template text into literal text and interpolations; this never fails.
  public init(parsing source: String) {
    self.source = source
    // Most texts have no `{` at all (and so no `\{` either): they have no pieces. An array for
    // them cost an allocation per text of a flow at load (112,000 on the rule-heavy bench flow).
    // Offsets are 32 bits: flows are at most 4 GiB (`FlowLoader`), a longer text stays literal.
    let mayInterpolate = Template.mayInterpolate(source) && source.utf8.count <= UInt32.max
    self.pieces = mayInterpolate ? Template.parse(source) : []
  }

  /// The same, sharing what earlier templates compiled with `sharing` built alike: each
  /// brace's compiled contents (its expression's box and filters) by their bytes, and the piece
  /// array of a template with one brace at the same offset. A loader compiles a flow's
  /// templates so: `lint-chain`'s 21,714 texts interpolating `{answer}` each held a piece array
  /// and an expression's box (128 bytes of chunks).
  public init(parsing source: String, sharing: inout Sharing) {
    self.source = source
    guard Template.mayInterpolate(source), source.utf8.count <= UInt32.max else {
      self.pieces = []
      return
    }
    self.pieces = withUnsafeMutablePointer(to: &sharing) { Template.parse(source, sharing: $0) }
  }

  private init(source: String, pieces: [Piece]) {
    self.source = source
    self.pieces = pieces
  }

  /// The text has no braces to interpolate or report and no `\{`: it is shown as written.
  /// Walks over a flow's templates skip these without looking at `segments`.
  public var isPlainText: Bool { pieces.isEmpty }

  /// This template with braces around a name of words (`{Daily Hours}`, `{first-name}`) read
  /// as that name instead of staying literal: a Sequence field may be named so (document 000
  /// asks for snake_case but the SDK stores any key), and its template then reads it.
  public var readingWordNames: Template {
    guard pieces.contains(where: { if case .invalid = $0.kind { true } else { false } }) else { return self }
    return Template(
      source: source,
      pieces: pieces.map { piece in
        guard case .invalid = piece.kind, let name = Template.wordName(String(sourceText(of: piece))) else {
          return piece
        }
        let expression = Expression(.name(name), range: SourceRange(offset: 0, length: piece.length - 2))
        var piece = piece
        piece.kind = .interpolation(expression, [])
        return piece
      })
  }

  /// `Daily Hours` for `{Daily Hours}`: ASCII letters, digits, spaces, `-` and `_`, starting
  /// with a letter; nil for anything else.
  public static func wordName(_ braces: String) -> String? {
    guard braces.hasPrefix("{"), braces.hasSuffix("}") else { return nil }
    let inner = String(braces.dropFirst().dropLast()).trimmingSpaces
    guard let first = inner.utf8.first, isLetter(first) else { return nil }
    let wordLike = inner.utf8.allSatisfy {
      isLetter($0) || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
    }
    return wordLike ? inner : nil
  }

  private static func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }

  /// Whether `source` contains a `{` byte; only then can it hold an interpolation or `\{`.
  private static func mayInterpolate(_ source: String) -> Bool {
    var source = source
    return source.withUTF8 { buffer in
      guard let base = buffer.baseAddress, !buffer.isEmpty else { return false }
      return memchr(base, 0x7B, buffer.count) != nil
    }
  }

  /// Whether the template has no interpolation at all.
  public var isConstant: Bool {
    !pieces.contains { if case .interpolation = $0.kind { true } else { false } }
  }

  /// Calls `body` with each interpolation, in order (`segments` without the literal text).
  public func forEachInterpolation(_ body: (Interpolation) -> Void) {
    for piece in pieces {
      guard case .interpolation(let expression, let filters) = piece.kind else { continue }
      body(
        Interpolation(
          source: String(sourceText(of: piece)), offset: piece.offset, expression: expression, filters: filters))
    }
  }

  /// The root names the interpolations and their filter arguments read (for the linter).
  public var variableNames: [String] {
    var names: [String] = []
    for piece in pieces {
      guard case .interpolation(let expression, let filters) = piece.kind else { continue }
      expression.collectNames(into: &names)
      for filter in filters { filter.argument?.collectNames(into: &names) }
    }
    return names
  }

  /// The syntax problems of braces that stay literal (for `flowrun check`).
  public var syntaxIssues: [TemplateIssue] {
    pieces.compactMap {
      guard case .invalid(let error) = $0.kind else { return nil }
      return TemplateIssue(source: String(sourceText(of: $0)), offset: $0.offset, message: error.message)
    }
  }

  /// Renders the template; an interpolation that cannot be evaluated stays literal and is
  /// reported in `issues` (as are braces that do not parse). Output past
  /// `Limits.templateBytes` is cut there, with a visible mark and an issue: a few references
  /// to a long answer must not multiply into gigabytes.
  public func render(in environment: some ExpressionEnvironment) -> TemplateRendering {
    if pieces.isEmpty, source.utf8.count <= Limits.templateBytes {
      return TemplateRendering(text: source, issues: [])
    }
    var text = ""
    var issues: [TemplateIssue] = []
    // Literal runs are appended from `source` as they are (no segment is built for them).
    func literal(_ start: Int, _ end: Int) -> Bool {
      text += slice(start, end)
      if text.utf8.count > Limits.templateBytes {
        Template.cut(&text, &issues, source: String(slice(start, end).prefix(80)), offset: 0)
        return false
      }
      return true
    }
    for step in Walk(pieces: pieces, end: source.utf8.count) {
      let piece: Piece
      switch step {
      case .run(let start, let end):
        guard literal(start, end) else { return TemplateRendering(text: text, issues: issues) }
        continue
      case .piece(let next):
        piece = next
      }
      switch piece.kind {
      case .escaped:
        text += Template.unescaped(sourceText(of: piece))
      case .invalid(let error):
        let braced = String(sourceText(of: piece))
        text += braced
        issues.append(TemplateIssue(source: braced, offset: piece.offset, message: error.message))
      case .interpolation(let expression, let filters):
        switch Interpolation.value(of: expression, filters, in: environment, braced: { String(sourceText(of: piece)) })
        {
        case .success(let value):
          text += value.displayString
        case .failure(let error):
          let braced = String(sourceText(of: piece))
          text += braced
          issues.append(TemplateIssue(source: braced, offset: piece.offset, message: error.description))
        }
      }
      if text.utf8.count > Limits.templateBytes {
        let (source, offset) =
          if case .escaped = piece.kind {
            (String(Template.unescaped(sourceText(of: piece)).prefix(80)), 0)
          } else {
            (String(sourceText(of: piece)), piece.offset)
          }
        Template.cut(&text, &issues, source: source, offset: offset)
        return TemplateRendering(text: text, issues: issues)
      }
    }
    return TemplateRendering(text: text, issues: issues)
  }

  /// Calls `body` with each segment in order, built from the pieces and the runs between them.
  private func forEachSegment(_ body: (Segment) -> Void) {
    for step in Walk(pieces: pieces, end: source.utf8.count) {
      switch step {
      case .run(let start, let end): body(.text(String(slice(start, end))))
      case .piece(let piece):
        let braced = sourceText(of: piece)
        switch piece.kind {
        case .escaped: body(.text(Template.unescaped(braced)))
        case .interpolation(let expression, let filters):
          body(
            .interpolation(
              Interpolation(source: String(braced), offset: piece.offset, expression: expression, filters: filters)))
        case .invalid(let error): body(.invalid(source: String(braced), offset: piece.offset, error: error))
        }
      }
    }
  }

  /// The template in order: each literal run of `source` between the pieces (the whole text
  /// when there are none) as its byte range, and each piece. A literal run holding `\{` is a
  /// piece of its own, which starts where the last piece ended: no run comes between them.
  /// An iterator, not a walk with closures: `render` writes its text and issues from the loop
  /// (captured by closures, each write was checked for exclusive access at run time).
  private struct Walk: Sequence, IteratorProtocol {
    enum Step {
      case run(Int, Int)
      case piece(Piece)
    }
    let pieces: [Piece]
    let end: Int
    var index = 0
    var cursor = 0

    init(pieces: [Piece], end: Int) {
      self.pieces = pieces
      self.end = end
    }

    mutating func next() -> Step? {
      if index < pieces.count {
        let piece = pieces[index]
        if cursor < piece.offset {
          defer { cursor = piece.offset }
          return .run(cursor, piece.offset)
        }
        index += 1
        cursor = piece.offset + piece.length
        return .piece(piece)
      }
      guard cursor < end else { return nil }
      defer { cursor = end }
      return .run(cursor, end)
    }
  }

  /// The bytes `start..<end` of `source` (offsets at ASCII bytes or the ends, so on characters).
  private func slice(_ start: Int, _ end: Int) -> Substring {
    let utf8 = source.utf8
    return Substring(utf8[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)])
  }

  /// The text of `source` a piece covers: its braces, or its literal run as written.
  private func sourceText(of piece: Piece) -> Substring { slice(piece.offset, piece.offset + piece.length) }

  /// A literal run as shown: each `\{` becomes `{` (every `\{` of a run is an escape: the parse
  /// reads a `\` that escapes nothing as one literal byte, so `\\{` is `\{`).
  private static func unescaped(_ run: Substring) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(run.utf8.count)
    var afterBackslash = false
    for byte in run.utf8 {
      if afterBackslash, byte == 0x7B { bytes.removeLast() }
      afterBackslash = byte == 0x5C
      bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Cuts `text` to `Limits.templateBytes` (at a character boundary) and says so, in the text
  /// and as an issue of the piece (its text, or a literal run's first 80 characters) that
  /// crossed the bound.
  private static func cut(_ text: inout String, _ issues: inout [TemplateIssue], source: String, offset: Int) {
    let bytes = Array(text.utf8)
    var end = Limits.templateBytes
    while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
    let limit = NumberFormatting.grouped(Double(Limits.templateBytes))
    text = String(decoding: bytes[..<end], as: UTF8.self) + " [… output cut at \(limit) bytes]"
    issues.append(
      TemplateIssue(source: source, offset: offset, message: "output longer than \(limit) bytes; cut there"))
  }

  private static func parse(_ source: String, sharing: UnsafeMutablePointer<Sharing>? = nil) -> [Piece] {
    let bytes = Array(source.utf8)
    var pieces: [Piece] = []
    // Where the current literal run began, and whether it holds a `\{`.
    var run = 0
    var escaped = false
    var i = 0
    // Only `{` and `\` start anything: the scan jumps from one to the next (`memchr`) instead
    // of looking at every byte of the text.
    var nextBrace = -1
    var nextEscape = -1
    while i < bytes.count {
      if nextBrace < i { nextBrace = firstIndex(of: 0x7B, in: bytes, from: i) }
      if nextEscape < i { nextEscape = firstIndex(of: 0x5C, in: bytes, from: i) }
      i = min(nextBrace, nextEscape)
      guard i < bytes.count else { break }
      let byte = bytes[i]
      if byte == 0x5C, i + 1 < bytes.count, bytes[i + 1] == 0x7B {  // \{ is a literal brace
        escaped = true
        i += 2
      } else if byte == 0x7B, let close = closingBrace(in: bytes, openingAt: i) {
        if escaped { pieces.append(Piece(start: run, end: i, kind: .escaped)) }
        let inner = Array(bytes[(i + 1)..<close])
        let kind = sharing?.pointee.kind(inner: inner, offset: i) ?? Self.kind(inner: inner)
        pieces.append(Piece(start: i, end: close + 1, kind: kind))
        i = close + 1
        run = i
        escaped = false
      } else {
        i += 1
      }
    }
    if escaped { pieces.append(Piece(start: run, end: bytes.count, kind: .escaped)) }
    if let sharing, pieces.count == 1 { return sharing.pointee.pieces(pieces) }
    return pieces
  }

  /// The index of the first `byte` of `bytes` at or after `start`, or `bytes.count`.
  private static func firstIndex(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int {
    bytes.withUnsafeBufferPointer { buffer in
      guard start < buffer.count, let base = buffer.baseAddress,
        let found = memchr(base + start, Int32(byte), buffer.count - start)
      else { return buffer.count }
      return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
  }

  /// The `}` that closes the `{` at `open`, skipping quoted strings; nil if another `{` comes
  /// first or there is none (the `{` is then literal text).
  private static func closingBrace(in bytes: [UInt8], openingAt open: Int) -> Int? {
    var i = open + 1
    var quote: UInt8?
    while i < bytes.count {
      let byte = bytes[i]
      if let q = quote {
        if byte == 0x5C { i += 1 } else if byte == q { quote = nil }
      } else if byte == 0x27 || byte == 0x22 {
        quote = byte
      } else if byte == 0x7D {
        return i
      } else if byte == 0x7B {
        return nil
      }
      i += 1
    }
    return nil
  }

  /// What the braces around the bytes `inner` are: an interpolation, or literal text and why.
  static func kind(inner: [UInt8]) -> Piece.Kind {
    if let (expression, filters) = simpleInterpolation(inner) { return .interpolation(expression, filters) }
    return parsedKind(inner: inner)
  }

  /// `kind(inner:)` through the lexer and the parser, for any contents.
  static func parsedKind(inner: [UInt8]) -> Piece.Kind {
    do throws(ExpressionError) {
      var parser = try Parser(Lexer(bytes: inner))
      let (expression, rawFilters) = try parser.parseInterpolation()
      var filters: [Filter] = []
      filters.reserveCapacity(rawFilters.count)
      for raw in rawFilters { filters.append(try Filter.make(raw, column: parser.column(of:))) }
      return .interpolation(expression, filters)
    } catch {
      return .invalid(error)
    }
  }
}

extension Template {
  /// What `init(parsing:sharing:)` has compiled so far, to share with the templates that
  /// follow. Kept while a document loads, then dropped: what it holds is in the templates.
  ///
  /// Direct-mapped by a hash of the brace's bytes (as `ShortStringCache` keeps short strings):
  /// a lookup is a hash of a few bytes and a compare, cheaper than compiling the brace again
  /// and allocating its pieces, so sharing costs a load no instructions. Keyed by bytes, not by
  /// the compiled value: strings that compare equal (`é` composed or not) keep their own bytes.
  public struct Sharing: Sendable {
    /// A brace compiled before: its contents, where it started and what it compiled to.
    fileprivate struct Entry {
      var inner: [UInt8] = []
      var offset = -1
      var pieces: [Piece] = []
    }

    /// 4,096 entries (about 100 KB while a document loads), made at the first brace.
    private var entries: [Entry] = []
    /// The slot of the brace `kind(inner:offset:)` looked up last.
    private var slot = 0

    public init() {}

    /// The compiled `inner`, taken from the entry of the same bytes if there is one; otherwise
    /// compiled and kept, with `offset`, as a one-piece array for `pieces(_:)`.
    fileprivate mutating func kind(inner: [UInt8], offset: Int) -> Piece.Kind {
      if entries.isEmpty { entries = Array(repeating: Entry(), count: 4_096) }
      var hash: UInt32 = 2_166_136_261
      for byte in inner { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
      slot = Int(hash & 4_095)
      if entries[slot].inner == inner, let piece = entries[slot].pieces.first { return piece.kind }
      let kind = Template.kind(inner: inner)
      entries[slot] = Entry(
        inner: inner, offset: offset, pieces: [Piece(start: offset, end: offset + inner.count + 2, kind: kind)])
      return kind
    }

    /// `pieces`, a template's one piece, or the equal array of an earlier template whose one
    /// brace was the same bytes at the same offset. The entry keeps the offset seen last, so a
    /// run of texts that place a brace alike (`Step 10` to `Step 99`) share one array.
    fileprivate mutating func pieces(_ pieces: [Piece]) -> [Piece] {
      // An interpolation was looked up by `kind(inner:offset:)` (a `\{` run alone was not).
      guard case .interpolation = pieces[0].kind, !entries.isEmpty else { return pieces }
      if entries[slot].offset == pieces[0].offset { return entries[slot].pieces }
      entries[slot].offset = pieces[0].offset
      entries[slot].pieces = pieces
      return pieces
    }
  }

  /// A stored piece of a template: a range of its `source` and what the range is.
  struct Piece: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
      /// Braces whose contents parsed: the expression and its filters.
      case interpolation(Expression, [Filter])
      /// Braces whose contents are not an expression: kept literally (boxed: they are rare).
      indirect case invalid(ExpressionError)
      /// A literal run holding `\{`, shown with each `\{` as `{`.
      case escaped
    }

    private var storedStart: UInt32
    private var storedLength: UInt32
    var kind: Kind

    init(start: Int, end: Int, kind: Kind) {
      storedStart = UInt32(start)
      storedLength = UInt32(end - start)
      self.kind = kind
    }

    /// UTF-8 offset of the piece (of `{` for braces) in the template.
    var offset: Int { Int(storedStart) }
    var length: Int { Int(storedLength) }
  }
}

extension Template {
  /// The most common interpolations, `{name}`, `{name | filter}` and `{name | filter: 'text'}`
  /// (or `: 2`), read without the lexer and the parser: what they would build, or nil for
  /// anything else (a keyword, a call, an operator, an escape, a filter that does not take
  /// what it is given). Half the cost of compiling a flow's templates was tokens and trees for
  /// these.
  static func simpleInterpolation(_ inner: [UInt8]) -> (Expression, [Filter])? {
    var i = 0
    func skipSpace() {
      while i < inner.count, inner[i] == 0x20 || inner[i] == 0x09 || inner[i] == 0x0A || inner[i] == 0x0D { i += 1 }
    }
    /// The identifier at `i`, as the lexer reads one.
    func identifier() -> SourceRange? {
      guard i < inner.count, Lexer.isIdentifierStart(inner[i]) else { return nil }
      let start = i
      i += 1
      while i < inner.count, Lexer.isIdentifierPart(inner[i]) { i += 1 }
      return SourceRange(offset: start, length: i - start)
    }
    func text(_ range: SourceRange) -> String {
      String(decoding: inner[range.offset..<(range.offset + range.length)], as: UTF8.self)
    }
    skipSpace()
    guard let name = identifier(), Lexer.keyword(inner[name.offset..<(name.offset + name.length)]) == nil else {
      return nil
    }
    let expression = Expression(.name(text(name)), range: name)
    skipSpace()
    if i == inner.count { return (expression, []) }
    guard inner[i] == UInt8(ascii: "|") else { return nil }
    i += 1
    skipSpace()
    guard let filterName = identifier() else { return nil }
    skipSpace()
    var argument: Expression?
    if i < inner.count, inner[i] == UInt8(ascii: ":") {
      i += 1
      skipSpace()
      guard i < inner.count else { return nil }
      let start = i
      let first = inner[i]
      if first == 0x27 || first == 0x22 {
        i += 1
        while i < inner.count, inner[i] != first, inner[i] != 0x5C { i += 1 }
        guard i < inner.count, inner[i] == first else { return nil }
        i += 1
        let value = String(decoding: inner[(start + 1)..<(i - 1)], as: UTF8.self)
        argument = Expression(.literal(.string(value)), range: SourceRange(offset: start, length: i - start))
      } else if Lexer.isDigit(first) {
        while i < inner.count, Lexer.isDigit(inner[i]) { i += 1 }
        guard let value = Double(text(SourceRange(offset: start, length: i - start))) else { return nil }
        argument = Expression(.literal(.number(value)), range: SourceRange(offset: start, length: i - start))
      } else {
        return nil
      }
      skipSpace()
    }
    guard i == inner.count else { return nil }
    let raw = Parser.RawFilter(name: text(filterName), nameRange: filterName, argument: argument)
    guard let filter = try? Filter.make(raw, column: { $0 }) else { return nil }
    return (expression, [filter])
  }
}

extension Template.Interpolation {
  /// The interpolation's value after its filters, or why there is none.
  public func value(in environment: some ExpressionEnvironment) -> Result<Value, EvaluationError> {
    Self.value(of: expression, filters, in: environment, braced: { source })
  }

  /// The value of `expression` after `filters`; `braced` (the braces' text) names what is
  /// missing when a filter leaves nothing without an error.
  static func value(
    of expression: Expression, _ filters: [Filter], in environment: some ExpressionEnvironment,
    braced: () -> String
  ) -> Result<Value, EvaluationError> {
    var value: Value?
    var missing: EvaluationError?
    do throws(EvaluationError) {
      value = try expression.evaluate(in: environment)
    } catch .missingVariable(let path) {
      // Missing is not fatal yet: a later `default` filter may supply a value.
      missing = .missingVariable(path)
    } catch {
      return .failure(error)
    }
    for filter in filters {
      do throws(EvaluationError) {
        value = try filter.apply(to: value, in: environment)
      } catch {
        return .failure(error)
      }
    }
    guard let value else { return .failure(missing ?? .missingVariable(braced())) }
    return .success(value)
  }
}

/// The result of rendering a template: the text and what could not be filled in.
public struct TemplateRendering: Hashable, Sendable {
  /// The rendered text; failed interpolations appear literally.
  public var text: String
  /// Why interpolations stayed literal, in template order.
  public var issues: [TemplateIssue]
}

/// An interpolation that stayed literal, and why.
public struct TemplateIssue: Hashable, Sendable, CustomStringConvertible {
  /// The `{…}` text.
  public var source: String
  /// UTF-8 offset of `{` in the template.
  public var offset: Int
  /// Why: `missing variable 'name'`, `division by zero`, a syntax error.
  public var message: String

  /// Creates an issue.
  public init(source: String, offset: Int, message: String) {
    self.source = source
    self.offset = offset
    self.message = message
  }

  /// `{name}: missing variable 'name'`.
  public var description: String { "\(source): \(message)" }
}
