import FlowSupport
import Foundation
import Testing
import _FlowTestSupport

/// `FileWatcher` (`run --watch`): a save in place and an editor's save (a new file renamed over
/// the old one) are each seen once, with a save of another file of the directory on the way.
@Suite struct FileWatcherTests {
  enum Save: String, CaseIterable, Sendable {
    case inPlace, renamedOver
  }

  @Test(arguments: Save.allCases)
  func seesOneSave(_ save: Save) throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file("flow.json", contents: "{}")
    let wakes = Locked(0)
    let watcher = try #require(FileWatcher(path: flow) { wakes.withLock { $0 += 1 } })
    #expect(!watcher.takeChange())
    directory.file("other.json", contents: "{}")  // the same directory, another file
    switch save {
    case .inPlace:
      try Data(#"{"screens": []}"#.utf8).write(to: URL(fileURLWithPath: flow))
    case .renamedOver:
      let temporary = directory.file("flow.json.tmp", contents: #"{"screens": []}"#)
      try FileManager.default.removeItem(atPath: flow)
      try FileManager.default.moveItem(atPath: temporary, toPath: flow)
    }
    // The watcher's thread reports the save; wait for it (bounded: a lost save fails).
    let deadline = ContinuousClock.now + .seconds(10)
    while !watcher.takeChange(), ContinuousClock.now < deadline { usleep(2_000) }
    // The change is marked before `onChange` runs (a woken reader must find it): wait for both.
    while wakes.withLock({ $0 }) == 0, ContinuousClock.now < deadline { usleep(2_000) }
    #expect(wakes.withLock { $0 } == 1)
    #expect(!watcher.takeChange())
  }
}
