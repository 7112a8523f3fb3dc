import FlowExpression
import FlowFormat
import FlowGenerator
import Testing

@testable import FlowAnalysis

/// `check.uncollected-variable` (dense numbers, one dataflow for all names) reports exactly
/// what the plain per-name searches of ``ReferenceUncollectedVariableRule`` report, on
/// generated flows edited so that they have plenty to report.
@Suite struct UncollectedVariableEquivalenceTests {
  struct Shape: Sendable, CustomTestStringConvertible {
    var name: String
    var options: FlowGenerator.Options
    var rates: FlowMutator.Rates?
    var testDescription: String { name }
  }

  static func options(
    seed: UInt64, screens: Int, branching: Int = 2, rules: Double = 0.3, experiments: Int = 0, subflows: Int = 0,
    subflowScreens: Int = 4
  ) -> FlowGenerator.Options {
    var options = FlowGenerator.Options()
    options.seed = seed
    options.screens = screens
    options.branching = branching
    options.ruleDensity = rules
    options.experiments = experiments
    options.subflows = subflows
    options.subflowScreens = subflowScreens
    return options
  }

  static let shapes: [Shape] = {
    var shapes: [Shape] = []
    for seed in UInt64(1)...6 {
      shapes.append(Shape(name: "clean flow, seed \(seed)", options: options(seed: seed, screens: 40), rates: nil))
      shapes.append(Shape(name: "edited flow, seed \(seed)", options: options(seed: seed, screens: 60), rates: .init()))
      shapes.append(
        Shape(
          name: "edited bundle, seed \(seed)",
          options: options(seed: seed, screens: 30, branching: 3, rules: 0.5, experiments: 2, subflows: 3),
          rates: .init()))
      shapes.append(
        Shape(
          name: "many jumps and reads, seed \(seed)",
          options: options(seed: seed, screens: 120, rules: 0.2, experiments: 1),
          rates: .init(jump: 0.3, rename: 0.1, read: 0.4, await: 0.1)))
    }
    shapes.append(
      Shape(
        name: "no awaited actions, many typos",
        options: options(seed: 99, screens: 80, subflows: 2, subflowScreens: 6),
        rates: .init(jump: 0.05, rename: 0.3, read: 0.5, await: 0)))
    return shapes
  }()

  /// The shape's generated flow, mutated when it has rates.
  static func json(_ shape: Shape) throws -> [UInt8] {
    let json = FlowGenerator(shape.options).generate()
    guard let rates = shape.rates else { return json }
    var mutator = FlowMutator(seed: shape.options.seed, rates: rates)
    return try mutator.mutate(json)
  }

