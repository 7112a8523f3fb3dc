import FlowFormat

extension UncollectedVariableRule {
  /// The texts of the reads some path reaches with the name uncollected ("screen 's9' reads
  /// 'answer', which is not collected on every path to it", and a note naming a shortest such
  /// path), kept as numbers until a report shows them: on `lint-chain` the 21,714 written at
  /// once were 15.7 MB and most of the rule's time, and a text report shows a thousand.
  struct PathTexts: DeferredTexts {
    /// Each flow's id and screens (a `Flow` copied per screen named cost a third of a note).
    private let flows: [(id: String, screens: [Screen])]
    private let nodes: DenseNodes
    /// Name numbers' names (`ScreenFacts.names`).
    private let names: [String]
    /// A reported name, the first screens that collect it (node numbers), and the
    /// breadth-first tree its reads' paths are walked in (each node's parent) when that is
    /// smaller than their nodes (`lint-chain`: one name read on 21,714 screens, 1.8 MB of
    /// paths against a tree of 87 KB).
    private var reportedNames: [(name: Int32, collectors: [Int32], tree: [Int32]?)] = []
    private var reads: [Read] = []
    /// The paths' screens (node numbers) of the names without a tree, each read's `head + tail`
    /// from its `first`.
    private var pathNodes: [Int32] = []

    /// 24 bytes. The read's site, not its index in `ScreenFacts.nameReads`: that kept the
    /// facts' whole array (0.5 MB on `lint-chain`) to the end of the check.
    private struct Read {
      var node: Int32
      /// In `reportedNames`.
      var name: Int32
      /// In `pathNodes`; with the name's tree, the node the head ends with (`TreePaths.end`).
      var first: Int32
      var skipped: Int32
      var site: NameRead.Site
      var head: UInt8
      var tail: UInt8
    }

    init(document: FlowDocument, nodes: DenseNodes, names: [String]) {
      flows = document.flows.map { ($0.id, $0.screens) }
      self.nodes = nodes
      self.names = names
    }

    /// Adds a reported name (number `name`) with the first screens that collect it and the
    /// nodes of its reads to come, whose paths `paths` tells; returns the index
    /// `add(pathTo:in:name:_:)` takes.
    mutating func add(
      name: Int, collectors: some Sequence<Int>, reads: [Int], paths: inout TreePaths
    ) -> Int {
      let kept = 2 * UncollectedVariableRule.pathEnds + 1
      let pathsSize = reads.reduce(0) { $0 + Swift.min(paths.end(of: $1).length, kept) }
      let tree = paths.parent.count < pathsSize ? paths.parent.map { Int32(truncatingIfNeeded: $0) } : nil
      reportedNames.append((Int32(name), collectors.map { Int32($0) }, tree))
      self.reads.reserve(reads.count)
      if tree == nil { pathNodes.reserve(pathsSize) }
      return reportedNames.count - 1
    }

    /// Adds the read of `reportedNames[name]` at `site` of node `node`, reached uncollected by
    /// the path `paths` tells; returns the index its diagnostic's marker stands for.
    mutating func add(pathTo node: Int, in paths: inout TreePaths, name: Int, site: NameRead.Site) -> Int {
      let (head, skipped, tail): (Int, Int, Int)
      let first: Int
      if reportedNames[name].tree != nil {
        let (length, headEnd) = paths.end(of: node)
        first = headEnd
        (head, skipped, tail) =
          headEnd == node ? (length, 0, 0) : (paths.ends, length - 2 * paths.ends, paths.ends)
      } else {
        first = pathNodes.count
        (head, skipped, tail) = paths.appendPath(to: node, into: &pathNodes)
      }
      reads.append(
        Read(
          node: Int32(node), name: Int32(name), first: Int32(first), skipped: Int32(skipped), site: site,
          head: UInt8(head), tail: UInt8(tail)))
      return reads.count - 1
    }

    /// The screens of `read`'s path that its note names: the head, then the tail.
    private func pathScreens(_ read: Read) -> (screens: [Int32], head: Int) {
      let (head, tail) = (Int(read.head), Int(read.tail))
      guard let tree = reportedNames[Int(read.name)].tree else {
        let first = Int(read.first)
        return (Array(pathNodes[first..<first + head + tail]), head)
      }
      var screens: [Int32] = []
      screens.reserveCapacity(head + tail)
      let parent = { (node: Int) in Int(tree[node]) }
      TreePaths.append(from: Int(read.first), count: head, parent: parent, into: &screens)
      TreePaths.append(from: Int(read.node), count: tail, parent: parent, into: &screens)
      return (screens, head)
    }

    func complete(_ diagnostic: inout Diagnostic, _ index: Int) {
      let read = reads[index]
      let (nameNumber, collectors, _) = reportedNames[Int(read.name)]
      let name = names[Int(nameNumber)]
      let node = nodes[Int(read.node)]
      diagnostic.message =
        "screen '\(flows[node.flow].screens[node.screen].id)' reads '\(name)', which is not collected on every path to it"
      // Written as bytes: a `String` grown a screen name at a time cost half the rule on
      // `lint-chain`, whose notes name 21 screens each.
      var note: [UInt8] = []
      note.reserveCapacity(512)
      let arrow = " → ".utf8
      let (screens, head) = pathScreens(read)
      for (step, number) in screens[..<head].enumerated() {
        if step > 0 { note += arrow }
        append(screen: number, to: &note)
      }
      if read.skipped > 0 {
        note += " → … ".utf8
        note += UncollectedVariableRule.grouped(Int(read.skipped)).utf8
        note += " screens …".utf8
        for number in screens[head...] {
          note += arrow
          append(screen: number, to: &note)
        }
      }
      note += " reads '".utf8
      note += name.utf8
      note += "' (".utf8
      note += NameRead.what(read.site, on: flows[node.flow].screens[node.screen]).utf8
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
