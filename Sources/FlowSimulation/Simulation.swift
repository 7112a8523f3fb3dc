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
    var endedOn: [Int]
    var paths: [[Int32]: Int] = [:]
    /// By counted field (`SimulationPlan.countedFields`): answer → users.
    var fields: [AnswerCounts]
  }

  let plan: SimulationPlan
  /// Starts the users' sessions: what users of one variant share is built once per thread.
  var starter: SessionStarter
  /// The last user's session: its storage goes to the next user's.
  var spare: Session?
  var variants: [String: Variant] = [:]
  /// The walks' arrays, handed from one user to the next.
  var buffers = UserWalk.Buffers()
  /// Counted fields by their place in a session's data.
  var slots = CountedSlots()
  /// The variant keys met so far by assignment (a handful): compared, not rebuilt, per user.
  var keys: [(variants: OrderedDictionary<String, String>, key: String)] = []

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
      variants["not started", default: Variant(plan: plan)].count(failedToStart: ())
      return
    }
    let ending = walk.run()
    let assigned = walk.session.variants
    let key: String
    if let known = keys.first(where: { $0.variants == assigned }) {
      key = known.key
    } else {
      key = Self.key(assigned.elements)
      keys.append((assigned, key))
    }
    variants[key, default: Variant(plan: plan)].count(walk, ending, plan: plan, slots: &slots)
    finished?(
      FinishedUser(
        index: user, session: walk.session, variant: key, outcome: ending.rawValue,
        path: walk.path.map { plan.screenKeys[Int($0)] }))
    buffers = walk.buffers
    spare = walk.session
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
      for (path, count) in variant.paths {
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
    endedOn = Array(repeating: 0, count: plan.screenKeys.count)
    fields = Array(repeating: AnswerCounts(), count: plan.countedFields.count)
  }

  mutating func count(failedToStart: Void) {
    tally.users += 1
    tally.failed += 1
  }

  mutating func count(_ walk: UserWalk, _ ending: UserWalk.Ending, plan: SimulationPlan, slots: inout CountedSlots) {
    tally.users += 1
    switch ending {
    case .completed: tally.completed += 1
    case .dismissed: tally.dismissed += 1
    case .droppedOff: tally.droppedOff += 1
    case .stuck: tally.stuck += 1
    case .failed: tally.failed += 1
    }
    // Each screen of the path once: sorted, a screen shown again is next to itself (cheaper
    // than a set per user).
    var previous: Int32 = -1
    for screen in walk.path.sorted() where screen != previous {
      reached[Int(screen)] += 1
      previous = screen
    }
    let session = walk.session
    if ending == .completed {
      let bucket = Int((session.virtualNow - session.startTime) / Int64(VariantTally.bucketMilliseconds))
      tally.completionTime[bucket, default: 0] += 1
    } else if case let last = plan.screenNumbers[session.screenNumber].key, last >= 0 {
      endedOn[Int(last)] += 1
    }
    paths[Array(walk.path.prefix(UserWalk.pathLimit + 1)), default: 0] += 1
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
/// by its place in the data: users of one flow write their fields in much the same order, and
/// a key compared with the one last met at its place is the same string (one comparison of
/// its storage) far more often than not. A miss is looked up and remembered.
struct CountedSlots {
  /// By place in the data: the key last met there and its counted field (nil: not counted).
  var guesses: [(key: String, index: Int?)] = []

  mutating func index(of key: String, at position: Int, plan: SimulationPlan) -> Int? {
    if position < guesses.count, guesses[position].key == key { return guesses[position].index }
    let index = plan.countedFieldIndex[key]
    if position < guesses.count {
      guesses[position] = (key, index)
    } else if position == guesses.count {
      guesses.append((key, index))
    }
    return index
  }
}

/// One field's answers → users, counted by their display text. The first few distinct plain
/// answers are kept as values and compared in place; their text is built and hashed once, when
/// the tally is made (building and hashing it per user cost more than the rest of the count).
struct AnswerCounts {
  /// Distinct answers kept as values; more go by text at once.
  static let listed = 16

  var values: [(answer: Value, users: Int)] = []
  var texts: [String: Int] = [:]

  var isEmpty: Bool { values.isEmpty && texts.isEmpty }

  mutating func add(_ answer: Value) {
    let found = values.withUnsafeMutableBufferPointer { values in
      for index in values.indices where Self.same(values[index].answer, answer) {
        values[index].users += 1
        return true
      }
      return false
    }
    guard !found else { return }
    if values.count < Self.listed, Self.isPlain(answer) {
      values.append((answer, 1))
    } else {
      texts[answer.displayString, default: 0] += 1
    }
  }

  static func isPlain(_ answer: Value) -> Bool {
    switch answer {
    case .string, .number, .bool: true
    default: false
    }
  }

  /// Answer text → users.
  var byText: [String: Int] {
    var counts = texts
    for (answer, users) in values { counts[answer.displayString, default: 0] += users }
    return counts
  }

  /// Answers that count as one: texts equal as dictionary keys are (the first one seen is kept,
  /// as a dictionary keeps its first key), numbers of the same bits, the same boolean.
  static func same(_ a: Value, _ b: Value) -> Bool {
    switch (a, b) {
    case (.string(let x), .string(let y)): x == y
    case (.number(let x), .number(let y)): x.bitPattern == y.bitPattern
    case (.bool(let x), .bool(let y)): x == y
    default: false
    }
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
