import FlowEngine
import FlowFormat
import FlowRender
import Testing

@Suite struct ProgressTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var index: Int
    var count: Int
    var start: Int?
    var end: Int?
    var skip: [Int]
    var expected: ProgressPosition?
    var testDescription: String { "\(index) of \(count) [\(start ?? -1)...\(end ?? -1)] skip \(skip)" }
  }

  @Test(arguments: [
    Case(index: 0, count: 5, start: nil, end: nil, skip: [], expected: .init(step: 1, total: 5)),
    Case(index: 4, count: 5, start: nil, end: nil, skip: [], expected: .init(step: 5, total: 5)),
    Case(index: 0, count: 1, start: nil, end: nil, skip: [], expected: nil),  // one screen: hidden
    Case(index: 0, count: 7, start: 1, end: 5, skip: [], expected: nil),  // before the range
    Case(index: 6, count: 7, start: 1, end: 5, skip: [], expected: nil),  // after the range
    Case(index: 1, count: 7, start: 1, end: 5, skip: [], expected: .init(step: 1, total: 5)),
    Case(index: 5, count: 7, start: 1, end: 5, skip: [], expected: .init(step: 5, total: 5)),
    Case(index: 3, count: 7, start: 1, end: 99, skip: [], expected: .init(step: 3, total: 6)),  // end clamped
    Case(index: 0, count: 4, start: -3, end: nil, skip: [], expected: .init(step: 1, total: 4)),  // start clamped
    Case(index: 2, count: 4, start: 3, end: 1, skip: [], expected: nil),  // end raised to start
    Case(index: 3, count: 12, start: 1, end: 10, skip: [4, 6, 9, 10], expected: .init(step: 3, total: 6)),
    // skipped: last counted
    Case(index: 4, count: 12, start: 1, end: 10, skip: [4, 6, 9, 10], expected: .init(step: 3, total: 6)),
    Case(index: 5, count: 12, start: 1, end: 10, skip: [4, 6, 9, 10], expected: .init(step: 4, total: 6)),
    Case(index: 10, count: 12, start: 1, end: 10, skip: [4, 6, 9, 10], expected: .init(step: 6, total: 6)),
    Case(index: 1, count: 5, start: 1, end: 3, skip: [1], expected: .init(step: 1, total: 2)),  // skipped first: step 1
    Case(index: 2, count: 4, start: 1, end: 2, skip: [1, 2], expected: nil),  // nothing counted
  ])
  func positions(_ c: Case) {
    let indicator = ProgressIndicator(enabled: true, startScreen: c.start, endScreen: c.end, skipScreens: c.skip)
    #expect(ProgressPosition.of(index: c.index, screenCount: c.count, indicator: indicator) == c.expected)
  }

  /// A flow of `count` screens with the indicator keys given, positioned on screen `at`.
  func drawn(
    _ indicator: String, count: Int = 5, at index: Int = 1, settings: String = "", hide: Int? = nil, width: Int = 40
  ) throws -> String {
    let screens = (0..<count).map { i in
      blockScreen(
        "s\(i)", [block("t\(i)", "text", #"{"text": "Screen \#(i)"}"#)],
        extra: i == hide ? #""hideProgress": true"# : "", order: i)
    }
    var extra = #""progressIndicator": \#(indicator)"#
    if !settings.isEmpty { extra += #", "settings": \#(settings)"# }
    var s = try session(flowJSON(screens, extra: extra))
    if index > 0 { _ = s.send(.goto(screenID: "s\(index)")) }
    return body(s, width: width)
  }

  @Test(arguments: [
    (#"{"enabled": true, "variant": "bar"}"#, "━━━━━━━━━━━━──────────────────  2/5\n\nScreen 1\n"),
    (#"{"enabled": true, "variant": "dots"}"#, "● ◉ ○ ○ ○\n\nScreen 1\n"),
    (#"{"enabled": true, "variant": "steps"}"#, "✓ ‹2› 3 4 5\n\nScreen 1\n"),
    (#"{"enabled": true, "variant": "minimal"}"#, "2/5\n\nScreen 1\n"),
    (#"{"enabled": true, "variant": "minimal", "position": "bottom"}"#, "Screen 1\n\n2/5\n"),
    (#"{"enabled": false, "variant": "bar"}"#, "Screen 1\n"),
    (#"{"enabled": true, "variant": "minimal", "startScreen": 2}"#, "Screen 1\n"),
    (#"{"enabled": true, "variant": "minimal", "endScreen": 0}"#, "Screen 1\n"),
    (#"{"enabled": true, "variant": "steps", "skipScreens": [0]}"#, "‹1› 2 3 4\n\nScreen 1\n"),
  ])
  func indicator(json: String, expected: String) throws {
    #expect(try drawn(json) == expected)
  }

  @Test func hiddenBySettingsScreenAndSingleScreen() throws {
    let bar = #"{"enabled": true, "variant": "minimal"}"#
    #expect(try drawn(bar, settings: #"{"showProgress": false}"#) == "Screen 1\n")
    #expect(try drawn(bar, hide: 1) == "Screen 1\n")
    #expect(try drawn(bar, hide: 2) == "2/5\n\nScreen 1\n")
    #expect(try drawn(bar, count: 1, at: 0) == "Screen 0\n")
  }

  @Test func barsFitNarrowWidthsAndFallBack() throws {
    let dots = try drawn(#"{"enabled": true, "variant": "dots"}"#, count: 30, at: 3, width: 20)
    #expect(dots.hasPrefix("4/30\n"))
    let steps = try drawn(#"{"enabled": true, "variant": "steps"}"#, count: 30, at: 3, width: 20)
    #expect(steps.hasPrefix("step 4 of 30\n"))
    let bar = try drawn(#"{"enabled": true, "variant": "bar"}"#, count: 30, at: 3, width: 20)
    expectFits(bar, width: 20)
    #expect(bar.hasPrefix("━━") && bar.contains("  4/30\n"))
  }

  @Test(arguments: [
    ("bar", "━━━━━━━━━━━━──────────────────  2/5"),
    ("dots", "● ◉ ○ ○ ○"),
    ("steps", "✓ ‹2› 3 4 5"),
    ("ring", "◑ 40%"),
    ("minimal", "2/5"),
  ])
  func progressBlock(variant: String, expected: String) throws {
    // A progress block draws the position even when the flow's indicator is absent.
    let screens = (0..<5).map { i in
      blockScreen("s\(i)", [block("p\(i)", "progress", #"{"variant": "\#(variant)"}"#)], order: i)
    }
    var s = try session(flowJSON(screens))
    _ = s.send(.goto(screenID: "s1"))
    #expect(body(s) == expected + "\n")
  }
}
