import FlowFormat
import FlowGenerator
import FlowReplay
import FlowSupport
import Foundation

/// Figures of one benchmark run.
public struct BenchmarkResult: Hashable, Sendable {
  public var scripts: Int
  public var stepsPerScript: Int
  public var seconds: Double
  public var scriptsPerSecond: Double
  /// Peak resident set size of the process, bytes (0 when unknown).
  public var peakMemoryBytes: Int
  public var failures: Int
  /// The first failing script's message, if any (for diagnosing a generator/engine mismatch).
  public var firstFailure: String?
  /// Seconds spent parsing scripts (summed over threads); the rest is replaying.
  public var parseSeconds: Double

  public init(
    scripts: Int, stepsPerScript: Int, seconds: Double, scriptsPerSecond: Double, peakMemoryBytes: Int,
    failures: Int, firstFailure: String? = nil, parseSeconds: Double = 0
  ) {
    self.parseSeconds = parseSeconds
    self.firstFailure = firstFailure
    self.scripts = scripts
    self.stepsPerScript = stepsPerScript
    self.seconds = seconds
    self.scriptsPerSecond = scriptsPerSecond
    self.peakMemoryBytes = peakMemoryBytes
    self.failures = failures
  }
}

/// Generates scripts for a sample flow and replays them: for `flowrun-bench` and tests.
public enum ReplayBenchmark {
  /// Generates `count` YAML scripts of `steps` steps for the fitness sample flow at `flowPath`
  /// (varied names, hours, interests, back steps, mock outcomes, skip), then parses and replays
  /// each on `jobs` threads with one shared flow cache. Generation is not timed.
  public static func run(
    count: Int = 10_000, steps: Int = 20, flowPath: String = "sample-flows/fitness.json", jobs: Int = 1
  ) -> BenchmarkResult {
    let directory = flowPath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    let flowName = flowPath.split(separator: "/").last.map(String.init) ?? flowPath
    let scripts = (0..<count).map { index in
      (
        file: (directory.isEmpty ? "" : directory + "/") + "bench-\(index).flow-test.yaml",
        text: Array(fitnessScript(seed: UInt64(index), steps: steps, flow: flowName).utf8)
      )
    }
    let cache = FlowCache()
    let failures = Counter()
    let firstFailure = Slot()
    let parseTime = Accumulator()
    let clock = ContinuousClock()
    let started = clock.now
    let next = Counter()
    DispatchQueue.concurrentPerform(iterations: max(1, jobs)) { _ in
      while true {
        let index = next.increment() - 1
        guard index < scripts.count else { break }
        let parseStart = clock.now
        let parsed = ScriptParser.parse(bytes: scripts[index].text, file: scripts[index].file)
        parseTime.add((clock.now - parseStart).seconds)
        let outcome = Replayer.run(parsed: parsed, path: scripts[index].file, cache: cache)
        if outcome.status != .passed, failures.increment() == 1 { firstFailure.set(outcome.message) }
      }
    }
    let seconds = (clock.now - started).seconds
    return BenchmarkResult(
      scripts: count, stepsPerScript: steps, seconds: seconds,
      scriptsPerSecond: seconds > 0 ? Double(count) / seconds : 0, peakMemoryBytes: peakResidentBytes(),
      failures: failures.value, firstFailure: firstFailure.value, parseSeconds: parseTime.value)
  }

  /// One generated script for `sample-flows/fitness.json` (deterministic for a seed).
  public static func fitnessScript(seed: UInt64, steps count: Int, flow: String) -> String {
    var random = SplitMix64(seed: seed)
    let names = ["Alex", "Sam", "Maya", "Noor", "Jo", "Kim", "Lea", "Ravi"]
    let name = names[random.below(names.count)]
    let hours = random.below(9)
    let interests = ["strength", "cardio", "mobility", "running", "hiit"]
    let picked = (0..<(1 + random.below(3))).map { interests[($0 * 2 + Int(seed)) % interests.count] }
    let unique = picked.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    let granted = random.below(2) == 0
    let outcome = random.below(3)
    var lines = [
      "- expect: {screen: welcome}",
      "- tap: Get Started",
      "- tap: Continue",
      "  expect_error: required",
      "- fill: {name: \(name)}",
      "- tap: Continue",
      "- expect: {screen: hours}",
      "- set: {hours_daily: \(hours)}",
      "- tap: Continue",
    ]
    if hours != 0 {
      lines += ["- back", "- tap: Continue", "- tap: Show me how"]
    }
    lines += [
      "- expect: {screen: interests}",
      "- select: {interests: [\(unique.joined(separator: ", "))]}",
      "- tap: Continue",
      "- expect: {screen: notifications}",
    ]
    switch outcome {
    case 0:
      lines += ["- tap: Enable notifications", "- result: {status: success, data: {granted: \(granted)}}"]
    case 1:
      lines += ["- tap: Enable notifications", "- result: {status: failure, error: timeout}", "- skip"]
    default:
      lines += ["- skip"]
    }
    lines += ["- expect: {screen: done}", "- tap: Start my first workout"]
    // Step entries start with "- "; count them, trim or pad with data checks to `count`.
    var stepLines: [[String]] = []
    for line in lines {
      if line.hasPrefix("- ") { stepLines.append([line]) } else { stepLines[stepLines.count - 1].append(line) }
    }
    let completes = stepLines.count <= count
    if completes {
      // Pad before the final tap so the script still completes.
      let finish = stepLines.removeLast()
      var padding = 0
      while stepLines.count + 1 < count {
        stepLines.append(padding % 2 == 0 ? ["- expect: {data: {name: \(name)}}"] : ["- wait: 10"])
        padding += 1
      }
      stepLines.append(finish)
    } else {
      stepLines.removeLast(stepLines.count - count)
    }
    var text = "name: bench \(seed)\nflow: \(flow)\nuser: bench_\(seed)\nsteps:\n"
    for entry in stepLines {
      text += entry.map { "  " + $0 + "\n" }.joined()
    }
    if completes { text += "expect:\n  completed: true\n  data: {name: \(name), hours_daily: \(hours)}\n" }
    return text
  }
}

final class Counter: Sendable {
  private let count = Locked(0)
  func increment() -> Int {
    count.withLock {
      $0 += 1
      return $0
    }
  }
  var value: Int { count.withLock { $0 } }
}

final class Accumulator: Sendable {
  private let total = Locked(0.0)
  func add(_ value: Double) { total.withLock { $0 += value } }
  var value: Double { total.withLock { $0 } }
}

final class Slot: Sendable {
  private let text = Locked<String?>(nil)
  func set(_ value: String) { text.withLock { $0 = value } }
  var value: String? { text.withLock { $0 } }
}

/// Peak resident set size (`VmHWM` of /proc/self/status), bytes; 0 where unavailable.
func peakResidentBytes() -> Int {
  guard
    let bytes = try? TextFile.read("/proc/self/status", limit: ReadLimit(bytes: 1 << 20, what: "a status file")).get()
  else { return 0 }
  let text = String(decoding: bytes, as: UTF8.self)
  for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    let digits = line.filter(\.isNumber)
    return (Int(digits) ?? 0) * 1024
  }
  return 0
}
