import Dispatch
import FlowSupport

/// Texts made one after the other on another thread, kept in the order they were asked for
/// (`paths --emit`: a script is written while the next path's replay runs).
final class BackgroundTexts: Sendable {
  private let queue = DispatchQueue(label: "flowrun.background-texts")
  private let texts = Locked<[String]>([])

  func add(_ make: @escaping @Sendable () -> String) {
    let texts = self.texts
    queue.async {
      let text = make()
      texts.withLock { $0.append(text) }
    }
  }

  /// Every text, once the last is made.
  var all: [String] {
    queue.sync {}
    return texts.withLock { $0 }
  }
}
