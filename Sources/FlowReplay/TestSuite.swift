import FlowFormat
import FlowPattern
import FlowSupport
import Foundation

/// Finding, selecting and running many scripts: `flowrun test`, minus printing.
public enum TestSuite {
  /// File name endings of replay scripts found in directories.
  public static let scriptSuffixes = [".flow-test.yaml", ".flow-test.yml", ".flow-test.json"]

  /// Script files for command-line arguments: files as given, directories expanded to every
  /// `*.flow-test.yaml` / `*.flow-test.json` below them, or the files `wanted` takes (sorted by
  /// path; `check DIR` takes flows; regular files only). Paths that do not
  /// exist are returned in `missing`. Duplicates are dropped (first occurrence kept).
  public static func discover(
    _ arguments: [String],
    matching wanted: (String) -> Bool = { name in scriptSuffixes.contains(where: name.hasSuffix) }
  ) -> (files: [String], missing: [String]) {
    var files: [String] = []
    var missing: [String] = []
    var seen: Set<String> = []
    let manager = FileManager.default
    for argument in arguments {
      var isDirectory: ObjCBool = false
      guard manager.fileExists(atPath: argument, isDirectory: &isDirectory) else {
        missing.append(argument)
        continue
      }
      if !isDirectory.boolValue {
        if seen.insert(argument).inserted { files.append(argument) }
        continue
      }
      var found: [String] = []
      let base = argument.hasSuffix("/") ? String(argument.dropLast()) : argument
      // A walk takes regular files (and links to them): a FIFO would wait for a writer and a
      // device never ends; named as an argument, either is read or refused by kind.
      if let enumerator = manager.enumerator(atPath: base) {
        for case let relative as String in enumerator
        where wanted(relative) && TextFile.kind(of: base + "/" + relative) == .regular {
          found.append(base + "/" + relative)
        }
      }
      for file in found.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) where seen.insert(file).inserted {
        files.append(file)
      }
    }
    return (files, missing)
  }

  /// The arguments that are directories: the suites whose scripts' snapshots stay inside them
  /// (`ReplayOptions.suiteRoots`).
  public static func directories(among arguments: [String]) -> [String] {
    arguments.filter { argument in
      var isDirectory: ObjCBool = false
      return FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) && isDirectory.boolValue
    }
  }

  /// The scripts of `parsed` that `selection` keeps, in order: the filter (on the script's
  /// name and path) first, then the shard (round robin over what the filter kept). Throws a
  /// `PatternError` for an invalid filter, `FilterTooComplex` when it cannot be checked.
  public static func select(_ parsed: [(file: String, name: String)], selection: TestSelection) throws -> [Int] {
    var kept = Array(parsed.indices)
    if let filter = selection.filter {
      let pattern = try Pattern(filter, anchoring: .anywhere)
      kept = try kept.filter { index throws(FilterTooComplex) in
        let script = parsed[index]
        switch (pattern.match(script.name), pattern.match(script.file)) {
        case (.matched, _), (_, .matched): return true
        case (.tooComplex, _), (_, .tooComplex): throw FilterTooComplex(filter: filter, file: script.file)
        default: return false
        }
      }
    }
    if let (index, count) = selection.shard, count > 1 {
      kept = kept.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }
    return kept
  }

  /// Selects from `files` (filter, shard), then parses and runs what is selected on `jobs`
  /// threads (with a filter, every script is parsed first to match its name).
  /// Outcomes come back in the order of `files`; `onOutcome` is called in that order too, as
  /// soon as every earlier script is done. With `failFast`, scripts not started after the first
  /// failure are `skipped`. When `shouldStop` says so (SIGTERM), no script starts any more and
  /// only the outcomes of the scripts that finished are returned (in order, up to the first
  /// one missing). Throws only what `select` throws.
  public static func run(
    _ files: [String], selection: TestSelection = TestSelection(), jobs: Int = 1,
    failFast: Bool = false, options: ReplayOptions = ReplayOptions(), cache: FlowCache = FlowCache(),
    shouldStop: @escaping @Sendable () -> Bool = { false },
    onOutcome: (@Sendable (ScriptOutcome) -> Void)? = nil
  ) throws -> [ScriptOutcome] {
    // A --filter matches script names, so every script is parsed first; otherwise each is
    // parsed when it runs, and memory does not grow with the number of scripts.
    let parsedFirst: [ScriptParseResult]? =
      selection.filter == nil ? nil : parallelMap(files.count, jobs: jobs) { ScriptParser.load(path: files[$0]) }
    let name: @Sendable (Int) -> String = { index in
      let parsed = parsedFirst?[index] ?? ScriptParser.load(path: files[index])
      return parsed.script?.name ?? ScriptParser.defaultName(for: files[index])
    }
    // Without a filter, `select` reads no names (the shard goes by position).
    let selected =
      parsedFirst == nil
      ? try select(files.map { (file: $0, name: "") }, selection: selection)
      : try select(files.indices.map { (file: files[$0], name: name($0)) }, selection: selection)
    let state = RunState(count: selected.count)
    let work: @Sendable (Int) -> ScriptOutcome = { slot in
      let index = selected[slot]
      let file = files[index]
      let parsed = parsedFirst?[index] ?? ScriptParser.load(path: file)
      return Replayer.run(parsed: parsed, path: file, cache: cache, options: options)
    }
    let workers = max(1, min(jobs, selected.count))
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      while !shouldStop(), let slot = state.next(failFast: failFast) {
        let outcome = work(slot)
        state.finish(slot, outcome, emit: onOutcome)
      }
    }
    if shouldStop() { return state.finishedInOrder }
    // Fail-fast leaves some slots unstarted; their names (for the reports) are read on `jobs`
    // threads, since without a filter they were not parsed.
    let unstarted = (0..<selected.count).filter { state.outcome($0) == nil }
    let names = parallelMap(unstarted.count, jobs: jobs) { name(selected[unstarted[$0]]) }
    for (slot, skippedName) in zip(unstarted, names) {
      state.finish(
        slot, ScriptOutcome(file: files[selected[slot]], name: skippedName, status: .skipped), emit: onOutcome)
    }
    return (0..<selected.count).compactMap { state.outcome($0) }
  }

  /// `body` of `0..<count` on up to `jobs` threads, results in order.
  static func parallelMap<T: Sendable>(_ count: Int, jobs: Int, _ body: @Sendable (Int) -> T) -> [T] {
    let workers = max(1, min(jobs, count))
    if workers == 1 { return (0..<count).map(body) }
    let results = OrderedResults<T>(count: count)
    let next = Locked(0)
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      while true {
        let index = next.withLock { next in
          defer { next += 1 }
          return next
        }
        guard index < count else { break }
        results.set(index, body(index))
      }
    }
    return results.values
  }

  /// `N passed, N failed` (plus `, N skipped` when some were); scripts that could not be
  /// parsed count as failed.
  public static func summaryLine(_ outcomes: [ScriptOutcome]) -> String {
    let passed = outcomes.count { $0.status == .passed }
    let failed = outcomes.count { $0.status == .failed || $0.status == .error }
    let skipped = outcomes.count { $0.status == .skipped }
    return "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
  }
}

