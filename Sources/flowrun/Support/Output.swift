#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes text to a file descriptor unbuffered-by-Swift, stopping quietly when the reader
/// has gone away (`| head -1`): a closed pipe is not an error worth a crash. SIGPIPE is ignored
/// once for every command in `Flowrun.main()`, so a write after the reader left fails with
/// EPIPE, which ends that write; the command goes on (report files, exit code).
struct Output: Sendable {
  let fd: Int32

  static let standard = Output(fd: STDOUT_FILENO)
  static let error = Output(fd: STDERR_FILENO)

  func write(_ text: String) {
    var text = text
    text.withUTF8 { buffer in
      var offset = 0
      while offset < buffer.count {
        guard let base = buffer.baseAddress else { return }
        let written = systemWrite(fd, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return
        }
        offset += written
      }
    }
  }
}

#if canImport(Glibc)
  private let systemWrite = Glibc.write
#elseif canImport(Darwin)
  private let systemWrite = Darwin.write
#endif
