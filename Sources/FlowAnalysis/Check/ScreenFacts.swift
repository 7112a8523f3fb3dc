import FlowExpression
import FlowFormat

/// What several lint rules read of every screen, worked out once per check: each screen's
/// name reads and collected fields by dense node number (`DenseScreenGraph`'s: flows in file
/// order, screens in order), with every name numbered.
///
/// Each rule used to build these for itself (`Screen.nameReads` and `Screen.collectedFields`
/// per rule, per screen): on a 20,000-screen flow that was a fifth of `check`. Names are hashed
/// once, here; the rules index arrays by name number instead of looking names up in
/// dictionaries. They need only the document, not the graph, so a big check works them out on
/// one thread while the other builds the graph (`LintSchedule`).
struct ScreenFacts: Sendable {
  /// Every name a screen reads or collects, numbered in the order first met.
  var names: [String] { table.names }
  /// Numbers the names (`names`, `number(of:)`).
  private let table: NameTable
  /// `Screen.nameReads` of node `n`, each with its name's number (flat: an array per screen
  /// was 2.1 MB of `lint-chain`'s 21,714 screens).
  let nameReads: NumberedLists<NameRead>
  /// The numbers of the fields node `n`'s blocks collect (`Screen.collectedFields`), each once,
  /// ascending. (Flat, as `nameReads`: an array per node, nearly all empty, was 0.2 MB of
  /// `lint-chain`'s peak for each of these two.)
  let collectedFields: NumberedLists<Int>
  /// The field number of each block of node `n` that has a field name, in block order.
  let blockFields: NumberedLists<Int>

  init(_ document: FlowDocument) {
    let count = document.flows.reduce(0) { $0 + $1.screens.count }
    var table = NameTable(capacity: count)  // about a name per screen
    func number(_ name: String) -> Int { table.number(name) }
    var nameReads = NumberedLists<NameRead>(count: count, values: count + count / 16 + 16)
    var collectedFields = NumberedLists<Int>(count: count, values: 0)
    var blockFields = NumberedLists<Int>(count: count, values: 0)
    for flow in document.flows {
      for screen in flow.screens {
        nameReads.appendList { reads in screen.appendNameReads(to: &reads, numbering: number) }
        blockFields.appendList { fields in
          for block in screen.content.flatBlocks {
            guard let field = block.fieldName else { continue }
            fields.append(number(field))
          }
        }
        var fields = Array(blockFields[blockFields.count - 1])
        fields.sort()
        fields.removeAdjacentDuplicates()
        collectedFields.append(fields)
      }
    }
    self.table = table
    nameReads.trim()
    collectedFields.trim()
    blockFields.trim()
    self.nameReads = nameReads
    self.collectedFields = collectedFields
    self.blockFields = blockFields
  }

  /// The number of `name`, if a screen reads or collects it.
  func number(of name: String) -> Int? { table.find(name).number }

  /// The numbers of the fields each flow collects, sub-flows included (ascending), or nil when
  /// they would hold more than `Limits.subflowFields` in all: `FlowDocument.fieldsThroughSubflows`
  /// on numbers instead of sets of names.
  func fieldsThroughSubflows(_ document: FlowDocument, _ dense: DenseScreenGraph) -> [[Int]]? {
    let (order, children) = document.subflowPostOrder()
    var results = [[Int]?](repeating: nil, count: document.flows.count)
    var total = 0
    for flow in order {
      var result = dense.nodes(inFlow: flow).flatMap { collectedFields[$0] }
      result.sort()
      result = Self.union(result, [])
      for child in children[flow] {
        if let done = results[child] { result = Self.union(result, done) }
      }
      total += result.count
      if total > Limits.subflowFields { return nil }
      results[flow] = result
    }
    return results.map { $0! }
  }

  /// The union of two ascending lists of numbers, ascending, each number once.
  static func union(_ a: [Int], _ b: [Int]) -> [Int] {
    var result: [Int] = []
    result.reserveCapacity(a.count + b.count)
    var i = 0
    var j = 0
    func add(_ number: Int) {
      if result.last != number { result.append(number) }
    }
    while i < a.count || j < b.count {
      if j == b.count || (i < a.count && a[i] <= b[j]) {
        add(a[i])
        i += 1
      } else {
        add(b[j])
        j += 1
      }
    }
    return result
  }
}

extension Array where Element: Equatable {
  /// Keeps the first of each run of equal elements (on a sorted array: each element once).
  mutating func removeAdjacentDuplicates() {
    guard count > 1 else { return }
    var kept = 1
    for index in 1..<count where self[index] != self[kept - 1] {
      self[kept] = self[index]
      kept += 1
    }
    removeLast(count - kept)
  }
}

/// Names numbered in the order first met: open addressing over an FNV-1a hash of each name's
/// UTF-8 bytes. `Dictionary<String, Int>` hashed every name with SipHash: 36 M instructions
/// for the 79,000 names of the rule-heavy bench flow's screens.
struct NameTable: Sendable {
  private(set) var names: [String] = []
  /// A name's number + 1 in each slot (0: empty); the count is a power of two.
  private var slots: [Int32]
  private var hashes: [UInt64] = []

  init(capacity: Int) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = [Int32](repeating: 0, count: size)
  }

  /// The number of `name`, numbering it if it is new.
  mutating func number(_ name: String) -> Int {
    let (known, hash, slot) = find(name)
    if let known { return known }
    slots[slot] = Int32(names.count + 1)
    names.append(name)
    hashes.append(hash)
    if names.count * 2 > slots.count { grow() }
    return names.count - 1
  }

  /// `name`'s number if it has one, its hash, and its slot (or the empty slot it would take).
  func find(_ name: String) -> (number: Int?, hash: UInt64, slot: Int) {
    let hash = Self.hash(name)
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
    while slots[slot] != 0 {
      let number = Int(slots[slot]) - 1
      if hashes[number] == hash && names[number] == name { return (number, hash, slot) }
      slot = (slot + 1) & mask
    }
    return (nil, hash, slot)
  }

  /// FNV-1a of the name's UTF-8 bytes, read in place (iterating `utf8` cost as much as SipHash).
  private static func hash(_ name: String) -> UInt64 {
    func fnv(_ bytes: some Sequence<UInt8>) -> UInt64 {
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      return hash
    }
    return name.utf8.withContiguousStorageIfAvailable { fnv($0) } ?? fnv(name.utf8)
  }

  /// Twice the slots, every name placed again by its kept hash.
  private mutating func grow() {
    slots = [Int32](repeating: 0, count: slots.count * 2)
    let mask = slots.count - 1
    for (number, hash) in hashes.enumerated() {
      var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = Int32(number + 1)
    }
  }
}