/// Work distribution and ordered emission, shared by the worker threads.
private final class RunState: Sendable {
  private struct Slots {
    var nextSlot = 0
    var outcomes: [ScriptOutcome?]
    var nextToEmit = 0
    var failed = false
  }

  private let slots: Locked<Slots>

  init(count: Int) { slots = Locked(Slots(outcomes: Array(repeating: nil, count: count))) }

  func next(failFast: Bool) -> Int? {
    slots.withLock { slots in
      guard slots.nextSlot < slots.outcomes.count, !(failFast && slots.failed) else { return nil }
      defer { slots.nextSlot += 1 }
      return slots.nextSlot
    }
  }

  func outcome(_ slot: Int) -> ScriptOutcome? {
    slots.withLock { $0.outcomes[slot] }
  }

  /// The outcomes emitted so far: every finished script up to the first unfinished one.
  var finishedInOrder: [ScriptOutcome] {
    slots.withLock { $0.outcomes.prefix { $0 != nil }.compactMap { $0 } }
  }

  func finish(_ slot: Int, _ outcome: ScriptOutcome, emit: (@Sendable (ScriptOutcome) -> Void)?) {
    slots.withLock { slots in
      slots.outcomes[slot] = outcome
      if outcome.status == .failed || outcome.status == .error { slots.failed = true }
      while slots.nextToEmit < slots.outcomes.count, let ready = slots.outcomes[slots.nextToEmit] {
        emit?(ready)
        slots.nextToEmit += 1
      }
    }
  }
}

/// One slot per index, each written by one thread (so no lock), read after all are done.
private final class OrderedResults<T>: @unchecked Sendable {
  private let storage: UnsafeMutablePointer<T?>
  private let count: Int

  init(count: Int) {
    self.count = count
    storage = .allocate(capacity: count)
    storage.initialize(repeating: nil, count: count)
  }

  deinit {
    storage.deinitialize(count: count)
    storage.deallocate()
  }

  func set(_ index: Int, _ value: T) { storage[index] = value }

  /// Every value (all set by now).
  var values: [T] { (0..<count).map { storage[$0]! } }
}
