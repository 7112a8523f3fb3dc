import FlowEngine
import FlowExpression
import FlowFormat
import FlowSupport
import Foundation
import OrderedCollections

/// Runs users through a plan on several threads. Each user's choices come from its own random
/// numbers and tallies add exactly, so the result depends on the users run, never on the number
/// of threads or the order they finish in.
public enum Simulation {
  /// Users handed to a thread at a time.
  static let chunk = 512

  /// Tallies users `users` of `plan` on `jobs` threads; `progress` gets the number of users done
  /// so far and `finished` each user's ended session (both from any thread). `copy`, when
  /// given, builds for each thread after the first a plan equal to `plan` that shares no
  /// object with it (the document and model decoded again): every reference the threads share
  /// is counted atomically on each retain and release, and two cores writing one counter
  /// hand its cache line back and forth.
  public static func run(
    _ plan: SimulationPlan, users: Range<Int>, jobs: Int = 1,
    copy: (@Sendable () -> SimulationPlan?)? = nil,
    progress: (@Sendable (Int) -> Void)? = nil,
    finished: (@Sendable (FinishedUser) -> Void)? = nil
  ) -> SimulationTally {
    let next = Locked(users.lowerBound)
    let done = Locked(0)
    let results = Locked([Int: SimulationTally]())
    let workers = max(1, min(jobs, (users.count + chunk - 1) / chunk))
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      var counter = TallyCounter(plan: worker == 0 ? plan : copy?() ?? plan)
      while true {
        let start = next.withLock { next in
          defer { next = min(users.upperBound, next + chunk) }
          return next
        }
        guard start < users.upperBound else { break }
        let end = min(users.upperBound, start + chunk)
        for user in start..<end { counter.walk(user: user, finished: finished) }
        let finished = done.withLock { done in
          done += end - start
          return done
        }
        progress?(finished)
      }
      let tally = counter.tally()
      results.withLock { $0[worker] = tally }
    }
    return results.withLock { results in
      results.keys.sorted().reduce(into: SimulationTally()) { $0.merge(results[$1] ?? SimulationTally()) }
    }
  }
}

/// One thread's counts, kept in arrays by screen index until the end (cheaper per user than
/// the string-keyed `VariantTally`).
struct TallyCounter {
  struct Variant {
    var tally = VariantTally()
    var reached: [Int]
    /// By screen: the last user counted in `reached` (a screen shown again is counted once).
    var reachedBy: [Int]
    var endedOn: [Int]
    /// Completed users by `completionTime` bucket below `listedBuckets`; later ones in
    /// the tally's dictionary (hashing each bucket cost more than the rest of the count).
    var completionTimes: [Int] = []
    var paths = PathCounts()
    /// By counted field (`SimulationPlan.countedFields`): answer → users.
    var fields: [AnswerCounts]
  }

  let plan: SimulationPlan
  /// Starts the users' sessions: what users of one variant share is built once per thread.
  var starter: SessionStarter
  /// The last user's session: its storage goes to the next user's.
  var spare: Session?
  /// The variants counted, by key, in the order first met (a handful).
  var variants: [(key: String, counts: Variant)] = []
  /// By the starter's context number: the place in `variants` of its users' key (-1: not met
  /// yet). Users of one context have the same variants: no key is looked up per user.
  var variantOfContext: [Int] = []
  /// The walks' arrays, handed from one user to the next.
  var buffers = UserWalk.Buffers()
  /// Counted fields by their place in a session's data.
  var slots = CountedSlots()

  init(plan: SimulationPlan) {
    self.plan = plan
    starter = SessionStarter(document: plan.document, config: plan.config, tables: plan.tables)
  }

  /// The key of a user's variants: `experiment=variant, …`, or `all users`.
  static func key(_ variants: some Sequence<(key: String, value: String)>) -> String {
    let text = variants.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
    return text.isEmpty ? "all users" : text
  }

