import FlowDriver
import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections
import Testing

/// The driver's input budget and stop reasons (docs/cli.md, "How a run ends when nobody is
/// typing"), with a small limit.
@Suite struct DriverInputBudgetTests {
  func drive(
    _ results: [ReadResult], interactive: Bool = false, stop: @escaping () -> DropOffReason? = { nil }
  ) throws
    -> DriverRun
  {
    let sink = TextSink()
    let source = ScriptedLines(results: results)
    let driver = try Driver(
      document: sampleDocument("fitness.json"), config: runConfig(), flowPath: "sample-flows/fitness.json",
      source: source, output: { sink.text += $0 },
      options: DriverOptions(interactive: interactive, shouldStop: stop, unproductiveLineLimit: 3))
    driver.run()
    return DriverRun(driver: driver, output: sink.text, source: source)
  }

  /// Rejected, empty, inspection and over-long lines all count; the third ends the run.
  /// So does `:restart` of a session in which nothing was accepted (the same session again).
  @Test(arguments: [
    [ReadResult.line("nope"), .line("nope"), .line("nope"), .line("1")],
    [.line(""), .line(":data"), .overlong(bytes: 2_000_000), .line("1")],
    [.line(":restart"), .line(":restart"), .line(":restart"), .line("1")],
  ])
  func linesThatChangeNothingEndTheRunAsStuck(_ results: [ReadResult]) throws {
    let run = try drive(results)
    #expect(run.session.status == .quit(.stuck))
    #expect(run.session.events.last?.properties["reason"] == "stuck")
    #expect(run.output.contains("! 3 lines in a row changed nothing on screen 'welcome'; the run ends as stuck\n"))
    #expect(run.source.results == [.line("1")], "the line after the limit is not read")
  }

  /// A line that changes the screen or the data resets the count; a field set to the value
  /// it already has does not.
  @Test func progressResetsTheCount() throws {
    let run = try drive([
      .line("nope"), .line("nope"), .line("1"), .line("Al"), .line("nope"), .line("nope"), .line("1"),
    ])
    #expect(run.session.status == .quit(.endOfInput), "\(run.output)")
    let again = try drive([.line("1"), .line("A1"), .line("1"), .line("A1"), .line("1")])
    #expect(again.session.currentScreen.id == "name")
    #expect(again.session.status == .quit(.stuck), "A1, then Continue (blocked), A1 again, Continue: no progress")
  }

  /// A restart after an accepted line is progress: the session starts over.
  @Test func restartingAfterProgressResetsTheCount() throws {
    let run = try drive([
      .line("nope"), .line("nope"), .line("1"), .line(":restart"), .line("nope"), .line("nope"), .line("1"),
    ])
    #expect(run.session.status == .quit(.endOfInput), "\(run.output)")
  }

  @Test func aTerminalHasNoBudget() throws {
    let run = try drive(Array(repeating: .line("nope"), count: 10), interactive: true)
    #expect(run.session.status == .quit(.quit))
  }

  /// `shouldStop` names the reason; an interrupted read asks it before quitting as `quit`.
  @Test(arguments: [DropOffReason.terminated, .outputFailed])
  func aStopReasonEndsTheSessionWithIt(_ reason: DropOffReason) throws {
    var asked = 0
    let run = try drive([.line("1"), .interrupted, .line("Alex")], interactive: true) {
      asked += 1
      return asked >= 2 ? reason : nil
    }
    #expect(run.session.status == .quit(reason))
    #expect(run.session.currentScreen.id == "name")
    #expect(run.output.contains("── Session ended (\(reason.rawValue)) on name"))
  }
}
