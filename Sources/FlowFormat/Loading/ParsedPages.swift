#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Gives the pages of a held file's bytes back to the system as the parser leaves them behind
/// (`FlowLoader`): a bundle's screens are decoded while it is parsed, so at the end of the parse
/// the model was there beside all the file's bytes, the peak of `check` on a big bundle. The
/// parser never reads behind the screen it is in; the bytes are read back from the held file
/// should the document be parsed again (`restored`).
final class ParsedPages {
  /// The address of the first byte.
  private let start: Int
  private let count: Int
  /// The bytes before this offset are given back.
  private(set) var released = 0
  /// Pages are given back a mebibyte at a time, a mebibyte behind the parser's place.
  static let step = 1 << 20
  static let page = Int(sysconf(Int32(_SC_PAGESIZE)))

  /// `buffer` must stay allocated, and unchanged but for these pages, while this is used.
  init(_ buffer: UnsafeBufferPointer<UInt8>) {
    start = Int(bitPattern: buffer.baseAddress)
    count = buffer.count
  }

  /// The parser is past `offset`: the whole pages a step before it are given back.
  func parsed(upTo offset: Int) {
    let page = Self.page
    guard offset - Self.step - released >= Self.step else { return }
    // Whole pages only, inside the buffer (its first page holds the array's header).
    let first = (start + released + page - 1) / page * page
    let last = (start + min(count, offset - Self.step)) / page * page
    if last > first, madvise(UnsafeMutableRawPointer(bitPattern: first), last - first, MADV_DONTNEED) == 0 {
      released = last - start
    }
  }
}
