import FlowDriver
import FlowEngine
import FlowExpression
import FlowFormat
import FlowReplay
import Foundation
import OrderedCollections
import _FlowTestSupport

/// A `LineSource` that plays lines from a list, then reports the end of input.
final class ScriptedLines: LineSource {
  var results: [ReadResult]
  private(set) var prompts: [String] = []
  /// Called with each prompt before its line is handed out (to ask for completions there).
  var onPrompt: (String) -> Void = { _ in }
  /// False stands for a pipe: the driver makes no prompt for it.
  var showsPrompt = true

  init(_ lines: [String]) { results = lines.map(ReadResult.line) }
  init(results: [ReadResult]) { self.results = results }

  func readLine(prompt: String) -> ReadResult {
    prompts.append(prompt)
    onPrompt(prompt)
    return results.isEmpty ? .endOfFile : results.removeFirst()
  }

  func shutdown() {}
}

/// 2026-01-01T00:00:00Z.
let newYear: Int64 = 1_767_225_600_000

func sampleDocument(_ name: String) -> FlowDocument {
  let path = packageRoot().appendingPathComponent("sample-flows/\(name)").path
  guard let document = FlowLoader.load(path: path).document else { fatalError("cannot load \(path)") }
  return document
}

func runConfig(mocks: [String: ActionResult] = [:], start: String? = nil) -> SessionConfig {
  SessionConfig(now: newYear, startScreen: start, mocks: mocks, waitsForResults: true)
}

/// A finished driver run: the driver, what it wrote, and its line source.
struct DriverRun {
  var driver: Driver
  var output: String
  var source: ScriptedLines
  var session: Session { driver.session }
  var eventTypes: [String] { session.events.map(\.eventType) }
}

final class TextSink: @unchecked Sendable {
  var text = ""
}

func drive(
  _ flow: String = "fitness.json", config: SessionConfig = runConfig(), interactive: Bool = false,
  _ source: ScriptedLines
) throws -> DriverRun {
  let sink = TextSink()
  let driver = try Driver(
    document: sampleDocument(flow), config: config, flowPath: "sample-flows/\(flow)", source: source,
    output: { sink.text += $0 }, options: DriverOptions(interactive: interactive))
  driver.run()
  return DriverRun(driver: driver, output: sink.text, source: source)
}

func drive(
  _ flow: String = "fitness.json", config: SessionConfig = runConfig(), interactive: Bool = false,
  lines: [String]
) throws -> DriverRun {
  try drive(flow, config: config, interactive: interactive, ScriptedLines(lines))
}

/// Lines that walk fitness.json from welcome to the notification screen.
let toNotifications = ["1", "Alex", "1", "3", "1", "1", "2,hiit", "1"]
