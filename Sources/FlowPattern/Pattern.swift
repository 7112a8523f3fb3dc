import CPCRE2

/// A regular expression compiled once, whose every match ends within a fixed budget.
///
/// flowrun matches every pattern (input `pattern`s, `matches` conditions, `test --filter`) through
/// this type. The engine is PCRE2, a maintained backtracking engine whose match context caps the
/// work of one match (`PatternLimits`); a match that reaches a cap is `.tooComplex`, never a hang.
///
/// Syntax follows JavaScript's `RegExp` (docs/semantics.md, "Patterns", lists the differences):
/// UTF-8 code points, `\uhhhh` / `\u{h…}` / `\xhh` escapes, `$` only at the very end, a
/// backreference to a group that did not match matches the empty string, `[]` matches nothing.
///
/// Thread safety: the compiled code is immutable after `init` and shared by every copy; each
/// match allocates its own match data, so one pattern may be matched from any number of threads.
public struct Pattern: Hashable, Sendable, CustomStringConvertible {
  /// Where a match may lie in the text.
  public enum Anchoring: Hashable, Sendable {
    /// The whole text must match (input `pattern`, the `matches` operator).
    case wholeText
    /// A match anywhere in the text is enough (`test --filter`, like JavaScript's `test`).
    case anywhere
  }

  /// The pattern as written.
  public let source: String
  public let anchoring: Anchoring
  private let code: CompiledCode

  /// Compiles `source`; an invalid pattern throws PCRE2's message and the position it stopped at.
  public init(_ source: String, anchoring: Anchoring = .wholeText) throws(PatternError) {
    self.source = source
    self.anchoring = anchoring
    code = try CompiledCode(source, anchoring: anchoring)
  }

  /// Matches `text` within `PatternLimits`.
  public func match(_ text: String) -> PatternMatch {
    withAddressedUTF8(text) { code.match($0) }
  }

  public var description: String { source }

  public static func == (lhs: Pattern, rhs: Pattern) -> Bool {
    lhs.source == rhs.source && lhs.anchoring == rhs.anchoring
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(source)
    hasher.combine(anchoring)
  }
}

/// The outcome of one match.
public enum PatternMatch: Hashable, Sendable {
  case matched
  case notMatched
  /// A limit of `PatternLimits` was reached before the engine could decide.
  case tooComplex
}

/// Why a pattern does not compile.
public struct PatternError: Error, Hashable, Sendable, CustomStringConvertible {
  /// PCRE2's message, e.g. `missing terminating ] for character class`.
  public let message: String
  /// Where compilation stopped, in Unicode scalars from the start of the pattern.
  public let offset: Int

  public init(message: String, offset: Int) {
    self.message = message
    self.offset = offset
  }

  public var description: String { "\(message) at offset \(offset)" }
}

/// The budget of one match (documented in docs/semantics.md, "Patterns").
///
/// Measured on the 2-core CI machine (release build): reaching `matchLimit` takes about 1.5 ms
/// with the JIT and 12–18 ms in the interpreter, while the patterns of real flows need a few
/// hundred steps on an answer. The depth and heap limits bound the interpreter's memory (answers of ~100,000
/// characters against a repeated group reach them).
public enum PatternLimits {
  /// Backtracking steps of one match (PCRE2 `match_limit`; the JIT counts its own way).
  public static let matchLimit: UInt32 = 1_000_000
  /// Nested backtracking frames of one interpreted match (PCRE2 `depth_limit`).
  public static let depthLimit: UInt32 = 100_000
  /// Heap for the backtracking frames of one interpreted match, in KiB (PCRE2 `heap_limit`).
  public static let heapLimitKiB: UInt32 = 16 * 1024
}

/// PCRE2's compiled code and the match context holding the limits; freed with the last copy
/// of the pattern. Never mutated after `init`, so sharing it between threads is safe.
private final class CompiledCode: @unchecked Sendable {
  private let code: OpaquePointer
  private let context: OpaquePointer

