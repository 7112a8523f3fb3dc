import CFlowSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's standard descriptors, made safe once, first thing in `main`.
public enum StandardStreams {
  /// - Reopens standard input, output and error on `/dev/null` when they were closed at start
  ///   (`flowrun … >&- 2>&-`): otherwise the next file opened (an `--events` file) would get
  ///   descriptor 1 or 2 and receive the screens and messages.
  /// - Ignores SIGPIPE, so writing after the reader went away (`| head -1`) fails with EPIPE
  ///   (see `OutputChannel`) instead of killing the process before its files are written.
  /// - Makes stdout line-buffered when it is a pipe, so scripted readers see each line as soon
  ///   as it is written.
  public static func prepare() {
    reopenClosed()
    flowrun_ignore_sigpipe()
    if isPipe(STDOUT_FILENO) { flowrun_stdout_set_line_buffered() }
  }

  /// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed (`open` returns the
  /// lowest free descriptor, so going in order fills exactly the closed ones).
  public static func reopenClosed() {
    for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
      let opened = open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY)
      if opened >= 0, opened != fd {
        // Something else took the slot meanwhile (cannot happen single-threaded at start).
        dup2(opened, fd)
        close(opened)
      }
    }
  }

  /// Writes `text` through the C stdout stream (the one libedit draws on) and flushes it: for
  /// prompts and terminal echoes that must stay in order with libedit's output.
  public static func writeThroughStdio(_ text: String) {
    flowrun_stdout_write(text)
  }

  /// Whether `fd` is a pipe (FIFO).
  public static func isPipe(_ fd: Int32) -> Bool {
    var info = stat()
    guard fstat(fd, &info) == 0 else { return false }
    return (info.st_mode & S_IFMT) == S_IFIFO
  }
}
