import Dispatch
import FlowSupport

/// Work done on another thread while the caller goes on; `value` waits for it. A command's
/// steps that read the same finished value (the covering set and the path counts of one
/// exploration) run side by side on the machine's second core.
final class Background<Value: Sendable>: Sendable {
  private let result = Locked<Value?>(nil)
  private let done = DispatchGroup()

  init(_ work: @escaping @Sendable () -> Value) {
    let result = self.result
    DispatchQueue.global().async(group: done) {
      let value = work()
      result.withLock { $0 = value }
    }
  }

  /// The work's result, once it is done.
  var value: Value {
    done.wait()
    return result.withLock { $0! }
  }
}

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
