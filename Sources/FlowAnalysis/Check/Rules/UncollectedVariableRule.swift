import FlowExpression
import FlowFormat
import OrderedCollections

/// Templates and conditions that read a field some path has not collected yet.
public struct UncollectedVariableRule: LintRule {
  public init() {}
  public let id = "check.uncollected-variable"
  public let summary = "a template or condition reads a field that is not collected on some path to it"
  public let severity = Severity.warning
  public let details =
    "The note names a shortest such path (past 21 screens, its first and last 10, with the number of screens between). Context names (`$user`, `$variant`, ...) are not fields. Rule conditions and templates are checked. A template with a `default` filter, `empty` / `is_set` / `not_set` tests, and `visibleWhen` conditions handle a missing value and are not reported; a block's `visibleWhen` that requires a field (`is_set`, `not_empty`, a comparison) guards the block's templates that read it. A `flow` screen counts as collecting every field of its sub-flow. A name no block collects is reported wherever it is read, `visibleWhen`, `default` and `is_set` reads included (a typo is a typo), unless it may be result data: every path to the read passes a native screen or a screen with an awaited action (success data is merged into the collected data), or the screen's own `onEnter` awaits one; and even then it is reported when it is one or two edits from a collected field (a typo far likelier than result data). Its note suggests the closest collected name, and such a near miss is an error: a misspelt name reads as missing on every run. A document whose sub-flows gather more than 1,000,000 fields in all (each flow counting those of every flow it runs) is not checked; a note says so (docs/loading.md, Limits)."
  public let triggeringExample = Example.flow([
    Example.screen("welcome", "welcome", [Example.button("go", action: #"{"type": "screen", "screenId": "plan"}"#)]),
    Example.screen(
      "name_screen", "form", [Example.block("name_input", "input", #""fieldName": "name""#), Example.button("go")]),
    Example.screen("plan", "feature", [Example.text("plan_title", "Hi {name}!"), Example.button("go")]),
  ])
  public let cleanExample = Example.flow([
    Example.screen("welcome", "welcome", [Example.button("go")]),
    Example.screen(
      "name_screen", "form", [Example.block("name_input", "input", #""fieldName": "name""#), Example.button("go")]),
    Example.screen("plan", "feature", [Example.text("plan_title", "Hi {name}!"), Example.button("go")]),
  ])

  /// Screens a note names at each end of a longer path (the middle is counted): notes naming
  /// every screen made a long chain's report quadratic.
  static let pathEnds = 10

  public func check(_ context: CheckContext) -> [Diagnostic] {
    findings(context).completed
  }

  /// The diagnostics; those of reads some path reaches uncollected get their text (a path of
  /// up to 21 screens) when a report shows them (`PathTexts`).
  func findings(_ context: CheckContext) -> RuleFindings {
    let graph = context.graph
    let document = context.document
    // Big flows have thousands of screens and hundreds of names: everything below works on
    // dense node numbers, and which names may arrive uncollected where is one dataflow for
    // all names (no search per name unless it has something to report).
    let facts = context.facts
    let dense = context.dense
    let nodes = dense.nodes
    var flowIndex: [String: Int] = [:]
    for (index, flow) in document.flows.enumerated() where flowIndex[flow.id] == nil { flowIndex[flow.id] = index }
    // Fields each flow collects, sub-flows included (name numbers, ascending).
    guard let flowFields = facts.fieldsThroughSubflows(document, dense) else {
      let limit = NumberFormatting.grouped(Double(Limits.subflowFields))
      return RuleFindings([
        Diagnostic(
          id: id, severity: .note,
          message: "not checked: the flows' sub-flows gather more than \(limit) fields (docs/loading.md, Limits)",
          file: context.file, location: document.entryFlow?.location)
      ])
    }
    let names = facts.names
    // By node: the flow a `flow` screen runs (-1: none; empty when no screen runs one), whose
    // fields it collects besides its own (`collected`: a list per node of the union was 0.2
    // MB of the rule's peak on `lint-chain`). By name number: the nodes that collect it and
    // the reads of it (one per screen, as its index in `facts.nameReads.values`; 32 bits
    // each, 0.35 MB there), in node order.
    var childFlow: [Int32] = []
    var collectorPairs: [(key: Int, value: Int)] = []
    var readPairs: [(key: Int, value: (node: Int32, read: Int32))] = []
    readPairs.reserveCapacity(facts.nameReads.values.count)  // at most a pair a read
    // The read kept so far for each name of the current screen (-1: none), and those names.
    var firstRead = [Int](repeating: -1, count: names.count)
    var order: [Int] = []
    let initialData = document.flows.map(\.initialData)
    for (number, node) in nodes.enumerated() {
      var set = facts.collectedFields[number]
      if let child = document.flows[node.flow].screens[node.screen].subflow, let childIndex = flowIndex[child] {
        set = ScreenFacts.union(Array(set), flowFields[childIndex])[...]
        if childFlow.isEmpty { childFlow = [Int32](repeating: -1, count: nodes.count) }
        childFlow[number] = Int32(childIndex)
      }
      for field in set { collectorPairs.append((field, number)) }
      // One read per name and screen: the first that needs a value, else the first.
      // A flow's initial data (Nuxie view-model values) is there from the start.
      let initial = initialData[node.flow]
      let screenReads = facts.nameReads[number]
      for (index, read) in zip(screenReads.indices, screenReads)
      where initial.isEmpty || initial[names[read.number]] == nil {
        let known = firstRead[read.number]
        if known >= 0 {
          if screenReads[known].handlesMissing && !read.handlesMissing { firstRead[read.number] = index }
        } else {
          firstRead[read.number] = index
          order.append(read.number)
        }
      }
      for name in order {
        readPairs.append((name, (Int32(number), Int32(firstRead[name]))))
        firstRead[name] = -1
      }
      order.removeAll(keepingCapacity: true)
    }
    // The pairs end here: alive to the end of the rule, they were 0.8 MB of its peak on `lint-chain`.
    let collectors = Buckets(keys: names.count, pairs: consume collectorPairs, filler: 0)
    let reads = Buckets(keys: names.count, pairs: consume readPairs, filler: (node: 0, read: 0))
    func collected(_ node: Int32, _ name: Int) -> Bool {
      let node = Int(node)
      if Self.contains(facts.collectedFields[node], name) { return true }
      guard !childFlow.isEmpty, childFlow[node] >= 0 else { return false }
      return Self.contains(flowFields[Int(childFlow[node])], name)
    }
    func nameRead(_ entry: (node: Int32, read: Int32)) -> NameRead { facts.nameReads.values[Int(entry.read)] }
    let roots = graph.rootFlows.compactMap { graph.starts[$0] }.map(dense.number)
    // Names collected somewhere and read without handling a missing value by a screen that
    // does not collect them. A read of a name one screen collects is reached without it
    // exactly when that screen does not dominate the read; the dataflow tracks the names more
    // screens collect (bit numbers by name number), most flows' few.
    var tracked = [Int](repeating: -1, count: names.count)
    var trackedCount = 0
    var singleCollector = false
    // The names that may be reported: read and collected nowhere, or collected on some paths.
    var candidates: [Int] = []
    for name in names.indices where !reads[name].isEmpty {
      if collectors[name].isEmpty {
        candidates.append(name)
      } else if reads[name].contains(where: { !nameRead($0).handlesMissing && !collected($0.node, name) }) {
        if collectors[name].count == 1 {
          singleCollector = true
        } else {
          tracked[name] = trackedCount
          trackedCount += 1
        }
        candidates.append(name)
      }
    }
    let dominators = singleCollector ? Dominators(dense, roots: roots) : nil
    // Only when some name is tracked: else a list per node, all empty, 0.2 MB on `lint-chain`.
    var collectedTracked = [[Int]](repeating: [], count: trackedCount > 0 ? nodes.count : 0)
    for name in names.indices where tracked[name] >= 0 {
      for node in collectors[name] { collectedTracked[node].append(tracked[name]) }
    }
    let uncollected = UncollectedOnArrival(
      graph: dense, roots: roots, names: trackedCount, collects: collectedTracked)
    var resultData: ResultData?
    var collectedNames: SpellingIndex?
    var blocked = [Bool](repeating: false, count: nodes.count)
    var findings = RuleFindings([])
    var texts = PathTexts(document: document, nodes: nodes, names: names)
    candidates.sort { names[$0] < names[$1] }
    for number in candidates {
      let name = names[number]
      let readers = reads[number]
      let nameCollectors = collectors[number]
      if nameCollectors.isEmpty {
        // No block collects the name. It is result data only where every path to the read
        // passes an awaited action or native screen (or the screen's own `onEnter` awaits one);
        // a read that some path reaches without one is a typo or a forgotten field.
        if resultData == nil { resultData = ResultData(dense, graph: graph, roots: roots, flowIndex: flowIndex) }
        if collectedNames == nil {
          collectedNames = SpellingIndex(names.indices.filter { !collectors[$0].isEmpty }.map { names[$0] }.sorted())
        }
        // Result data one or two edits away from a collected field is far likelier a typo.
        let guess = collectedNames!.closest(to: name)
        for reader in readers {
          let (node, read) = (Int(reader.node), nameRead(reader))
          let screen = graph.screen(nodes[node])
          if resultData!.reachable[node] && (!resultData!.bare[node] || Self.awaits(screen.onEnter)) && guess == nil {
            continue
          }
          var notes = [Diagnostic.Note("read by \(read.what(on: screen))")]
          if let guess { notes.append(Diagnostic.Note("did you mean '\(guess)'?")) }
          var diagnostic = context.diagnostic(
            self, "screen '\(screen.id)' reads '\(name)', which no screen collects", at: read.location, notes: notes)
          // A misspelt name reads as missing on every run: an error, not a risk (issue #19).
          if guess != nil { diagnostic.severity = .error }
          findings.append(diagnostic)
        }
        continue
      }
      let bit = tracked[number]
      func uncollectedOnArrival(_ node: Int32) -> Bool {
        let node = Int(node)
        guard let dominators, bit < 0 else { return uncollected.contains(node: node, name: bit) }
        return dominators.isReachable(node) && !dominators.dominates(nameCollectors.first!, node)
      }
      let reported = readers.filter { reader in
        !nameRead(reader).handlesMissing && !collected(reader.node, number) && uncollectedOnArrival(reader.node)
      }
      guard !reported.isEmpty else { continue }
      // A shortest path to each reported read: one breadth-first search for the name.
      for node in nameCollectors { blocked[node] = true }
      let tree = dense.breadthFirstTree(from: roots, blocked: blocked, until: reported.map { Int($0.node) })
      for node in nameCollectors { blocked[node] = false }
      var paths = TreePaths(parent: tree, ends: Self.pathEnds)
      let nameIndex = texts.add(
        name: number, collectors: nameCollectors.prefix(3), reads: reported.map { Int($0.node) }, paths: &paths)
      findings.reserve(waiting: reported.count)
      for reader in reported {
        let text = texts.add(pathTo: Int(reader.node), in: &paths, name: nameIndex, site: nameRead(reader).site)
        findings.add(self, text: text, at: nameRead(reader).location, context)
      }
    }
    findings.texts = texts
    return findings
  }

  /// `NumberFormatting.grouped(Double(count))` (`12,345`) for a count of screens, without the
  /// general one's decimal digits of a `Double`: 14,000 instructions a call, an eighth of
  /// `check` on `lint-chain`.
  static func grouped(_ count: Int) -> String {
    guard count >= 0 else { return NumberFormatting.grouped(Double(count)) }
    let digits = Array(String(count).utf8)
    var text: [UInt8] = []
    text.reserveCapacity(digits.count + digits.count / 3)
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { text.append(UInt8(ascii: ",")) }
      text.append(digit)
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// Whether the ascending list `numbers` holds `number`.
  static func contains(_ numbers: some RandomAccessCollection<Int>, _ number: Int) -> Bool {
    var low = numbers.startIndex
    var high = numbers.endIndex
    while low < high {
      let mid = numbers.index(low, offsetBy: numbers.distance(from: low, to: high) / 2)
      if numbers[mid] < number { low = numbers.index(after: mid) } else { high = mid }
    }
    return low < numbers.endIndex && numbers[low] == number
  }

  /// For names no block collects: which screens a run can reach at all, and which it can
  /// reach without passing (before them) a screen that may supply result data.
  struct ResultData {
    var reachable: [Bool]
    var bare: [Bool]

    init(_ dense: DenseScreenGraph, graph: FlowGraph, roots: [Int], flowIndex: [String: Int]) {
      let document = graph.document
      let flowSupplies = document.foldOverSubflows(
        { $0.screens.contains(where: UncollectedVariableRule.suppliesResults) }, merge: { $0 = $0 || $1 })
      // Screens after which result data may have arrived: an awaited action's success data and
      // a native screen's answer are merged into the collected data, under names no block declares.
      let supplies = dense.nodes.map { node in
        let screen = graph.screen(node)
        if UncollectedVariableRule.suppliesResults(screen) { return true }
        guard let child = screen.subflow, let childIndex = flowIndex[child] else { return false }
        return flowSupplies[childIndex]
      }
      reachable = dense.reached(from: roots)
      bare = dense.reached(from: roots) { !supplies[$0] }
    }
  }

  /// Whether result data may arrive at or after `screen`: a native screen, or an awaited action.
  static func suppliesResults(_ screen: Screen) -> Bool {
    screen.kind == .native || hasAwaitedAction(screen)
  }

  static func awaits(_ action: Action?) -> Bool {
    if case .custom(let custom)? = action { return custom.awaitResult }
    return false
  }

  static func hasAwaitedAction(_ screen: Screen) -> Bool {
    let awaited = awaits
    if awaited(screen.onEnter) || awaited(screen.content.skipAction) || awaited(screen.content.buttonAction) {
      return true
    }
    return screen.content.flatBlocks.contains { block in
      awaited(block.content.control?.action) || awaited(block.content.field?.answerAction)
    }
  }
}
