import FlowSupport

/// A progress bar on stderr (a terminal only: the caller checks), redrawn at most once per
/// whole percent, from any thread.
final class ProgressBar: Sendable {
  private let total: Int
  private let shown = Locked(-1)

  init(total: Int) { self.total = max(1, total) }

  func show(_ done: Int) {
    let percent = min(100, done * 100 / total)
    shown.withLock { shown in
      guard percent > shown else { return }
      shown = percent
      let filled = percent * 30 / 100
      let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 30 - filled)
      Output.error.write("\r[\(bar)] \(percent) % (\(done) of \(total) users)")
    }
  }

  /// Clears the bar's line.
  func finish() {
    Output.error.write("\r\u{1B}[K")
  }
}
