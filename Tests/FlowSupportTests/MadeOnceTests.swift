import Dispatch
import FlowSupport
import Testing

@Suite struct MadeOnceTests {
  /// A value asked for by many threads at once, started in the background or not, is worked
  /// out once, and every thread gets it.
  @Test(arguments: [false, true])
  func workedOutOnce(startedInBackground: Bool) {
    let made = Locked(0)
    let value = MadeOnce {
      made.withLock { $0 += 1 }
      return (0..<10_000).reduce(0, +)
    }
    if startedInBackground { value.startInBackground() }
    let seen = Locked([Int]())
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      let value = value.value()
      seen.withLock { $0.append(value) }
    }
    #expect(value.value() == 49_995_000)
    #expect(made.withLock { $0 } == 1)
    #expect(seen.withLock { $0 } == [Int](repeating: 49_995_000, count: 8))
  }
}
