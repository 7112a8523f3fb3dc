import FlowExpression
import FlowFormat
import Testing

/// Numbers a flow gives are checked when it loads (`Limits`): out of range is a
/// `load.out-of-range` (or `load.bad-weight`) error at the value, naming the allowed range.
@Suite struct LoadLimitsTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    /// A block's JSON, or a screen's extra keys when `screenKeys` is set.
    var json: String
    var screenKeys = false
    /// The message of the one error expected (nil: none).
    var message: String?
    var id = "load.out-of-range"
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "autoAdvanceMs 1e19", json: #""autoAdvanceMs": 1e19"#, screenKeys: true,
      message: "autoAdvanceMs must be between 0 and 1,000,000,000,000 ms, found 10000000000000000000"),
    Case(
      name: "a 292-million-year filler", json: #""autoAdvanceMs": 9.2e18"#, screenKeys: true,
      message: "autoAdvanceMs must be between 0 and 1,000,000,000,000 ms, found 9200000000000000000"),
    Case(
      name: "autoAdvanceMs negative", json: #""autoAdvanceMs": -1"#, screenKeys: true,
      message: "autoAdvanceMs must be between 0 and 1,000,000,000,000 ms, found -1"),
    Case(name: "autoAdvanceMs at the bound", json: #""autoAdvanceMs": 1e12"#, screenKeys: true),
    Case(
      name: "slider min -1e308", json: slider(#""min": -1e308"#),
      message: "min must be between -1,000,000,000,000,000 and 1,000,000,000,000,000, found -1e+308"),
    Case(
      name: "slider max 1e308", json: slider(#""max": 1e308"#),
      message: "max must be between -1,000,000,000,000,000 and 1,000,000,000,000,000, found 1e+308"),
    Case(
      name: "slider step 1e300", json: slider(#""step": 1e300"#),
      message: "step must be between -1,000,000,000,000,000 and 1,000,000,000,000,000, found 1e+300"),
    Case(
      name: "slider default 2e15", json: slider(#""max": 1e15, "defaultValue": 2e15"#),
      message: "defaultValue must be between -1,000,000,000,000,000 and 1,000,000,000,000,000, found 2000000000000000"),
    Case(name: "slider at the bounds", json: slider(#""min": -1e15, "max": 1e15, "step": 1e15"#)),
    Case(
      name: "number input max 1e308", json: input(#""inputType": "number", "max": 1e308"#),
      message: "max must be between -1,000,000,000,000,000 and 1,000,000,000,000,000, found 1e+308"),
    Case(
      name: "maxLength 999999999999999", json: input(#""maxLength": 999999999999999"#),
      message: "maxLength must be between 0 and 100,000, found 999999999999999"),
    Case(
      name: "minLength 3e9", json: input(#""minLength": 3e9"#),
      message: "minLength must be between 0 and 100,000, found 3000000000"),
    Case(name: "maxLength at the bound", json: input(#""maxLength": 100000"#)),
    Case(
      name: "minSelections -1", json: checklist(#""minSelections": -1"#),
      message: "minSelections must be between 0 and 100,000, found -1"),
    Case(
      name: "maxSelections 1e6", json: checklist(#""maxSelections": 1000000"#),
      message: "maxSelections must be between 0 and 100,000, found 1000000"),
    Case(
      name: "block order 1e20", json: #"{"id": "t", "type": "text", "order": 1e20, "content": {"text": "x"}}"#,
      message: "order must be between -1,000,000,000,000,000 and 1,000,000,000,000,000, found 100000000000000000000"),
    Case(name: "screen order -1e15", json: #""order": -1e15"#, screenKeys: true),
  ]

  static func slider(_ keys: String) -> String {
    #"{"id": "s", "type": "slider", "content": {"fieldName": "x", \#(keys)}}"#
  }

  static func input(_ keys: String) -> String {
    #"{"id": "i", "type": "input", "content": {"fieldName": "x", \#(keys)}}"#
  }

  static func checklist(_ keys: String) -> String {
    #"{"id": "c", "type": "checklist", "content": {"fieldName": "x", "allowMultiple": true, "items": [{"id": "a", "label": "A"}], \#(keys)}}"#
  }

  static func flow(_ test: Case) -> String {
    let blocks = test.screenKeys ? "" : test.json + ", "
    let extra = test.screenKeys ? ", " + test.json : ""
    return
      #"{"version": 1, "screens": [{"id": "a", "name": "A", "type": "filler"\#(extra), "content": {"blocks": [\#(blocks){"id": "go", "type": "button", "content": {"text": "Go"}}]}}]}"#
  }

  @Test(arguments: cases)
  func numberOutOfRangeIsALoadError(_ test: Case) throws {
    let result = FlowLoader.load(bytes: Array(Self.flow(test).utf8), file: "limits.json")
    let errors = result.diagnostics.filter { $0.severity == .error }
    guard let message = test.message else {
      #expect(errors.isEmpty, "\(errors.map(\.message))")
      return
    }
    #expect(errors.count == 1, "\(errors.map(\.message))")
    let error = try #require(errors.first)
    #expect(error.id == test.id)
    #expect(error.message == message)
    #expect(error.location != nil)
    #expect(!result.isRunnable)
  }

  @Test(
    arguments: [
      ("-1", "variant weight must be between 0 and 1,000,000,000,000,000, found -1"),
      ("1e300", "variant weight must be between 0 and 1,000,000,000,000,000, found 1e+300"),
      ("1e15", nil),
    ] as [(String, String?)])
  func variantWeightIsBounded(_ weight: String, _ message: String?) throws {
    let text = #"""
      {"version": 1, "experiments": [{"id": "e", "variants": [{"id": "a", "weight": \#(weight)}, {"id": "b", "weight": 1}]}],
       "screens": [{"id": "a", "name": "A", "type": "feature", "content": {}}]}
      """#
    let result = FlowLoader.load(bytes: Array(text.utf8), file: "weights.json")
    let errors = result.diagnostics.filter { $0.severity == .error }
    #expect(errors.map(\.message) == (message.map { [$0] } ?? []))
    #expect(errors.allSatisfy { $0.id == "load.bad-weight" })
  }
}

/// Sub-flows are walked without recursion: chains far longer than a thread's stack allows.
@Suite struct SubflowChainTests {
  /// A bundle of `count` flows, each running the next (the last runs `cycleTo`, if given); with
  /// `fields`, each flow collects a field of its own.
  static func chain(_ count: Int, cycleTo: Int? = nil, fields: Bool = false) -> [UInt8] {
    var flows: [String] = []
    for i in 0..<count {
      let next = i + 1 < count ? "f\(i + 1)" : cycleTo.map { "f\($0)" }
      let runs = next.map { #"{"id": "s", "name": "S", "type": "flow", "flow": "\#($0)", "content": {}}, "# } ?? ""
      let field = fields ? #"{"id": "i", "type": "input", "content": {"fieldName": "x\#(i)"}}"# : ""
      flows.append(
        #""f\#(i)": {"version": 1, "id": "f\#(i)", "name": "F", "screens": [\#(runs){"id": "e", "name": "E", "type": "feature", "content": {"blocks": [\#(field)]}}]}"#
      )
    }
    return Array(#"{"activeFlow": "f0", "flows": {\#(flows.joined(separator: ",\n"))}}"#.utf8)
  }

  @Test(
    arguments: [
      (20_000, nil, nil),
      (20_000, 0, "sub-flows form a cycle: f0 → f1 → f2"),
      (20_000, 19_998, "sub-flows form a cycle: f19998 → f19999 → f19998"),
    ] as [(Int, Int?, String?)])
  func longChainLoads(_ count: Int, _ cycleTo: Int?, _ cycle: String?) throws {
    let result = FlowLoader.load(bytes: Self.chain(count, cycleTo: cycleTo), file: "chain.json")
    let document = try #require(result.document)
    #expect(document.flows.count == count)
    let cycles = result.diagnostics.filter { $0.id == "load.subflow-cycle" }
    if let cycle {
      #expect(cycles.count == 1)
      #expect(cycles.first?.message.hasPrefix(cycle) == true, "\(cycles.map(\.message))")
    } else {
      #expect(cycles.isEmpty)
      #expect(!result.diagnostics.hasErrors)
    }
    let (order, children) = document.subflowPostOrder()
    #expect(order.count == count)
    // A flow comes after the sub-flows it runs, but for a cycle's back edge.
    var position = [Int](repeating: 0, count: count)
    for (index, flow) in order.enumerated() { position[flow] = index }
    let backEdges = children.enumerated().flatMap { flow, runs in runs.filter { position[$0] > position[flow] } }
    #expect(backEdges.count == (cycleTo == nil ? 0 : 1))
  }

  /// Each flow of a chain gathers the fields of every flow after it: n (n + 1) / 2 in all.
  @Test(arguments: [(1_000, true), (1_500, false)])
  func fieldsThroughSubflowsStopAtTheirBound(_ count: Int, _ within: Bool) throws {
    let document = try #require(FlowLoader.load(bytes: Self.chain(count, fields: true), file: "chain.json").document)
    let fields = document.fieldsThroughSubflows { flow in
      Set(flow.screens.flatMap { $0.content.flatBlocks.compactMap(\.fieldName) })
    }
    #expect((fields != nil) == within)
    #expect(fields?.first?.count ?? count == count)
  }

  @Test func foldGathersEverySubflow() throws {
    let document = try #require(FlowLoader.load(bytes: Self.chain(5_000), file: "chain.json").document)
    let reached = document.foldOverSubflows({ [$0.id] as Set<String> }, merge: { $0.formUnion($1) })
    #expect(reached[0].count == 5_000)
    #expect(reached[4_999] == ["f4999"])
  }
}
