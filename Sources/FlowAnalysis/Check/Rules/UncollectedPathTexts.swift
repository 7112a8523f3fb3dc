import FlowFormat

extension UncollectedVariableRule {
  /// The texts of the reads some path reaches with the name uncollected ("screen 's9' reads
  /// 'answer', which is not collected on every path to it", and a note naming a shortest such
  /// path), kept as numbers until a report shows them: on `lint-chain` the 21,714 written at
  /// once were 15.7 MB and most of the rule's time, and a text report shows a thousand.
  struct PathTexts: DeferredTexts {
    /// Each flow's id and screens (a `Flow` copied per screen named cost a third of a note).
    private let flows: [(id: String, screens: [Screen])]
    private let nodes: [ScreenNode]
    /// Name numbers' names (`ScreenFacts.names`).
    private let names: [String]
    /// A reported name and the first screens that collect it (node numbers).
    private var reportedNames: [(name: Int32, collectors: [Int32])] = []
    private var reads: [Read] = []
    /// The paths' screens (node numbers), each read's `head + tail` from its `first`.
    private var pathNodes: [Int32] = []

    private struct Read {
      var node: Int32
      /// In `reportedNames`.
      var name: Int32
      var first: Int32
      var head: UInt8
      var tail: UInt8
      var skipped: Int
      var site: NameRead.Site
    }

    init(document: FlowDocument, nodes: [ScreenNode], names: [String]) {
      flows = document.flows.map { ($0.id, $0.screens) }
      self.nodes = nodes
      self.names = names
    }

    /// Adds a reported name (number `name`) with the first screens that collect it and the
    /// number of its reads to come; returns the index `add(_:to:name:_:)` takes.
    mutating func add(name: Int, collectors: some Sequence<Int>, reads count: Int) -> Int {
      reportedNames.append((Int32(name), collectors.map { Int32($0) }))
      reads.reserve(count)
      pathNodes.reserve(count * (2 * UncollectedVariableRule.pathEnds + 1))
      return reportedNames.count - 1
    }

    /// Adds the read of `reportedNames[name]` at `site` of node `node`, reached uncollected by
    /// the path `paths` tells; returns the index its diagnostic's marker stands for.
    mutating func add(pathTo node: Int, in paths: inout TreePaths, name: Int, _ site: NameRead.Site) -> Int {
      let first = Int32(pathNodes.count)
      let (head, skipped, tail) = paths.appendPath(to: node, into: &pathNodes)
      reads.append(
        Read(
          node: Int32(node), name: Int32(name), first: first, head: UInt8(head), tail: UInt8(tail), skipped: skipped,
          site: site))
      return reads.count - 1
    }

    func complete(_ diagnostic: inout Diagnostic, _ index: Int) {
      let read = reads[index]
      let (nameNumber, collectors) = reportedNames[Int(read.name)]
      let name = names[Int(nameNumber)]
      let node = nodes[Int(read.node)]
      diagnostic.message =
        "screen '\(flows[node.flow].screens[node.screen].id)' reads '\(name)', which is not collected on every path to it"
      // Written as bytes: a `String` grown a screen name at a time cost half the rule on
      // `lint-chain`, whose notes name 21 screens each.
      var note: [UInt8] = []
      note.reserveCapacity(512)
      let arrow = " → ".utf8
      let first = Int(read.first)
      let head = pathNodes[first..<first + Int(read.head)]
      for (step, number) in head.enumerated() {
        if step > 0 { note += arrow }
        append(screen: number, to: &note)
      }
      if read.skipped > 0 {
        note += " → … ".utf8
        note += UncollectedVariableRule.grouped(read.skipped).utf8
        note += " screens …".utf8
        for number in pathNodes[first + Int(read.head)..<first + Int(read.head) + Int(read.tail)] {
          note += arrow
          append(screen: number, to: &note)
        }
      }
      note += " reads '".utf8
      note += name.utf8
      note += "' (".utf8
      note += NameRead.what(read.site).utf8
      note += "), which is only collected on ".utf8
      for (index, number) in collectors.enumerated() {
        note += (index == 0 ? "'" : ", '").utf8
        append(screen: number, to: &note)
        note += "'".utf8
      }
      diagnostic.notes = [Diagnostic.Note(String(decoding: note, as: UTF8.self))]
    }

    /// `CheckContext.name` of node `number`: the flow's id too in a bundle.
    private func append(screen number: Int32, to note: inout [UInt8]) {
      let node = nodes[Int(number)]
      if flows.count > 1 {
        note += flows[node.flow].id.utf8
        note += "/".utf8
      }
      note += flows[node.flow].screens[node.screen].id.utf8
    }
  }
}

extension Array {
  /// Room for `count` more elements: exactly, when that is more than doubling would give (the
  /// tens of thousands of one rule's diagnostics, not grown a power of two past them).
  mutating func reserve(_ count: Int) {
    guard self.count + count > capacity else { return }
    reserveCapacity(Swift.max(self.count + count, capacity * 2))
  }
}
