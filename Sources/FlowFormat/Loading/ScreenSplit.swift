import FlowSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Loads the `screens` array of a big Sequence flow on two threads, split by bytes
/// (docs/performance.md, "Ninth round"): when the parser opens `$.screens`, a second thread
/// scans the array's strings and nesting (`ArraySplitScan`) to an element boundary past its
/// estimated middle, then parses and decodes the elements from there to the `]`
/// (`JSONParser.parseElements`); meanwhile the parser's thread parses and decodes the first
/// half (`take`), and at the boundary waits for the second (`join`). Each thread allocates,
/// reads and frees only its own JSON values; only the decoded screens cross over.
///
/// - The boundary is claimed only if the parser has not reached it yet (`secondHalf`): the
///   parser tells where it is at each element, under the same lock. The scan has the smaller
///   share of work (a few instructions a byte against ~90 to parse and decode), so the
///   boundary is put past the middle (`firstHalfShare`) to even out the two threads.
/// - A screen's decoding reads nothing decoded elsewhere (`DecodeContext.decodeScreen`): its
///   path and the context's file and options only. What each half reports is accumulated in
///   its own context (`DecodedRun`: a few big arrays a half, not a set a screen) and added by
///   `decodeFlow` in document order, the first half's then the second's, so duplicate ids,
///   references and field names are checked there, after both halves, as on one thread.
/// - Anything unusual abandons the split and the loader parses the file again on one thread
///   (`FlowLoader.load`), so every error is the one parser's: a syntax error in the second
///   half (too deep a nesting included), the scan and the parsers disagreeing, a screen with
///   `screen_id` (an AppDNA screens-module document). A document that turns out not to be a
///   Sequence flow (told by keys after the screens) is parsed again the same way. What the
///   second half's parser reports without stopping (duplicate keys, numbers out of range) is
///   added at the join, where one parser would have reported it.
/// - A held file's bytes are given back behind each half's parser (`ParsedPages`): the second
///   half's from its first element on, the first half's once the scan has chosen the boundary
///   (it reads the first half's bytes before), and both halves' at the join.
/// - The second thread stops at its next element when the parse ends early (a syntax error in
///   the first half) and is always joined before `JSONParser.parse` returns, because it reads
///   the caller's buffer.
final class ScreenSplit {
  /// What the second thread hands back when it stops.
  private struct SecondHalf: Sendable {
    var run = DecodedRun()
    /// The position of the array's `]`; nil when the half could not be parsed on its own.
    var close: ParsePosition?
    /// What its parser reported (duplicate keys, numbers out of range), in order.
    var diagnostics: [Diagnostic] = []
  }

  /// Who takes which elements: the parser's position (the element it parses next) and the
  /// second half's first element once the scan has claimed one.
  private struct Handoff {
    var parserAt: Int
    var decided = false
    var start: Int?
  }

  /// The part both threads touch.
  private final class Shared: Sendable {
    let stopping = Locked(false)
    let handoff: Locked<Handoff>
    let result = Locked(SecondHalf())
    /// The second half gave pages back (`ParsedPages`).
    let gaveBack = Locked(false)
    init(parserAt: Int) { handoff = Locked(Handoff(parserAt: parserAt)) }
  }

  /// The share of the array's bytes (in percent, the array taken to end with the file) before
  /// the boundary the scan looks for: the second thread also scans those bytes, and (by the
  /// threads' CPU time) decodes a byte more slowly: at 53 its half took 7 to 15 ms longer on
  /// minified flows of 15,000 to 30,000 screens (docs/performance.md, "Eleventh round").
  static let firstHalfShare = 55

  /// The text: read by both threads, written by neither, and alive until the second thread has
  /// been joined (`JSONParser.parse` joins it before its buffer goes).
  private struct Text: @unchecked Sendable {
    let buffer: UnsafeBufferPointer<UInt8>
  }

  private var shared: Shared?
  private let file: String
  private let options: LoadOptions
  private var thread: JoinableThread?
  /// The first half's pages, given back as it is parsed (nil: the bytes are kept); the second
  /// half gives its own back when this is set.
  var pages: ParsedPages?
  /// The scan has chosen the boundary (or found none): it no longer reads the first half.
  private var scanned = false
  /// The parser thread's decoding: the first half's screens, its reports kept in the context.
  private var context: DecodeContext
  private var screens = BuiltScreens()
  /// The second half, once joined.
  private var second: DecodedRun?
  /// The offset of the split array's `[`: which `screens` array of the document it is.
  private var arrayOffset: Int?
  /// Screens were taken out of the tree: the tree alone no longer describes the document.
  private(set) var tookScreens = false
  /// The split cannot be used: the loader parses the file again on one thread.
  private(set) var abandoned = false

  /// The parser waits for the second thread's choice of boundary instead of going on (tests:
  /// both halves are then exercised however the threads are scheduled).
  private let waitsForTheBoundary: Bool

  init(file: String, options: LoadOptions, waitsForTheBoundary: Bool = false) {
    self.file = file
    self.options = options
    self.waitsForTheBoundary = waitsForTheBoundary
    context = DecodeContext(file: file, options: options)
  }

