#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes the files `flowrun test` produces (snapshots, reports) and says plainly why one could
/// not be written: the strerror text (`No such file or directory`), never a Foundation error.
public enum TextFile {
  /// Writes `text` to `path` (created or truncated, mode 0644), creating missing parent
  /// directories first when `createDirectories` is set. Returns nil, or the reason it failed.
  /// A short write, a failed `close` (a full disk may only show there) are failures too.
  public static func write(_ text: String, to path: String, createDirectories: Bool = false) -> String? {
    if createDirectories, let problem = makeParentDirectories(of: path) { return problem }
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return reason(errno) }
    if let problem = writeAll(text, to: fd) {
      close(fd)
      return problem
    }
    guard close(fd) == 0 else { return reason(errno) }
    return nil
  }

  /// Writes all of `text` to an open descriptor; nil, or the reason it failed.
  public static func writeAll(_ text: String, to fd: Int32) -> String? {
    switch writeLoop(text, to: fd) {
    case nil: nil
    case .errno(let code): reason(code)
    case .noProgress(let remaining): "short write (\(remaining) bytes not written)"
    }
  }

  /// Why a descriptor write stopped.
  public enum WriteFailure: Error, Equatable {
    case errno(Int32)
    /// `write` returned 0: the descriptor takes no more (a short write).
    case noProgress(remaining: Int)

    /// The errno to report (EIO for a write that made no progress).
    public var code: Int32 {
      switch self {
      case .errno(let code): code
      case .noProgress: EIO
      }
    }
  }

  /// The write loop of every descriptor writer (files, reports, the event stream, standard
  /// output): all of `text`, retrying on EINTR and EAGAIN; nil when everything was written.
  public static func writeLoop(_ text: String, to fd: Int32) -> WriteFailure? {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { buffer in
        #if canImport(Glibc)
          Glibc.write(fd, buffer.baseAddress, buffer.count)
        #else
          Darwin.write(fd, buffer.baseAddress, buffer.count)
        #endif
      }
      if written < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return .errno(errno)
      }
      if written == 0 { return .noProgress(remaining: bytes.count) }
      bytes = bytes.dropFirst(written)
    }
    return nil
  }

  /// `mkdir -p` of the directory holding `path`; nil, or the reason it failed.
  static func makeParentDirectories(of path: String) -> String? {
    var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    parts.removeLast()
    var current = path.hasPrefix("/") ? "" : "."
    for part in parts where !part.isEmpty && part != "." {
      current += "/" + part
      if mkdir(current, 0o755) != 0 && errno != EEXIST { return reason(errno) }
    }
    return nil
  }

  static func reason(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