  mutating func walk(user: Int, finished: (@Sendable (FinishedUser) -> Void)?) {
    var taken = UserWalk.Buffers()
    swap(&taken, &buffers)
    var old: Session?
    swap(&old, &spare)
    guard
      var walk = UserWalk.start(
        plan: plan, starter: &starter, index: user, recycling: consume old, buffers: consume taken)
    else {
      variants[variant(key: "not started")].counts.count(failedToStart: ())
      return
    }
    let ending = walk.run()
    let context = starter.contextNumber
    if context >= variantOfContext.count {
      variantOfContext.append(contentsOf: repeatElement(-1, count: context + 1 - variantOfContext.count))
    }
    if variantOfContext[context] < 0 {
      variantOfContext[context] = variant(key: Self.key(walk.session.variants.elements))
    }
    let index = variantOfContext[context]
    variants[index].counts.count(walk, user: user, ending, plan: plan, slots: &slots)
    if let finished {
      finished(
        FinishedUser(
          index: user, session: walk.session, variant: variants[index].key, outcome: ending.rawValue,
          path: walk.path.map { plan.screenKeys[Int($0)] }))
    }
    walk.finish(into: &spare, buffers: &buffers)
  }

  /// The place in `variants` of `key`, added when new.
  mutating func variant(key: String) -> Int {
    if let index = variants.firstIndex(where: { $0.key == key }) { return index }
    variants.append((key, Variant(plan: plan)))
    return variants.count - 1
  }

  func tally() -> SimulationTally {
    var result = SimulationTally()
    for (key, variant) in variants {
      var tally = variant.tally
      for (index, count) in variant.reached.enumerated() where count > 0 {
        tally.reached[plan.screenKeys[index]] = count
      }
      for (index, count) in variant.endedOn.enumerated() where count > 0 {
        tally.endedOn[plan.screenKeys[index]] = count
      }
      for (bucket, count) in variant.completionTimes.enumerated() where count > 0 {
        tally.completionTime[bucket, default: 0] += count
      }
      variant.paths.forEach { path, count in
        var text = path.prefix(UserWalk.pathLimit).map { plan.screenKeys[Int($0)] }.joined(separator: " > ")
        if path.count > UserWalk.pathLimit { text += " > …" }
        tally.paths[text, default: 0] += count
      }
      for (index, counts) in variant.fields.enumerated() where !counts.isEmpty {
        tally.fields[plan.countedFields[index]] = counts.byText
      }
      result.variants[key] = tally
    }
    return result
  }
}

extension TallyCounter.Variant {
  init(plan: SimulationPlan) {
    reached = Array(repeating: 0, count: plan.screenKeys.count)
    reachedBy = Array(repeating: -1, count: plan.screenKeys.count)
    endedOn = Array(repeating: 0, count: plan.screenKeys.count)
    fields = Array(repeating: AnswerCounts(), count: plan.countedFields.count)
  }

  mutating func count(failedToStart: Void) {
    tally.users += 1
    tally.failed += 1
  }

  /// Completion buckets counted in an array (about 109 minutes); later ones are rare.
  static let listedBuckets = 65_536

  mutating func count(
    _ walk: UserWalk, user: Int, _ ending: UserWalk.Ending, plan: SimulationPlan, slots: inout CountedSlots
  ) {
    tally.users += 1
    switch ending {
    case .completed: tally.completed += 1
    case .dismissed: tally.dismissed += 1
    case .droppedOff: tally.droppedOff += 1
    case .stuck: tally.stuck += 1
    case .failed: tally.failed += 1
    }
    // Each screen of the path once: marked with the user's index (neither a sorted copy of the
    // path nor a set per user).
    let path = walk.buffers.path
    for screen in path where reachedBy[Int(screen)] != user {
      reachedBy[Int(screen)] = user
      reached[Int(screen)] += 1
    }
    let session = walk.session
    if ending == .completed {
      let bucket = Int((session.virtualNow - session.startTime) / Int64(VariantTally.bucketMilliseconds))
      if bucket >= 0, bucket < Self.listedBuckets {
        if bucket >= completionTimes.count {
          completionTimes.append(contentsOf: repeatElement(0, count: bucket + 1 - completionTimes.count))
        }
        completionTimes[bucket] += 1
      } else {
        tally.completionTime[bucket, default: 0] += 1
      }
    } else if case let last = plan.screenNumbers[session.screenNumber].key, last >= 0 {
      endedOn[Int(last)] += 1
    }
    paths.add(path.prefix(UserWalk.pathLimit + 1))
    // The session's data read once, in order, each key's counted field found by its place
    // (`slots`) instead of a lookup of every counted field in the data.
    var position = 0
    session.fields.forEach { key, value in
      defer { position += 1 }
      guard let index = slots.index(of: key, at: position, plan: plan), value != .null else { return }
      if case .list(let items) = value {
        for item in items { fields[index].add(item) }
      } else {
        fields[index].add(value)
      }
    }
  }
}