  deinit { stop() }

  /// The parser opened `$.screens` at `array`; its first element starts at `first`. Starts the
  /// second thread, which looks for the second half's first element; false when no thread could
  /// be started (the parser's thread then takes every element).
  func begin(_ buffer: UnsafeBufferPointer<UInt8>, array: SourceLocation, first: ParsePosition) -> Bool {
    arrayOffset = array.offset
    let shared = Shared(parserAt: first.offset)
    self.shared = shared
    let (file, options, text, givesBack) = (file, options, Text(buffer: buffer), pages != nil)
    let target = first.offset + (buffer.count - first.offset) / 100 * Self.firstHalfShare
    thread = JoinableThread.start {
      let split = ArraySplitScan.split(text.buffer, first: first, target: target)
      let claimed = shared.handoff.withLock { handoff in
        handoff.decided = true
        guard let split, handoff.parserAt < split.start.offset else { return false }
        handoff.start = split.start.offset
        return true
      }
      guard claimed, let split else { return }
      var context = DecodeContext(file: file, options: options)
      var half = SecondHalf()
      let pages = givesBack ? ParsedPages(text.buffer, from: split.start.offset) : nil
      defer { shared.gaveBack.withLock { $0 = pages?.gaveBack ?? false } }
      let parsed = JSONParser.parseElements(text.buffer, from: split.start, depth: 2, file: file) {
        value, index, end in
        guard value.objectValue?.lookup("screen_id") == nil, !shared.stopping.withLock({ $0 }) else { return false }
        let site = ScreenSite(array: array, index: split.index + index, flow: nil, end: end)
        context.decodeScreen(value.take(), at: site, into: &half.run.built)
        pages?.parsed(upTo: end)
        return true
      }
      (half.close, half.diagnostics) = (parsed?.close, parsed?.diagnostics ?? [])
      half.run.reports = context.takeReports()
      shared.result.withLock { $0 = half }
    }
    scanned = thread == nil
    return thread != nil
  }

  /// The parser is at `offset`, the first byte of the next element (`Int.max`: past the
  /// array). Returns where the second half starts (-1: nowhere, the parser takes every
  /// element), or nil while the second thread has not decided: then the boundary it picks will
  /// be past `offset`.
  func secondHalf(parserAt offset: Int) -> Int? {
    guard let shared else { return -1 }
    while true {
      let start: Int? = shared.handoff.withLock { handoff in
        guard handoff.decided else {
          if !waitsForTheBoundary { handoff.parserAt = offset }
          return nil
        }
        return handoff.start ?? -1
      }
      if start != nil { scanned = true }
      if start != nil || !waitsForTheBoundary { return start }
      sched_yield()
    }
  }

  /// A first-half element, just parsed: taken out of the tree and decoded here. False when it
  /// is an AppDNA screen (the split is abandoned).
  func take(_ value: inout JSONValue, at site: ScreenSite) -> Bool {
    guard value.objectValue?.lookup("screen_id") == nil else {
      abandoned = true
      return false
    }
    tookScreens = true
    context.decodeScreen(value.take(), at: site, into: &screens)
    if scanned { pages?.parsed(upTo: site.end) }
    return true
  }

  /// The parser reached the second half: waits for it and returns how many elements it had,
  /// where its `]` is and what its parser reported, or nil (the split abandoned) when it could
  /// not be parsed on its own.
  func join() -> (count: Int, close: ParsePosition, diagnostics: [Diagnostic])? {
    if let thread {
      thread.join()
      self.thread = nil
    }
    guard
      let half = shared?.result.withLock({ result in
        defer { result = SecondHalf() }
        return result
      })
    else { return nil }
    guard let close = half.close else {
      abandoned = true
      return nil
    }
    // Both parsers are past the array's bytes.
    pages?.giveBack(before: close.offset)
    // Kept as its own run: copying it into the first half's array cost a pass over the
    // screens the other core wrote, and up to twice the screens' slots.
    second = half.run
    return (half.run.count, close, half.diagnostics)
  }

  /// Whether either half gave pages back: read once the parse has returned (the second thread
  /// joined).
  var gaveBack: Bool { pages?.gaveBack == true || shared?.gaveBack.withLock({ $0 }) == true }

  /// The parser and the scan disagree: the split is abandoned.
  func abandon() { abandoned = true }

  /// Stops the second thread at its next element, if it still runs, and joins it.
  func stop() {
    guard let thread else { return }
    shared?.stopping.withLock { $0 = true }
    thread.join()
    self.thread = nil
  }

  /// The screens of the split array in order, the two halves' runs, by the offset of its `[`
  /// (`DecodeContext.decodedScreens`), or nil when no array was taken.
  func finish() -> (Int, [DecodedRun])? {
    guard !abandoned, tookScreens, let arrayOffset else { return nil }
    let first = DecodedRun(built: screens, reports: context.takeReports())
    screens = BuiltScreens()
    return (arrayOffset, second.map { [first, $0] } ?? [first])
  }
}
