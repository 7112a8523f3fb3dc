import CFlowSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes text to a descriptor and stops at the first failure: the reader went away
/// (`| head -1`, EPIPE once SIGPIPE is ignored: `StandardStreams.prepare()`), the disk is full
/// (`/dev/full`), any error. The channel then drops every later write and keeps the errno,
/// so the caller can end its work and say why (the exit status is the caller's choice).
///
/// Writing to standard output first flushes the C stdout stream (libedit's and the prompts'),
/// so the two stay in order. Safe to use from several threads.
public final class OutputChannel: Sendable {
  public let fileDescriptor: Int32
  private let failed = Locked<Int32?>(nil)

  /// Standard output and standard error of the process.
  public static let standardOutput = OutputChannel(fileDescriptor: STDOUT_FILENO)
  public static let standardError = OutputChannel(fileDescriptor: STDERR_FILENO)

  public init(fileDescriptor: Int32) {
    self.fileDescriptor = fileDescriptor
  }

  /// Set after the first failed write.
  public var isClosed: Bool { failure != nil }
  /// errno of the failed write, when closed.
  public var failure: Int32? { failed.withLock { $0 } }
  /// Closed by an error that is not the reader going away (EPIPE): output was lost.
  public var lostOutput: Bool { failure.map { $0 != EPIPE } ?? false }

  /// Writes all of `text`; returns false (and writes nothing more, ever) once the
  /// descriptor failed.
  @discardableResult
  public func write(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { write($0) }
  }

  /// Writes all of `bytes` (UTF-8 text), as `write(_:)` writes text.
  @discardableResult
  public func write(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    failed.withLock { failure in
      guard failure == nil else { return false }
      if fileDescriptor == STDOUT_FILENO, flowrun_stdout_flush() != 0 {
        failure = errno
        return false
      }
      if let problem = Descriptor.write(bytes, to: fileDescriptor) {
        failure = problem.code
        return false
      }
      return true
    }
  }
}
