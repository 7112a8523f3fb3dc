import FlowEngine
import FlowExpression
import FlowFormat
import Foundation
import Testing
import _FlowTestSupport

@testable import FlowRender

/// Golden files of every sample flow as `flowrun render` prints it, at 40, 80 and 120 columns.
@Suite struct SampleFlowTests {
  static let samples = [
    "bundle", "fitness", "goals", "legacy", "signin", "survey", "appdna/profile-form", "appdna/quiz-bundle",
    "appdna/coach-chat",
  ]

  /// The golden file's name: a sample in a folder (`appdna/…`) gets the folder as a prefix.
  func golden(_ sample: String, _ width: Int) -> String {
    "\(sample.replacingOccurrences(of: "/", with: "-"))-\(width).txt"
  }

  func load(_ sample: String) throws -> FlowDocument {
    let path = packageRoot().appendingPathComponent("sample-flows/\(sample).json").path
    let result = FlowLoader.load(path: path)
    #expect(result.isRunnable)
    return try #require(result.document)
  }

  @Test(arguments: samples, [40, 80, 120])
  func preview(sample: String, width: Int) throws {
    let document = try load(sample)
    let plain = try FlowPreview.render(document: document, options: RenderOptions(width: width))
    assertSnapshot(plain, named: golden(sample, width))
    expectFits(plain, width: width)
    let colored = try FlowPreview.render(document: document, options: RenderOptions(width: width, color: true))
    #expect(colored.contains("\u{1B}["))
    #expect(stripANSI(colored) == plain)
  }

  /// The streaming form hands over pieces of whole screens (and flow titles in a bundle),
  /// `FlowPreview.partsPerPiece` at most each, that add up to the text, which the golden
  /// files pin to what the joined form printed.
  @Test(arguments: samples)
  func streamedPiecesMakeTheText(sample: String) throws {
    let document = try load(sample)
    var pieces: [String] = []
    try FlowPreview.render(document: document) { pieces.append($0) }
    #expect(pieces.joined() == (try FlowPreview.render(document: document)))
    let titles = document.flows.count > 1 ? document.flows.count : 0
    let parts = document.flows.reduce(titles) { $0 + $1.screens.count }
    #expect(pieces.count == (parts + FlowPreview.partsPerPiece - 1) / FlowPreview.partsPerPiece)
  }

  @Test(arguments: samples)
  func narrowestWidthFits(sample: String) throws {
    let text = try FlowPreview.render(document: try load(sample), options: RenderOptions(width: 10))
    expectFits(text, width: RenderOptions.minimumWidth)
  }

  /// `flowrun render FILE --width 80` prints exactly the golden file.
  @Test(arguments: samples)
  func endToEnd(sample: String) throws {
    let output = try runFlowrun(["render", "sample-flows/\(sample).json", "--width", "80"])
    #expect(output.status == 0, "stderr: \(output.stderr)")
    #expect(output.stderr.isEmpty)
    assertSnapshot(output.stdout, named: golden(sample, 80))
  }

  @Test func oneScreenWithColour() throws {
    let output = try runFlowrun(["render", "sample-flows/fitness.json", "--screen", "hours", "--color", "always"])
    #expect(output.status == 0)
    #expect(output.stdout.contains("\u{1B}["))
    let plain = stripANSI(output.stdout)
    #expect(plain.hasPrefix("── Daily screen time (hours) · question ─"))
    #expect(plain.contains("Nice to meet you, Alex."))
    #expect(!plain.contains("Welcome"))
    let auto = try runFlowrun(["render", "sample-flows/fitness.json", "--screen", "hours"])
    #expect(!auto.stdout.contains("\u{1B}["))  // a pipe: auto means no colour
  }

  @Test func flowOfABundle() throws {
    let output = try runFlowrun(["render", "sample-flows/bundle.json", "--flow", "profile_setup", "--width", "60"])
    #expect(output.status == 0)
    #expect(output.stdout.hasPrefix("══ Flow profile_setup · Profile setup ═"))
    #expect(!output.stdout.contains("onboarding /"))
  }

  @Test func unknownScreenOrFlowIsAUsageError() throws {
    let screen = try runFlowrun(["render", "sample-flows/fitness.json", "--screen", "intrests"])
    #expect(screen.status == 64)
    #expect(screen.stdout.isEmpty)
    #expect(screen.stderr == "error: no screen 'intrests' in the document (did you mean 'interests'?)\n")
    let flow = try runFlowrun(["render", "sample-flows/bundle.json", "--flow", "quick"])
    #expect(flow.status == 64)
    #expect(
      flow.stderr.hasPrefix("error: no flow 'quick' in the document (flows: onboarding, quick_start, profile_setup)"))
  }

  @Test func loadErrors() throws {
    let unparsable = try runFlowrun(["render", "Tests/FlowFormatTests/Fixtures/invalid/empty.json"])
    #expect(unparsable.status == 2)
    #expect(unparsable.stderr.contains("error: this file is empty [json.empty]"))
    let unrunnable = try runFlowrun(["render", "Tests/FlowFormatTests/Fixtures/invalid/duplicate-screen-id.json"])
    #expect(unrunnable.status == 1)
    #expect(unrunnable.stderr.contains("[load.duplicate-screen-id]"))
    #expect(unrunnable.stdout.isEmpty)
  }

  @Test func previewData() {
    #expect(PreviewData.value(forName: "first_name") == "Alex")
    #expect(PreviewData.value(forName: "userEmail") == "alex@example.com")
    #expect(PreviewData.value(forName: "lastName") == "Morgan")
    #expect(PreviewData.value(forName: "display_name") == "Alex Morgan")
    #expect(PreviewData.value(forName: "age") == 30)
    #expect(PreviewData.value(forName: "hours_daily") == nil)
  }
}
