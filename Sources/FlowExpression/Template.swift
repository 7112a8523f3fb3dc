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

  /// The template's pieces in order.
  public var segments: [Segment] {
    parts.isEmpty && !source.isEmpty ? [.text(source)] : parts
  }
  /// The pieces as parsed; empty for a plain text (`isPlainText`), whose one piece is `source`.
  private let parts: [Segment]
  /// The original text.
  public let source: String

  /// Splits template text into literal text and interpolations; this never fails.
  public init(parsing source: String) {
    self.source = source
    // Most texts have no `{` at all (and so no `\{` either): their one literal segment is the
    // text itself, kept as `source` alone. An array for it cost an allocation per text of a
    // flow at load (112,000 on the rule-heavy bench flow).
    self.parts = Template.mayInterpolate(source) ? Template.parse(source) : []
  }

  private init(source: String, segments: [Segment]) {
    self.source = source
    self.parts = segments
  }

  /// The text has no `{` at all: it is shown as written, with no interpolation and no braces
  /// to report. Walks over a flow's templates skip these without looking at `segments`.
  public var isPlainText: Bool { parts.isEmpty }

  /// This template with braces around a name of words (`{Daily Hours}`, `{first-name}`) read
  /// as that name instead of staying literal: a Sequence field may be named so (document 000
  /// asks for snake_case but the SDK stores any key), and its template then reads it.
  public var readingWordNames: Template {
    guard parts.contains(where: { if case .invalid = $0 { true } else { false } }) else { return self }
    return Template(
      source: source,
      segments: parts.map { segment in
        guard case .invalid(let text, let offset, _) = segment, let name = Template.wordName(text) else {
          return segment
        }
        let expression = Expression(.name(name), range: SourceRange(offset: 0, length: text.utf8.count - 2))
        return .interpolation(Interpolation(source: text, offset: offset, expression: expression, filters: []))
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
    !parts.contains { if case .interpolation = $0 { true } else { false } }
  }

  /// The root names the interpolations and their filter arguments read (for the linter).
  public var variableNames: [String] {
    var names: [String] = []
    for case .interpolation(let interpolation) in parts {
      interpolation.expression.collectNames(into: &names)
      for filter in interpolation.filters { filter.argument?.collectNames(into: &names) }
    }
    return names
  }

  /// The syntax problems of braces that stay literal (for `flowrun check`).
  public var syntaxIssues: [TemplateIssue] {
    parts.compactMap {
      guard case .invalid(let source, let offset, let error) = $0 else { return nil }
      return TemplateIssue(source: source, offset: offset, message: error.message)
    }
  }

  /// Renders the template; an interpolation that cannot be evaluated stays literal and is
  /// reported in `issues` (as are braces that do not parse). Output past
  /// `Limits.templateBytes` is cut there, with a visible mark and an issue: a few references
  /// to a long answer must not multiply into gigabytes.
  public func render(in environment: some ExpressionEnvironment) -> TemplateRendering {
    if parts.isEmpty, source.utf8.count <= Limits.templateBytes {
      return TemplateRendering(text: source, issues: [])
    }
    var text = ""
    var issues: [TemplateIssue] = []
    for segment in segments {
      switch segment {
      case .text(let literal):
        text += literal
      case .invalid(let source, let offset, let error):
        text += source
        issues.append(TemplateIssue(source: source, offset: offset, message: error.message))
      case .interpolation(let interpolation):
        switch interpolation.value(in: environment) {
        case .success(let value):
          text += value.displayString
        case .failure(let error):
          text += interpolation.source
          issues.append(
            TemplateIssue(
              source: interpolation.source, offset: interpolation.offset, message: error.description
            ))
        }
      }
      if text.utf8.count > Limits.templateBytes {
        Template.cut(&text, &issues, at: segment)
        break
      }
    }
    return TemplateRendering(text: text, issues: issues)
  }

  /// Cuts `text` to `Limits.templateBytes` (at a character boundary) and says so, in the text
  /// and as an issue of the segment that crossed the bound.
  private static func cut(_ text: inout String, _ issues: inout [TemplateIssue], at segment: Segment) {
    let bytes = Array(text.utf8)
    var end = Limits.templateBytes
    while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
    let limit = NumberFormatting.grouped(Double(Limits.templateBytes))
    text = String(decoding: bytes[..<end], as: UTF8.self) + " [… output cut at \(limit) bytes]"
    let (source, offset) =
      switch segment {
      case .text(let literal): (String(literal.prefix(80)), 0)
      case .interpolation(let interpolation): (interpolation.source, interpolation.offset)
      case .invalid(let source, let offset, _): (source, offset)
      }
    issues.append(
      TemplateIssue(source: source, offset: offset, message: "output longer than \(limit) bytes; cut there"))
  }

  private static func parse(_ source: String) -> [Segment] {
    let bytes = Array(source.utf8)
    var segments: [Segment] = []
    segments.reserveCapacity(3)  // the usual `text {x} text`
    // Text before a `\{` (the brace included); empty while the current literal is one run.
    var literal: [UInt8] = []
    // Literal text is taken a run at a time (from `run` up to the next brace), not byte by
    // byte: templates are compiled for every text of a flow when it loads.
    var i = 0
    var run = 0
    func flush(upTo end: Int) {
      if literal.isEmpty {
        if run < end { segments.append(.text(String(decoding: bytes[run..<end], as: UTF8.self))) }
      } else {
        literal.append(contentsOf: bytes[run..<end])
        segments.append(.text(String(decoding: literal, as: UTF8.self)))
        literal.removeAll()
      }
    }
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
        literal.append(contentsOf: bytes[run..<i])
        literal.append(0x7B)
        i += 2
        run = i
      } else if byte == 0x7B, let close = closingBrace(in: bytes, openingAt: i) {
        flush(upTo: i)
        let braced = String(decoding: bytes[i...close], as: UTF8.self)
        segments.append(segment(braced: braced, inner: Array(bytes[(i + 1)..<close]), offset: i))
        i = close + 1
        run = i
      } else {
        i += 1
      }
    }
    flush(upTo: bytes.count)
    return segments
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

  /// The segment of the braces `braced` at `offset`, whose contents are the bytes `inner`.
  static func segment(braced: String, inner: [UInt8], offset: Int) -> Segment {
    if let (expression, filters) = simpleInterpolation(inner) {
      return .interpolation(Interpolation(source: braced, offset: offset, expression: expression, filters: filters))
    }
    return parsedSegment(braced: braced, inner: inner, offset: offset)
  }

  /// `segment(braced:inner:offset:)` through the lexer and the parser, for any contents.
  static func parsedSegment(braced: String, inner: [UInt8], offset: Int) -> Segment {
    do throws(ExpressionError) {
      var parser = try Parser(Lexer(bytes: inner))
      let (expression, rawFilters) = try parser.parseInterpolation()
      var filters: [Filter] = []
      filters.reserveCapacity(rawFilters.count)
      for raw in rawFilters { filters.append(try Filter.make(raw, column: parser.column(of:))) }
      return .interpolation(
        Interpolation(source: braced, offset: offset, expression: expression, filters: filters))
    } catch {
      return .invalid(source: braced, offset: offset, error: error)
    }
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
    guard let value else { return .failure(missing ?? .missingVariable(source)) }
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
