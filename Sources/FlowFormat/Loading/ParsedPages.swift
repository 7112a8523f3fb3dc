#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Gives the pages of a held file's bytes back to the system as a parser leaves them behind
/// (`FlowLoader`): a bundle's screens are decoded while it is parsed, so at the end of the parse
/// the model was there beside all the file's bytes, the peak of `check` on a big bundle; a
/// flow's split (`ScreenSplit`) keeps one of these for each half. The parser never reads behind
/// the screen it is in; the bytes are read back from the held file should the document be
/// parsed again.
final class ParsedPages {
  /// The address of the first byte.
  private let start: Int
  private let count: Int
  /// The first byte this parser reads: nothing before it is given back here.
  private let from: Int
  /// The bytes from `from` up to this offset are given back.
  private(set) var released: Int
  /// Pages are given back a mebibyte at a time, a mebibyte behind the parser's place.
  static let step = 1 << 20
  static let page = Int(sysconf(Int32(_SC_PAGESIZE)))

  /// `buffer` must stay allocated, and unchanged but for these pages, while this is used; no
  /// other parser may read its bytes from `from` on behind this one.
  init(_ buffer: UnsafeBufferPointer<UInt8>, from: Int = 0) {
    start = Int(bitPattern: buffer.baseAddress)
    count = buffer.count
    self.from = from
    released = from
  }

  /// Whether any page was given back.
  var gaveBack: Bool { released > from }

  /// The parser is past `offset`: the whole pages a step before it are given back.
  func parsed(upTo offset: Int) {
    guard offset - Self.step - released >= Self.step else { return }
    giveBack(before: offset - Self.step)
  }

  /// Gives back the whole pages before `offset`: no parser reads there any more.
  func giveBack(before offset: Int) {
    let page = Self.page
    // Whole pages only, inside the buffer (its first page holds the array's header) and from
    // `from` on (the page before holds another parser's bytes).
    let first = (start + released + page - 1) / page * page
    let last = (start + min(count, offset)) / page * page
    if last > first, madvise(UnsafeMutableRawPointer(bitPattern: first), last - first, MADV_DONTNEED) == 0 {
      released = last - start
    }
  }
}