/// Which counted field (`SimulationPlan.countedFields`) a key of a session's data is, guessed
/// by its place in the data: users of one flow write their fields in a few orders (one per
/// branch taken), and a key compared with the few last met at its place is one of them (one
/// comparison of its storage) far more often than not. A miss is looked up (hashed) and
/// remembered in the place's oldest way.
struct CountedSlots {
  /// Keys remembered per place.
  static let ways = 4

  /// By place in the data, `ways` entries each: a key met there and its counted field (nil:
  /// not counted); nil: an empty way.
  var guesses: [(key: String, index: Int?)?] = []
  /// By place: the way a miss replaces next.
  var next: [Int] = []

  mutating func index(of key: String, at position: Int, plan: SimulationPlan) -> Int? {
    if position >= next.count {
      guesses.append(contentsOf: repeatElement(nil, count: (position + 1 - next.count) * Self.ways))
      next.append(contentsOf: repeatElement(0, count: position + 1 - next.count))
    }
    let first = position * Self.ways
    let found: Int?? = guesses.withUnsafeBufferPointer { guesses in
      for way in first..<first + Self.ways {
        guard let guess = guesses[way] else { break }
        if guess.key == key { return .some(guess.index) }
      }
      return nil
    }
    if let found { return found }
    let index = plan.countedFieldIndex[key]
    guesses[first + next[position]] = (key, index)
    next[position] = (next[position] + 1) % Self.ways
    return index
  }
}

/// One field's answers → users, counted by their display text. The first few distinct plain
/// answers are kept as values and compared in place; their text is built and hashed once, when
/// the tally is made (building and hashing it per user cost more than the rest of the count).
struct AnswerCounts {
  /// Distinct answers kept as values; more go by text at once.
  static let listed = 16

  /// The listed answers by kind (texts, numbers by their bits, booleans), compared without
  /// building a pair of values per comparison; `listed` counts them all.
  var strings: [(text: String, users: Int)] = []
  var listedNumbers: [(bits: UInt64, users: Int)] = []
  var bools: [(value: Bool, users: Int)] = []
  /// Numbers past the listed ones, by their bits: their text is built once per distinct number
  /// when the tally is made (a number's text is ASCII, spelt one way).
  var numbers: [UInt64: Int] = [:]
  var texts: [String: Int] = [:]

  var listedCount: Int { strings.count + listedNumbers.count + bools.count }
  var isEmpty: Bool { listedCount == 0 && numbers.isEmpty && texts.isEmpty }

  /// Counts one answer. Texts count as one when equal as dictionary keys are (the first one
  /// seen is kept, as a dictionary keeps its first key), numbers when of the same bits.
  mutating func add(_ answer: Value) {
    switch answer {
    case .string(let text):
      for index in strings.indices where strings[index].text == text {
        strings[index].users += 1
        return
      }
      if listedCount < Self.listed { strings.append((text, 1)) } else { texts[answer.displayString, default: 0] += 1 }
    case .number(let number):
      let bits = number.bitPattern
      for index in listedNumbers.indices where listedNumbers[index].bits == bits {
        listedNumbers[index].users += 1
        return
      }
      if listedCount < Self.listed { listedNumbers.append((bits, 1)) } else { numbers[bits, default: 0] += 1 }
    case .bool(let value):
      for index in bools.indices where bools[index].value == value {
        bools[index].users += 1
        return
      }
      if listedCount < Self.listed { bools.append((value, 1)) } else { texts[answer.displayString, default: 0] += 1 }
    default:
      texts[answer.displayString, default: 0] += 1
    }
  }

  /// Answer text → users.
  var byText: [String: Int] {
    var counts = texts
    for (bits, users) in numbers { counts[Value.number(Double(bitPattern: bits)).displayString, default: 0] += users }
    for (text, users) in strings { counts[Value.string(text).displayString, default: 0] += users }
    for (bits, users) in listedNumbers {
      counts[Value.number(Double(bitPattern: bits)).displayString, default: 0] += users
    }
    for (value, users) in bools { counts[Value.bool(value).displayString, default: 0] += users }
    return counts
  }
}

/// A user whose session ended, for `Simulation.run`'s `finished` (the store).
public struct FinishedUser: Sendable {
  public var index: Int
  public var session: Session
  /// The variant key of the report.
  public var variant: String
  /// `completed`, `dismissed`, `dropped_off`, `stuck` or `failed`.
  public var outcome: String
  /// Every screen shown, in order (screen keys).
  public var path: [String]
}