  /// The graph of the shape's generated flow (the dense-number suites test against it).
  static func graph(_ shape: Shape) throws -> FlowGraph {
    let loaded = FlowLoader.load(bytes: try json(shape), file: "generated.json")
    return FlowGraph(document: try #require(loaded.document))
  }

  @Test(arguments: shapes)
  func sameDiagnosticsAsTheReference(_ shape: Shape) throws {
    let loaded = FlowLoader.load(bytes: try Self.json(shape), file: "generated.json")
    let document = try #require(loaded.document)
    let context = CheckContext(file: loaded.file, document: document, source: loaded.source)
    let expected = ReferenceUncollectedVariableRule().check(context)
    let actual = UncollectedVariableRule().check(context)
    #expect(actual == expected)
    if shape.rates != nil {
      #expect(expected.contains { $0.message.hasSuffix("which is not collected on every path to it") })
      #expect(expected.contains { $0.message.hasSuffix("which no screen collects") })
    }
  }

  /// The count of screens a long path's note skips is grouped as the `number` filter groups it.
  @Test(arguments: [0, 1, 12, 999, 1_000, 12_345, 999_999, 1_000_000, 123_456_789, 9_007_199_254_740_992, -4_321])
  func skippedScreensAreGroupedAsNumbers(_ count: Int) {
    #expect(UncollectedVariableRule.grouped(count) == NumberFormatting.grouped(Double(count)))
  }

  /// The dataflow against one breadth-first search per name, for every screen and name.
  @Test(arguments: shapes)
  func dataflowMatchesSearchesPerName(_ shape: Shape) throws {
    let document = try #require(FlowLoader.load(bytes: try Self.json(shape), file: "generated.json").document)
    let graph = FlowGraph(document: document)
    let dense = DenseScreenGraph(graph)
    let names = Array(Set(dense.nodes.flatMap { graph.screen($0).collectedFields })).sorted()
    let collects = dense.nodes.map { node in
      let fields = graph.screen(node).collectedFields
      return names.indices.filter { fields.contains(names[$0]) }
    }
    let roots = graph.rootFlows.compactMap { graph.starts[$0] }.map(dense.number)
    let flow = UncollectedOnArrival(graph: dense, roots: roots, names: names.count, collects: collects)
    for (bit, name) in names.enumerated() {
      let blocked = dense.nodes.map { graph.screen($0).collectedFields.contains(name) }
      let tree = dense.breadthFirstTree(from: roots, blocked: blocked, until: Array(0..<dense.count))
      let expected = tree.map { $0 != DenseScreenGraph.unvisited }
      let actual = (0..<dense.count).map { flow.contains(node: $0, name: bit) }
      #expect(actual == expected, "\(name)")
    }
  }

  /// A chain whose first screen may skip the collector: every later read is reported with a
  /// path as long as its depth, shortened in the middle past 21 screens, as the reference does.
  @Test(arguments: [5, 21, 22, 60])
  func longPathsAreShortenedAsTheReferenceDoes(_ screens: Int) throws {
    var json: [String] = []
    for i in 0..<screens {
      let rules = i == 0 ? #""rules": [{"when": "$user.id == 'x'", "goto": "s2"}, {"goto": "s1"}], "# : ""
      let input = i == 1 ? #", {"id": "x_in", "type": "input", "content": {"fieldName": "x"}}"# : ""
      json.append(
        #"{"id": "s\#(i)", "name": "S\#(i)", "type": "question", \#(rules)"content": {"blocks": [{"id": "t\#(i)", "type": "text", "content": {"text": "{x}"}}\#(input), {"id": "b\#(i)", "type": "button", "content": {"text": "Go"}}]}}"#
      )
    }
    let source = #"{"version": 1, "id": "chain", "screens": [\#(json.joined(separator: ","))]}"#
    let loaded = FlowLoader.load(bytes: Array(source.utf8), file: "chain.json")
    let document = try #require(loaded.document)
    let context = CheckContext(file: loaded.file, document: document, source: loaded.source)
    let actual = UncollectedVariableRule().check(context)
    #expect(actual == ReferenceUncollectedVariableRule().check(context))
    #expect(actual.count == screens - 1)  // every screen but the collector reads x
    let longest = try #require(actual.last?.notes.first?.message)
    if screens > 22 {
      #expect(
        longest.hasPrefix(
          "s0 → s2 → s3 → s4 → s5 → s6 → s7 → s8 → s9 → s10 → … \(screens - 21) screens … → s\(screens - 10) → "))
    } else {
      #expect(!longest.contains("…"))
    }
  }

  /// `TreePaths` against walking each path to its root, on random trees.
  @Test(arguments: [1, 2, 3, 10])
  func treePathsMatchWalkingEachPath(_ ends: Int) {
    var rng = SplitMix64(seed: UInt64(ends))
    for _ in 0..<20 {
      let count = Int.random(in: 1...300, using: &rng)
      // Parents come before their children, as in a breadth-first tree; a few roots.
      let parent = (0..<count).map {
        $0 == 0 || Int.random(in: 0..<20, using: &rng) == 0 ? -1 : Int.random(in: max(0, $0 - 5)..<$0, using: &rng)
      }
      // Asked for in tree order (each node's parent known before it) and in any order.
      for order in [Array(0..<count), (0..<count).shuffled(using: &rng)] {
        var paths = TreePaths(parent: parent, ends: ends)
        for node in order {
          Self.expectPath(&paths, to: node, parent: parent, ends: ends)
        }
      }
    }
  }

  /// `paths`' path to `node` (appended after what the buffer holds) against walking it, and
  /// the same path written later from the tree and `end(of:)` (`PathTexts` keeping a tree).
  static func expectPath(_ paths: inout TreePaths, to node: Int, parent: [Int], ends: Int) {
    var walk = [node]
    while parent[walk.last!] >= 0 { walk.append(parent[walk.last!]) }
    walk.reverse()
    var nodes: [Int32] = [-7]
    let (headCount, skipped, tailCount) = paths.appendPath(to: node, into: &nodes)
    #expect(nodes.first == -7 && nodes.count == 1 + headCount + tailCount)
    let head = nodes[1..<1 + headCount].map(Int.init)
    let tail = nodes[(1 + headCount)...].map(Int.init)
    if walk.count > 2 * ends + 1 {
      #expect(
        head == Array(walk.prefix(ends)) && tail == Array(walk.suffix(ends)) && skipped == walk.count - 2 * ends)
    } else {
      #expect(head == walk && skipped == 0 && tail.isEmpty)
    }
    let (length, headEnd) = paths.end(of: node)
    var fromTree: [Int32] = []
    TreePaths.append(from: headEnd, count: headCount, parent: { parent[$0] }, into: &fromTree)
    if skipped > 0 { TreePaths.append(from: node, count: tailCount, parent: { parent[$0] }, into: &fromTree) }
    #expect(length == walk.count && fromTree == Array(nodes.dropFirst()))
  }
}
