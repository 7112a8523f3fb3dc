import FlowSupport
import FlowTerminal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One line on standard error that a long command rewrites as it goes (`paths` on a big flow),
/// only when standard error is a terminal: pipes, files and CI logs get nothing. Rewritten at
/// most ten times a second; `finish()` erases it before the report is written.
final class ProgressLine {
  private let enabled: Bool
  private var lastWrite: UInt64 = 0
  private var shown = false

  init(enabled: Bool = TerminalInfo.isTTY(STDERR_FILENO)) {
    self.enabled = enabled
  }

  /// Shows `text` (plain words and numbers of flowrun's own, never the flow's text).
  func update(_ text: @autoclosure () -> String) {
    guard enabled else { return }
    let now = Self.milliseconds()
    guard now >= lastWrite + 100 else { return }
    lastWrite = now
    shown = true
    _ = OutputChannel.standardError.write("\r\u{1B}[K" + text())
  }

  /// Erases the line.
  func finish() {
    guard shown else { return }
    shown = false
    _ = OutputChannel.standardError.write("\r\u{1B}[K")
  }

  private static func milliseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000 + UInt64(time.tv_nsec) / 1_000_000
  }
}
