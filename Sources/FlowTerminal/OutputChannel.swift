import CLibEditShim
import FlowReplay

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes text to a file descriptor and stops cleanly when the reader goes away.
///
/// With SIGPIPE ignored (`TerminalInfo.prepareStandardOutput()`), a write to a closed pipe
/// fails with EPIPE; the channel then marks itself closed, drops further writes, and the
/// caller ends its loop (exit status is the caller's choice). Writing to stdout first flushes
/// the C stdout stream, so text from `print` and from the channel stays in order.
public final class OutputChannel {
  public let fileDescriptor: Int32
  /// Set after the first failed write (EPIPE or any other error but EINTR/EAGAIN).
  public private(set) var isClosed = false
  /// errno of the failed write, when closed.
  public private(set) var failure: Int32?

  public init(fileDescriptor: Int32 = STDOUT_FILENO) {
    self.fileDescriptor = fileDescriptor
  }

  /// Writes all of `text`; returns false (and writes nothing more, ever) once the
  /// descriptor failed.
  @discardableResult
  public func write(_ text: String) -> Bool {
    guard !isClosed else { return false }
    if fileDescriptor == STDOUT_FILENO, flowrun_stdout_flush() != 0 {
      return close(errno)
    }
    if let failure = TextFile.writeLoop(text, to: fileDescriptor) { return close(failure.code) }
    return true
  }

  private func close(_ error: Int32) -> Bool {
    isClosed = true
    failure = error
    return false
  }
}
