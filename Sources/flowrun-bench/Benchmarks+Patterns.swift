import FlowBenchSupport
import FlowPattern

extension Benchmark {
  /// The cost of a match and of a compile with FlowPattern (PCRE2, JIT when available), next to
  /// Swift's `Regex` (what flowrun used before; kept here only as the reference), and the time
  /// FlowPattern takes to give up on catastrophic backtracking (Swift's `Regex` does not end).
  static let patterns = Benchmark(name: "patterns") { context in
    let typical: [(pattern: String, answer: String)] = [
      ("[^0-9]+", "Alexandra"),
      (#"^[A-Z]{2}\d{4}$"#, "AB1234"),
      (#"^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$"#, "alex.smith@example.com"),
      (#"^(?=.*[A-Z])(?=.*\d).{8,}$"#, "Password123"),
    ]
    let rounds = 20_000
    var rows: [Measurement] = []
    for (source, answer) in typical {
      let pattern = try Pattern(source)
      let regex = try Regex(source)
      let ours = context.measure(runs: context.runs) {
        for _ in 0..<rounds { precondition(pattern.match(answer) == .matched) }
      }
      let swift = context.measure(runs: context.runs) {
        for _ in 0..<rounds { precondition(answer.wholeMatch(of: regex) != nil) }
      }
      rows.append(
        Measurement(
          name: "match \(source)", value: "\(nanoseconds(median(ours) / Double(rounds))) ns",
          detail:
            "Swift Regex \(nanoseconds(median(swift) / Double(rounds))) ns; answer \(answer), \(rounds) matches a run"))
    }
    let sources = typical.map(\.pattern)
    let compiles = 500
    let ours = context.measure(runs: context.runs) {
      for _ in 0..<compiles { for source in sources { _ = try? Pattern(source) } }
    }
    let swift = context.measure(runs: context.runs) {
      for _ in 0..<compiles { for source in sources { _ = try? Regex(source) } }
    }
    let perCompile = Double(compiles * sources.count)
    rows.append(
      Measurement(
        name: "compile (the 4 patterns above)", value: "\(fixed(median(ours) / perCompile * 1e6, 1)) µs",
        detail: "with the JIT; Swift Regex \(fixed(median(swift) / perCompile * 1e6, 1)) µs"))
    let evil = try Pattern("^(a+)+$")
    let interpreted = try Pattern("(*NO_JIT)^(a+)+$")
    let answer = String(repeating: "a", count: 38) + "!"
    for (name, pattern) in [("JIT", evil), ("interpreter", interpreted)] {
      let times = context.measure(runs: context.runs) { precondition(pattern.match(answer) == .tooComplex) }
      rows.append(
        Measurement(
          name: "^(a+)+$ on 38 a and ! (\(name))", value: formatSeconds(median(times)),
          detail: "too complex at match_limit \(PatternLimits.matchLimit), \(spread(times)); Swift Regex does not end"))
    }
    return rows
  }
}

/// Whole nanoseconds of `seconds`.
private func nanoseconds(_ seconds: Double) -> Int { Int((seconds * 1e9).rounded()) }
