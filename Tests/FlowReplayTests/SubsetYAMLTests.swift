import FlowBenchSupport
import FlowFormat
import Foundation
import Testing
import _FlowTestSupport

@testable import FlowReplay

/// The subset reader must give exactly Yams' tree (kinds, texts, line:column:offset) whenever
/// it answers, and answer for the scripts people and the benchmark write.
@Suite("Subset YAML reader")
struct SubsetYAMLTests {
  /// The tree as text: kind, scalar text and location of every node and key.
  static func describe(_ node: ScriptNode, indent: String = "") -> String {
    let at = "@\(node.location.line):\(node.location.column):\(node.location.offset)"
    switch node.kind {
    case .scalar(let scalar):
      return "\(indent)\(scalar) text=\(node.text.map { "\"\($0)\"" } ?? "nil") \(at)\n"
    case .sequence(let elements):
      return "\(indent)seq \(at)\n" + elements.map { describe($0, indent: indent + "  ") }.joined()
    case .mapping(let members):
      return "\(indent)map \(at)\n"
        + members.map {
          "\(indent)  key \"\($0.key)\" @\($0.keyLocation.line):\($0.keyLocation.column):\($0.keyLocation.offset)\n"
            + describe($0.value, indent: indent + "    ")
        }.joined()
    }
  }

  /// Compares both readers on `text`; returns whether the subset reader answered.
  @discardableResult
  static func check(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Bool {
    let bytes = Array(text.utf8)
    guard let fast = SubsetYAML.parse(bytes) else { return false }
    let (yams, diagnostics) = ScriptNodeReader.yamsTree(bytes, file: "t.yaml")
    #expect(diagnostics.isEmpty, "Yams reports \(diagnostics) for:\n\(text)", sourceLocation: sourceLocation)
    guard let yams else {
      Issue.record("Yams has no tree for:\n\(text)", sourceLocation: sourceLocation)
      return true
    }
    #expect(describe(fast) == describe(yams), "for:\n\(text)", sourceLocation: sourceLocation)
    return true
  }

  @Test func sameTreesForEveryScriptInTheRepository() throws {
    let root = packageRoot()
    var files: [String] = []
    for directory in ["sample-flows", "Tests/FlowReplayTests", "Tests/FlowCLITests", "Tests/FlowDriverTests"] {
      let base = root.appendingPathComponent(directory).path
      guard let enumerator = FileManager.default.enumerator(atPath: base) else { continue }
      for case let relative as String in enumerator where relative.hasSuffix(".yaml") || relative.hasSuffix(".yml") {
        files.append(base + "/" + relative)
      }
    }
    #expect(files.count >= 20)
    for file in files {
      // Leniently: the bad-input corpus (Tests/FlowCLITests/BadInputs) holds invalid UTF-8 too.
      let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self)
      let answered = Self.check(text)
      // Every sample script is in the subset (the fast path is the common path).
      if file.contains("/sample-flows/tests/") { #expect(answered, "\(file) fell back to Yams") }
    }
  }

  @Test func sameTreesForGeneratedBenchmarkScripts() {
    for seed in 0..<200 {
      for steps in [3, 20, 40] {
        let text = ReplayBenchmark.fitnessScript(seed: UInt64(seed), steps: steps, flow: "fitness.json")
        #expect(Self.check(text), "seed \(seed) fell back to Yams")
      }
    }
  }

  /// Texts the subset reader answers: scalars of every type, quoting, comments, nesting,
  /// positions after multi-byte characters.
  static let inSubset: [String] = [
    "a: b\n",
    "a: b",
    "a: 1\nb: -2\nc: 3.5\nd: true\ne: False\nf: null\ng: ~\nh: yes\ni: 0x1F\nj: 1_000\nk: .inf\nl: 2026-01-01\n",
    "a: '1'\nb: \"true\"\nc: 'it''s'\nd: \"x: y # z\"\ne: ''\n",
    "# head\n\na: b # tail\n# mid\n\n  # indented comment\nc: d\n",
    "steps:\n- a\n- b: c\n  d: e\n- {x: 1, y: [1, 2, {z: w}]}\nafter: 1\n",
    "steps:\n  - tap: Get Started\n  - tap: Continue\n    expect_error: required\n  - back\n",
    "a:\n  b:\n    c: d\n  e: f\ng: h\n",
    "a: {}\nb: []\nc: { }\nd: [ ]\n",
    "a: {k: v , l : m}\nb: [ a , b ]\n",
    "key with spaces: value with spaces\n\"quoted key\": 1\n'single': 2\n",
    "a: b:c\nd: http://x.y/z?q=1#frag\ne: a#b\nf: Yes, please\ng: x{y}[z]\n",
    "name: Café ☕\nlabel: naïve → ok\nlist: [é, ü]\nmap: {ß: 𝄞}\n",
    "a: -5\nb: -x\nc: +1\nd: 08\ne: 012\nf: 1e3\ng: .5\nh: 1:30\n",
    "-   a: b\n    c: d\n-  x\n",
    "a:    b   \nc:   'd'   \n",
    "a: y\nb: n\nc: Y\nd: on\ne: OFF\nf: Null\ng: NULL\nh: nULL\n",
    "now: 2026-01-01T08:30:00Z\nwait: 0\nt: 2026-01-01 08:30:00\n",
    "a: [\"x\", 'y', z]\nb: {\"k\": \"v\"}\n",
    "a: =\nb: 1.0.0\nc: 0o17\nd: 0b101\ne: 190:20:30\n",
    "a: b\n\n\n",
    "\n\na: b\n",
    "a:\n", "a:\nb: c\n", "a: # comment\nb:\n", "steps:\n  - back:\n    expect_error: x\n  - next:\n  - skip\n",
    "a:\n  b:\nc: d\n", "- a:\n- b:\n",
  ]

  @Test(arguments: inSubset)
  func answersAndAgrees(_ text: String) {
    #expect(Self.check(text), "fell back to Yams")
  }

  /// Texts outside the subset or invalid: the subset reader must not answer (Yams reads them,
  /// or reports the syntax error with its own positions).
  static let outsideSubset: [String] = [
    "", "# only a comment\n", "---\na: b\n", "a: b\n...\n", "%YAML 1.1\n---\na: b\n",
    "a: &x b\nc: *x\n", "a: !!str 1\n", "a: |\n  text\n", "a: >\n  text\n",
    "a: b\n  c\n", "a: 'b\n  c'\n", "a: \"b\\n\"\n", "a: [b,\n  c]\n",
    "a: b\na: c\n", "a: {b: 1, b: 2}\n", "a: [b,]\n", "a: {b}\n", "a: [b: c]\n", "a: b: c\n",
    "a:\tb\n", "a: b\r\n", "? a\n: b\n", "a: [b\n", "a: {b: c\n", "- a\nb: c\n", "a: 1\n- b\n",
    "a: b\n  c: d\n", "- - a\n", "-\n  a: b\n", "a:\n  b\n", "<<: {a: b}\n", "a: {b:c}\n",
    "\u{FEFF}a: b\n", "a: b\u{2028}c\n", "a: b\u{85}c\n", "a: 'x'y\n", "a: {b: c}d\n", "a: @b\n",
    "a: `b\n", "[a, b]\n", "plain\n", "a: ,b\n", "a: b\n c: d\n", " a: b\nc: d\n",
  ]

  @Test(arguments: outsideSubset)
  func fallsBack(_ text: String) {
    #expect(SubsetYAML.parse(Array(text.utf8)) == nil)
  }

  /// Through `ScriptParser`, a text in the subset and the same text read by Yams give the same
  /// script and diagnostics (file:line:col) — here with problems the parser reports.
  @Test func sameDiagnosticsThroughTheParser() {
    let texts = [
      "flow: a.json\nstesp: []\n", "flow: a.json\nsteps:\n  - tapp: Go\n", "flow: a.json\nsteps:\n  - wait: soon\n",
      "flow: a.json\nsteps:\n  - result: {status: sucess}\n", "flow: a.json\nexpect:\n  compelted: true\n",
      "flow: a.json\nnow: yesterday\n", "flow: a.json\nsteps:\n  - tap: Go\n    back: 1\n",
      "flow: a.json\nsteps:\n  - tap: 0\n", "flow: a.json\nexpect:\n  events: [onboarding_complete]\n",
    ]
    for text in texts {
      let bytes = Array(text.utf8)
      #expect(SubsetYAML.parse(bytes) != nil, "\(text)")
      let (tree, syntax) = ScriptNodeReader.yamsTree(bytes, file: "t.yaml")
      var reader = Reader(file: "t.yaml", diagnostics: syntax)
      _ = tree.map { reader.script($0) }
      let viaParser = ScriptParser.parse(bytes: bytes, file: "t.yaml")
      #expect(viaParser.diagnostics == reader.diagnostics, "\(text)")
    }
  }
}
