import FlowAnalysis
import FlowFormat
import FlowGenerator
import Testing

/// The generator's promises: every document it writes loads with no errors (and no warnings),
/// and the same options give the same bytes.
@Suite struct FlowGeneratorTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var label: String
    var options: FlowGenerator.Options
    var testDescription: String { label }
  }

  static func options(_ configure: (inout FlowGenerator.Options) -> Void) -> FlowGenerator.Options {
    var options = FlowGenerator.Options()
    configure(&options)
    return options
  }

  static let cases: [Case] = [
    Case(label: "defaults", options: FlowGenerator.Options()),
    Case(label: "one screen", options: options { $0.screens = 1 }),
    Case(
      label: "two screens, all rules",
      options: options {
        $0.seed = 7
        $0.screens = 2
        $0.ruleDensity = 1
        $0.branching = 4
      }),
    Case(
      label: "dense rules",
      options: options {
        $0.seed = 3
        $0.screens = 60
        $0.ruleDensity = 1
        $0.branching = 5
      }),
    Case(
      label: "no rules, text only",
      options: options {
        $0.seed = 4
        $0.ruleDensity = 0
        $0.mix = FlowGenerator.BlockMix(parsing: "inputs=0,checklists=0,sliders=0,toggles=0,buttons=0")!
      }),
    Case(
      label: "no weights at all",
      options: options {
        $0.seed = 5
        $0.mix = FlowGenerator.BlockMix(parsing: "inputs=0,checklists=0,sliders=0,toggles=0,texts=0,buttons=0")!
      }),
    Case(
      label: "experiments in a flow",
      options: options {
        $0.seed = 6
        $0.experiments = 3
        $0.ruleDensity = 0.8
      }),
    Case(
      label: "bundle without sub-flows",
      options: options {
        $0.seed = 8
        $0.bundle = true
        $0.experiments = 2
      }),
    Case(
      label: "bundle with sub-flows",
      options: options {
        $0.seed = 9
        $0.subflows = 5
        $0.subflowScreens = 3
        $0.experiments = 2
        $0.ruleDensity = 0.6
      }),
    Case(
      label: "more sub-flows than screens",
      options: options {
        $0.seed = 10
        $0.screens = 3
        $0.subflows = 6
        $0.subflowScreens = 1
      }),
    Case(
      label: "padded flow (200 kB)",
      options: options {
        $0.seed = 11
        $0.targetBytes = 200_000
      }),
    Case(
      label: "padded bundle (300 kB)",
      options: options {
        $0.seed = 12
        $0.subflows = 2
        $0.experiments = 1
        $0.targetBytes = 300_000
      }),
  ]

  /// The case's document generated with its seed and two more, each with its options, loaded.
  static func loadedWithThreeSeeds(_ testCase: Case) -> [(FlowGenerator.Options, LoadResult)] {
    (UInt64(0)..<3).map { seedOffset in
      var options = testCase.options
      options.seed &+= seedOffset * 1000
      return (options, FlowLoader.load(bytes: FlowGenerator(options).generate(), file: "generated.json"))
    }
  }

  @Test(arguments: cases)
  func generatedDocumentLoadsCleanly(_ testCase: Case) {
    for (options, result) in Self.loadedWithThreeSeeds(testCase) {
      let bytes = result.source
      #expect(result.document != nil)
      #expect(
        result.diagnostics.isEmpty,
        "seed \(options.seed):\n\(DiagnosticFormatter(sources: ["generated.json": bytes]).text(Array(result.diagnostics.prefix(5))))"
      )
      if let document = result.document {
        #expect(document.shape == (options.isBundle ? .bundle : .flow))
        #expect(document.flows.count == (options.isBundle ? options.subflows + 1 : 1))
        #expect(document.experiments.count == options.experiments)
        let entry = document.flows.first { $0.id == document.entryFlowID }
        #expect((entry?.screens.count ?? 0) >= options.screens)
      }
      if let target = options.targetBytes {
        #expect(bytes.count >= target && bytes.count < target + 20_000, "\(bytes.count) bytes for \(target)")
      }
    }
  }

  /// Shapes for the lint and `paths` test: flows a product team could have written.
  static let lintCases: [Case] = [
    Case(label: "defaults", options: FlowGenerator.Options()),
    Case(
      label: "dense rules",
      options: options {
        $0.seed = 3
        $0.screens = 60
        $0.ruleDensity = 1
        $0.branching = 5
      }),
    Case(
      label: "experiments in a flow",
      options: options {
        $0.seed = 6
        $0.screens = 40
        $0.experiments = 3
        $0.ruleDensity = 0.8
      }),
    Case(
      label: "bundle with sub-flows",
      options: options {
        $0.seed = 9
        $0.subflows = 3
        $0.subflowScreens = 4
        $0.experiments = 2
        $0.ruleDensity = 0.4
      }),
    Case(
      label: "padded flow (100 kB)",
      options: options {
        $0.seed = 11
        $0.targetBytes = 100_000
      }),
    Case(
      label: "300 screens",
      options: options {
        $0.seed = 1
        $0.screens = 300
        $0.branching = 3
        $0.ruleDensity = 0.5
      }),
    Case(
      label: "300 screens, buttons and sliders",
      options: options {
        $0.seed = 2
        $0.screens = 300
        $0.mix = FlowGenerator.BlockMix(parsing: "sliders=3,buttons=3")!
      }),
  ]

  /// `flowrun check`'s lint rules (run in-process, as `check` runs them) find nothing at all,
  /// and `paths` reaches every screen (but `flow` screens, which are never current: the
  /// session enters their sub-flow at once, whose screens are counted).
  ///
  /// (Bundles are kept small: inside a sub-flow the explorer keys states on every field the
  /// sub-flow's conditions read, so sub-flows with many rules multiply the states.)
  @Test(arguments: lintCases)
  func generatedFlowIsCleanUnderLintAndPaths(_ testCase: Case) {
    for (options, result) in Self.loadedWithThreeSeeds(testCase) {
      let bytes = result.source
      let diagnostics = FlowChecker.check(result)
      #expect(
        diagnostics.isEmpty,
        "seed \(options.seed): \(diagnostics.count) diagnostics\n\(DiagnosticFormatter(sources: ["generated.json": bytes]).text(Array(diagnostics.prefix(5))))"
      )
      guard let document = result.document else { continue }
      let exploration = PathExplorer(document: document).explore()
      let complete = exploration.isComplete
      #expect(complete, "seed \(options.seed): exploration stopped at \(exploration.states.count) states")
      let screens = document.flows.reduce(0) { $0 + $1.screens.count { $0.kind != .flow } }
      let reached = exploration.reachableItems.filter { $0.kindName == "screen" }
      #expect(reached.count == screens, "seed \(options.seed): paths reached \(reached.count) of \(screens) screens")
    }
  }

  @Test func sameOptionsGiveIdenticalBytes() {
    var options = FlowGenerator.Options()
    options.seed = 42
    options.subflows = 3
    options.experiments = 2
    options.ruleDensity = 0.7
    options.targetBytes = 100_000
    let first = FlowGenerator(options).generate()
    let second = FlowGenerator(options).generate()
    #expect(first == second)
    options.seed = 43
    #expect(FlowGenerator(options).generate() != first)
  }

  /// Pins the exact output of one small document so a change to the generator (or to the
  /// standard library under it) that would silently change every benchmark input is noticed.
  @Test func outputIsStableAcrossBuilds() {
    var options = FlowGenerator.Options()
    options.seed = 1
    options.screens = 5
    options.subflows = 1
    options.experiments = 1
    let bytes = FlowGenerator(options).generate()
    #expect(fnv1a(bytes) == Self.pinnedHash, "new hash \(fnv1a(bytes)), \(bytes.count) bytes")
  }

  static let pinnedHash: UInt64 = 6_646_634_413_643_471_443

  @Test func mixParsing() {
    #expect(FlowGenerator.BlockMix(parsing: "inputs=3, sliders=0")?.inputs == 3)
    #expect(FlowGenerator.BlockMix(parsing: "inputs=3, sliders=0")?.sliders == 0)
    #expect(FlowGenerator.BlockMix(parsing: "widgets=1") == nil)
    #expect(FlowGenerator.BlockMix(parsing: "inputs=-1") == nil)
  }

  @Test func splitMixMatchesTheReferenceSequence() {
    // First outputs of SplitMix64 seeded with 1234567 (Vigna's reference implementation).
    var rng = SplitMix64(seed: 1_234_567)
    #expect(rng.next() == 6_457_827_717_110_365_317)
    #expect(rng.next() == 3_203_168_211_198_807_973)
    #expect(rng.next() == 9_817_491_932_198_370_423)
  }
}

func fnv1a(_ bytes: [UInt8]) -> UInt64 {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for b in bytes {
    hash ^= UInt64(b)
    hash = hash &* 0x100_0000_01b3
  }
  return hash
}