  /// JavaScript-like options; whole-text patterns are anchored at both ends at compile time
  /// (anchoring at match time would turn the JIT off).
  private static func options(_ anchoring: Pattern.Anchoring) -> UInt32 {
    var options =
      PCRE2_UTF | PCRE2_ALT_BSUX | PCRE2_DOLLAR_ENDONLY | PCRE2_MATCH_UNSET_BACKREF
      | PCRE2_ALLOW_EMPTY_CLASS | PCRE2_NEVER_BACKSLASH_C
    if anchoring == .wholeText { options |= PCRE2_ANCHORED | PCRE2_ENDANCHORED }
    return options
  }

  init(_ source: String, anchoring: Pattern.Anchoring) throws(PatternError) {
    guard let compileContext = pcre2_compile_context_create_8(nil) else {
      throw PatternError(message: "out of memory", offset: 0)
    }
    defer { pcre2_compile_context_free_8(compileContext) }
    // `\u{h…}` as well as `\uhhhh` (PCRE2_ALT_BSUX alone knows only the latter).
    pcre2_set_compile_extra_options_8(compileContext, PCRE2_EXTRA_ALT_BSUX)
    // CR, LF and CRLF end lines, so `.` matches neither CR nor LF, as in JavaScript.
    pcre2_set_newline_8(compileContext, UInt32(PCRE2_NEWLINE_ANYCRLF))
    var errorCode: Int32 = 0
    var errorOffset = 0
    let compiled = withAddressedUTF8(source) { bytes in
      pcre2_compile_8(
        bytes.baseAddress, bytes.count, Self.options(anchoring), &errorCode, &errorOffset, compileContext)
    }
    guard let compiled else {
      let scalars = String(decoding: source.utf8.prefix(errorOffset), as: UTF8.self).unicodeScalars.count
      throw PatternError(message: Self.message(errorCode), offset: scalars)
    }
    guard let context = pcre2_match_context_create_8(nil) else {
      pcre2_code_free_8(compiled)
      throw PatternError(message: "out of memory", offset: 0)
    }
    pcre2_set_match_limit_8(context, PatternLimits.matchLimit)
    pcre2_set_depth_limit_8(context, PatternLimits.depthLimit)
    pcre2_set_heap_limit_8(context, PatternLimits.heapLimitKiB)
    // Without JIT support (or executable memory) this fails and matching stays interpreted.
    _ = pcre2_jit_compile_8(compiled, PCRE2_JIT_COMPLETE)
    code = compiled
    self.context = context
  }

  deinit {
    pcre2_match_context_free_8(context)
    pcre2_code_free_8(code)
  }

  func match(_ text: UnsafeBufferPointer<UInt8>) -> PatternMatch {
    guard let data = pcre2_match_data_create_8(1, nil) else { return .tooComplex }
    defer { pcre2_match_data_free_8(data) }
    let subject = text.baseAddress
    // Swift strings are valid UTF-8: PCRE2 need not check every subject again.
    var result = pcre2_match_8(code, subject, text.count, 0, PCRE2_NO_UTF_CHECK, data, context)
    if result == PCRE2_ERROR_JIT_STACKLIMIT {
      // The JIT's 32 KiB stack is full (deep but not necessarily long matches): the interpreter
      // keeps its frames on the heap, within the depth and heap limits.
      result = pcre2_match_8(code, subject, text.count, 0, PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT, data, context)
    }
    if result >= 0 { return .matched }
    // Any other error is a limit (match, depth, heap, memory): the answer cannot be checked.
    return result == PCRE2_ERROR_NOMATCH ? .notMatched : .tooComplex
  }

  private static func message(_ code: Int32) -> String {
    var buffer = [UInt8](repeating: 0, count: 256)
    let length = pcre2_get_error_message_8(code, &buffer, buffer.count)
    return length > 0 ? String(decoding: buffer.prefix(Int(length)), as: UTF8.self) : "error \(code)"
  }
}

/// The UTF-8 bytes of `text`, at an address even when empty (PCRE2 refuses a null pointer).
private func withAddressedUTF8<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
  var text = text
  return text.withUTF8 { bytes in
    if bytes.baseAddress != nil { return body(bytes) }
    var empty: UInt8 = 0
    return withUnsafePointer(to: &empty) { body(UnsafeBufferPointer(start: $0, count: 0)) }
  }
}
