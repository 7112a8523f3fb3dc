import Dispatch
import FlowSupport

/// What decoding one screen apart produced: the screen (nil when it could not be built), where
/// its id is written, and what its decoding added to the context (empty when its run keeps it).
struct DecodedScreen: Sendable {
  var screen: Screen?
  var idLocation: SourceLocation?
  var reports: DecodeReports
  /// The fields the screen collects, for `checkFieldNames`.
  var fields: [CollectedField]
}

/// What decoding added to a context, in the order it was added.
struct DecodeReports: Sendable {
  var diagnostics: [Diagnostic] = []
  var screenReferences: [DecodeContext.Reference] = []
  var flowReferences: [DecodeContext.Reference] = []
  var patternSites: [PatternSite] = []
}

/// Screens of one array decoded in a row, in order, and what decoding them added after their
/// own reports: a half of a split flow keeps its screens column by column (`built`) and its
/// reports here, one set of arrays for the half (`ScreenSplit`); the pipeline's screens, which
/// interleave between threads, keep their own reports (`screens`).
struct DecodedRun: Sendable {
  var screens: [DecodedScreen] = []
  var built = BuiltScreens()
  var reports = DecodeReports()

  /// The elements of the array decoded, screens built or not.
  var count: Int { screens.count + built.count }
}

/// Screens decoded in a row, column by column: the screens that could be built (moved, not
/// copied, into their flow), where each one's id is written, and the fields each collects.
struct BuiltScreens: Sendable {
  /// The elements decoded, screens built or not.
  var count = 0
  var screens = MovedElements<Screen>()
  var idLocations: [SourceLocation?] = []
  var fields = CollectedFields()

  /// Takes `other`'s screens after these, leaving it empty; into empty columns its are taken whole.
  mutating func append(moving other: inout BuiltScreens) {
    if count == 0 {
      swap(&self, &other)
      return
    }
    count += other.count
    screens.append(moving: other.screens)
    idLocations += other.idLocations
    fields.append(contentsOf: other.fields)
    other = BuiltScreens()
  }
}

/// Loads the flows of a big Sequence bundle on two threads: the parser hands each screen of a
/// flow over as soon as it has parsed it (`ScreenSite`), and a second thread decodes it while the
/// parser goes on with the file (docs/performance.md, "Eighth round"; a flow's own `$.screens`
/// is split by bytes instead, `ScreenSplit`). Each thread frees only what it allocated: the
/// decoded subtrees go back to the parser's thread to be freed.
///
/// - A screen's decoding reads nothing decoded elsewhere in the document (the context's file,
///   options and its own path only); what it adds to the context (diagnostics, screen and flow
///   references, pattern sites) is kept per screen and added by `decodeFlow` where it would have
///   decoded the screen, so the reports and their order are those of one thread.
/// - The queue holds at most `queueBytes` of source: when it is full the parser decodes the
///   screen itself, which keeps memory bounded and shares the decoding between the threads when
///   decoding is the slower half. Once the parse ends, the parser's thread helps empty the queue.
/// - The document's kind is known only at the end (a key after the screens may make it an
///   AppDNA or Nuxie document): the loader then parses the file again on one thread
///   (`FlowLoader.load`), so every document is decoded exactly as before.
final class ScreenPipeline {
  /// The source bytes waiting in the queue at most: a few hundred screens of a big flow.
  static let queueBytes = 512 * 1024

  /// The part both threads touch.
  private final class Shared: Sendable {
    struct Queue {
      var items: [(JSONValue, ScreenSite)] = []
      var head = 0
      var bytes = 0
      var finished = false
      /// Subtrees the second thread has decoded, for the parser's thread to free (see `offer`).
      var spent: [JSONValue] = []
      /// What the second thread decoded, given back when it stops.
      var decoded: [(ScreenSite, DecodedScreen)] = []
    }
    let queue = Locked(Queue())
    /// One signal per screen queued, and one when the parse ends.
    let available = DispatchSemaphore(value: 0)
  }

  private let shared = Shared()
  private let file: String
  private let options: LoadOptions
  private var thread: JoinableThread?
  /// The second thread could not be started: the parser's thread decodes every screen.
  private var alone = false
  /// The parser thread's own decoding (screens it decoded when the queue was full, and after).
  private var context: DecodeContext
  private var decoded: [(ScreenSite, DecodedScreen)] = []
  /// A screen was handed over: the tree is no longer whole.
  private(set) var tookScreens = false

  init(file: String, options: LoadOptions) {
    self.file = file
    self.options = options
    context = DecodeContext(file: file, options: options)
  }

