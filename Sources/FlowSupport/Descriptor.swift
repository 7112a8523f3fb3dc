#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The descriptor write loop of every writer in flowrun: files, reports, the event stream and
/// standard output.
public enum Descriptor {
  /// Why a write stopped.
  public enum WriteFailure: Error, Equatable, Sendable {
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

    /// The system's words (`No space left on device`).
    public var message: String {
      switch self {
      case .errno(let code): systemMessage(code)
      case .noProgress(let remaining): "short write (\(remaining) bytes not written)"
      }
    }
  }

  /// Writes all of `text` to `fd`; nil when everything was written. EINTR is retried (unless
  /// SIGTERM or SIGHUP arrived: see `StopSignals`); EAGAIN (a non-blocking descriptor that is
  /// full) waits until the descriptor takes more, so the loop never spins; a write of 0 bytes
  /// is a failure, not a reason to try again.
  public static func write(_ text: String, to fd: Int32) -> WriteFailure? {
    var text = text
    return text.withUTF8 { write($0, to: fd) }
  }

  /// Writes all of `bytes` to `fd` (see `write(_:to:)` for text).
  public static func write(_ bytes: UnsafeBufferPointer<UInt8>, to fd: Int32) -> WriteFailure? {
    guard var next = bytes.baseAddress else { return nil }
    var remaining = bytes.count
    while remaining > 0 {
      let written = systemWrite(fd, next, remaining)
      if written < 0 {
        let code = errno
        // A write blocked on a reader that does not read (a full pipe) gives up once SIGTERM
        // or SIGHUP asked the process to end; otherwise an interrupted write goes on.
        if code == EINTR, StopSignals.termination == nil { continue }
        if code == EAGAIN || code == EWOULDBLOCK {
          var wanted = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
          if poll(&wanted, 1, -1) < 0, errno == EINTR, StopSignals.termination != nil { return .errno(EINTR) }
          continue
        }
        return .errno(code)
      }
      if written == 0 { return .noProgress(remaining: remaining) }
      next += written
      remaining -= written
    }
    return nil
  }
}

#if canImport(Glibc)
  private let systemWrite = Glibc.write
#elseif canImport(Darwin)
  private let systemWrite = Darwin.write
#endif
