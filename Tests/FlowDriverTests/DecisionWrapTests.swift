import FlowDriver
import Foundation
import Testing

/// Issue 19 item 8: on a terminal `:why` wraps its long lines at word boundaries to the width;
/// a pipe keeps them whole.
@Suite struct DecisionWrapTests {
  @Test(arguments: [true, false])
  func whyWrapsOnATerminalOnly(_ interactive: Bool) throws {
    let sink = TextSink()
    let source = ScriptedLines(["1", "30", "80", "", "1", "1", ":why", ":quit"])
    let driver = try Driver(
      document: sampleDocument("goals.json"), config: runConfig(), flowPath: "f", source: source,
      output: { sink.text += $0 }, options: DriverOptions(width: { 30 }, interactive: interactive))
    driver.run()
    let why = sink.text.components(separatedBy: "\n").drop { !$0.hasPrefix("leaving ") }.prefix {
      !$0.isEmpty && !$0.hasPrefix("──")
    }
    #expect(why.joined(separator: " ").contains("weight_plan"), "\(sink.text)")
    if interactive {
      #expect(why.allSatisfy { $0.count <= 30 }, "\(why)")
      #expect(why.allSatisfy { !$0.hasSuffix("-") })
    } else {
      #expect(why.contains { $0.count > 30 }, "\(why)")
    }
  }
}