  /// A pipeline left without `finish` (an early exit of a future caller) still joins its thread,
  /// which would otherwise wait for a screen forever.
  deinit {
    if thread != nil { _ = finish(keeping: false) }
  }

  /// The parser's hand-off (`JSONParser.parse(_:file:screens:)`): takes the screen out of the
  /// tree and queues it, or decodes it here when the queue is full.
  func offer(_ value: inout JSONValue, at site: ScreenSite) {
    tookScreens = true
    if thread == nil && !alone {
      startThread()
      alone = thread == nil
    }
    let bytes = site.end - value.location.offset
    let screen = value.take()
    // The subtrees the second thread is done with are freed here, by the thread that allocated
    // them: freed there, every `free` took this thread's malloc arena lock from the other side,
    // and the two threads spent a fifth of their time waking each other (futex) instead of working.
    var spent: [JSONValue] = []
    let queued =
      !alone
      && shared.queue.withLock { queue in
        swap(&spent, &queue.spent)
        guard queue.bytes + bytes <= Self.queueBytes || queue.head == queue.items.count else { return false }
        queue.items.append((screen, site))
        queue.bytes += bytes
        return true
      }
    spent.removeAll()
    if queued {
      shared.available.signal()
    } else {
      decoded.append((site, context.decodeScreen(screen, at: site)))
    }
  }

  /// Ends the hand-off: with `keeping`, decodes what is still queued (on both threads) and
  /// returns every screen by its array's offset, in order; without, drops the queue. The second
  /// thread has stopped when this returns.
  func finish(keeping: Bool) -> [Int: [DecodedRun]] {
    if let thread {
      shared.queue.withLock { $0.finished = true }
      shared.available.signal()
      while let next = shared.queue.withLock({ Self.pop(&$0) }) {
        if keeping { decoded.append((next.1, context.decodeScreen(next.0, at: next.1))) }
      }
      thread.join()
      self.thread = nil
      shared.queue.withLock { $0.spent.removeAll() }
    }
    guard keeping else { return [:] }
    // Placed in arrays of each flow's count, not concatenated and grown by doubling, and each
    // thread's list let go once placed: this is the end of loading, a big bundle's peak.
    var lists = [decoded, []]
    shared.queue.withLock { swap(&lists[1], &$0.decoded) }
    decoded = []
    var counts: [Int: (slots: Int, screens: Int)] = [:]
    for list in lists {
      for (site, _) in list {
        let count = counts[site.array.offset] ?? (0, 0)
        counts[site.array.offset] = (max(count.slots, site.index + 1), count.screens + 1)
      }
    }
    var slots = counts.mapValues { [DecodedScreen?](repeating: nil, count: $0.slots) }
    for list in lists {
      for (site, screen) in list { slots[site.array.offset]![site.index] = screen }
    }
    lists = []
    var screens: [Int: [DecodedRun]] = [:]
    for (offset, count) in counts {
      var placed: [DecodedScreen] = []
      placed.reserveCapacity(count.screens)
      for case let screen? in slots.removeValue(forKey: offset)! { placed.append(screen) }
      screens[offset] = [DecodedRun(screens: placed)]
    }
    return screens
  }

  private static func pop(_ queue: inout Shared.Queue) -> (JSONValue, ScreenSite)? {
    guard queue.head < queue.items.count else { return nil }
    let item = queue.items[queue.head]
    queue.items[queue.head].0 = JSONValue(.null, at: item.0.location)
    queue.head += 1
    queue.bytes -= item.1.end - item.0.location.offset
    // The slots already read are dropped now and then, or a queue that is never empty would
    // grow by one slot per screen.
    if queue.head == queue.items.count {
      queue.items.removeAll(keepingCapacity: true)
      queue.head = 0
    } else if queue.head >= 256 && queue.head * 2 >= queue.items.count {
      queue.items.removeFirst(queue.head)
      queue.head = 0
    }
    return item
  }

  private func startThread() {
    let shared = shared
    let file = file
    let options = options
    thread = JoinableThread.start {
      var context = DecodeContext(file: file, options: options)
      var decoded: [(ScreenSite, DecodedScreen)] = []
      while true {
        shared.available.wait()
        let (next, finished) = shared.queue.withLock { (ScreenPipeline.pop(&$0), $0.finished) }
        if let next {
          decoded.append((next.1, context.decodeScreen(next.0, at: next.1)))
          shared.queue.withLock { $0.spent.append(next.0) }
        } else if finished {
          break
        }
        // Else the signal was for a screen the parser's thread decoded after the end.
      }
      shared.queue.withLock { $0.decoded = decoded }
    }
  }
}
