import FlowAnalysis
import FlowFormat

/// A benchmark hook for `flowrun-bench` and tests: times `check` and `paths` on a large flow.
public enum AnalysisBenchmark {
  /// Timings of one run, in seconds.
  public struct Result: Sendable, CustomStringConvertible {
    public var screens: Int
    public var load: Double
    public var check: Double
    public var diagnostics: Int
    public var explore: Double
    public var count: Double
    public var cover: Double
    public var states: Int
    public var transitions: Int
    public var completedPaths: BigUInt
    public var coveringPaths: Int

    public var description: String {
      func f(_ seconds: Double) -> String {
        let ms = (seconds * 1000).rounded()
        return ms >= 1000 ? "\((ms / 10).rounded() / 100) s" : "\(Int(ms)) ms"
      }
      return
        "\(screens) screens: load \(f(load)), check \(f(check)) (\(diagnostics) diagnostics), explore \(f(explore)) (\(states) states, \(transitions) transitions), count \(f(count)) (\(completedPaths) paths), cover \(f(cover)) (\(coveringPaths) paths)"
    }
  }

  /// A valid flow of about `screens` screens (JSON): groups of four — a checklist question
  /// whose rule branches to one of two screens, both joining at a slider screen whose rule
  /// reads the slider — then a completion screen. 2^((screens - 1) / 4) screen paths.
  public static func generateFlow(screens: Int) -> String {
    let groups = max(1, (screens - 1) / 4)
    var out =
      #"{"version": 1, "id": "bench", "name": "Benchmark", "settings": {"dismissAllowed": false}, "screens": ["# + "\n"
    for k in 0..<groups {
      let next = k + 1 < groups ? "q\(k + 1)" : "done"
      out += #"{"id": "q\#(k)", "name": "Question \#(k)", "type": "question", "content": {"blocks": ["#
      out +=
        #"{"id": "q\#(k)_pick", "type": "checklist", "content": {"fieldName": "c\#(k)", "required": true, "autoAdvance": false, "items": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}, {"id": "c", "label": "C"}]}},"#
      out += #"{"id": "q\#(k)_go", "type": "button", "content": {"text": "Continue"}}]},"#
      out += #" "rules": [{"when": "c\#(k) == 'a'", "goto": "a\#(k)"}, {"goto": "b\#(k)"}]},"# + "\n"
      for side in ["a", "b"] {
        out +=
          #"{"id": "\#(side)\#(k)", "name": "\#(side) \#(k)", "type": "feature", "next": "s\#(k)", "content": {"blocks": ["#
        out +=
          #"{"id": "\#(side)\#(k)_t", "type": "text", "content": {"text": "You picked {c\#(k)}"}}, {"id": "\#(side)\#(k)_go", "type": "button", "content": {"text": "Next"}}]}},"#
          + "\n"
      }
      out +=
        #"{"id": "s\#(k)", "name": "Slider \#(k)", "type": "question", "next": "\#(next)", "content": {"blocks": ["#
      out +=
        #"{"id": "s\#(k)_s", "type": "slider", "content": {"fieldName": "v\#(k)", "min": 0, "max": 10, "defaultValue": 3}},"#
      out += #"{"id": "s\#(k)_go", "type": "button", "content": {"text": "Continue"}}]},"#
      out += #" "rules": [{"when": "v\#(k) >= 5", "goto": "\#(next)"}]},"# + "\n"
    }
    out +=
      #"{"id": "done", "name": "Done", "type": "celebration", "content": {"blocks": [{"id": "done_go", "type": "button", "content": {"text": "Finish", "action": {"type": "complete"}}}]}}"#
    return out + "\n]}\n"
  }

  /// Generates a flow of `screens` screens (or takes `json`) and times loading, `check`, and
  /// `paths` (exploration, exact count, covering set).
  public static func run(screens: Int, json: String? = nil, options: PathExplorer.Options = .init()) -> Result {
    let clock = ContinuousClock()
    func time<T>(_ body: () -> T) -> (T, Double) {
      let start = clock.now
      let value = body()
      return (value, (clock.now - start).seconds)
    }
    let text = json ?? generateFlow(screens: screens)
    let (loaded, load) = time { FlowLoader.load(bytes: Array(text.utf8), file: "bench.json") }
    let (diagnostics, check) = time { FlowChecker.check(loaded) }
    guard let document = loaded.document else {
      return Result(
        screens: screens, load: load, check: check, diagnostics: diagnostics.count, explore: 0, count: 0, cover: 0,
        states: 0, transitions: 0, completedPaths: .zero, coveringPaths: 0)
    }
    let (exploration, explore) = time { PathExplorer(document: document, options: options).explore() }
    let (counts, count) = time { exploration.pathCounts() }
    let (paths, cover) = time { exploration.coveringPaths() }
    return Result(
      screens: document.flows.reduce(0) { $0 + $1.screens.count }, load: load, check: check,
      diagnostics: diagnostics.count, explore: explore, count: count, cover: cover, states: exploration.states.count,
      transitions: exploration.transitions.count, completedPaths: counts.completed, coveringPaths: paths.count)
  }
}
