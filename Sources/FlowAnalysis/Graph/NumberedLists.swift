/// A list of values per number `0..<count`, stored flat: two arrays, not an array per number
/// (per screen, an array each of one edge or one read cost `lint-chain`'s 21,714 screens
/// 2.1 MB, a third of it the arrays' headers and the allocator's overhead).
struct NumberedLists<Element: Sendable>: Sendable {
  /// Number `n`'s values are `values[starts[n]..<starts[n + 1]]`.
  private var starts: [Int32] = [0]
  /// Every number's values, in number order.
  private(set) var values: [Element] = []

  /// Lists to be appended number by number, room reserved for `count` numbers and `values`
  /// values.
  init(count: Int, values: Int) {
    starts.reserveCapacity(count + 1)
    self.values.reserveCapacity(values)
  }

  /// How many numbers have their list.
  var count: Int { starts.count - 1 }

  /// Appends the list of the next number.
  mutating func append(_ list: some Collection<Element>) {
    makeRoom(for: list.count)
    values += list
    closeList()
  }

  /// Appends the list of the next number in place: `fill` appends its values to `values`
  /// (and may change those it appended), with no array of its own to copy them from.
  mutating func appendList(_ fill: (inout [Element]) -> Void) {
    fill(&values)
    closeList()
  }

  /// The list being built, the next number's (`appendToOpenList`, `closeList`).
  var openList: ArraySlice<Element> { values[Int(starts[starts.count - 1])...] }

  mutating func appendToOpenList(_ element: Element) {
    makeRoom(for: 1)
    values.append(element)
  }

  /// Ends the list being built: it is the next number's.
  mutating func closeList() { starts.append(Int32(values.count)) }

  /// Grown by a quarter, not doubled: `lint-chain`'s one edge past a reservation of one a
  /// screen doubled 2.3 MB of edges, and the two buffers were the check's peak.
  private mutating func makeRoom(for count: Int) {
    if values.count + count > values.capacity {
      values.reserveCapacity(values.count + count + values.count / 4)
    }
  }

  /// Drops the room growing left past an eighth of the values, once every list is appended.
  mutating func trim() {
    guard values.capacity > values.count + values.count / 8 else { return }
    values = [Element](unsafeUninitializedCapacity: values.count) { buffer, count in
      count = buffer.initialize(fromContentsOf: values)
    }
  }

  /// Number `number`'s values (indexed as `values` is).
  subscript(number: Int) -> ArraySlice<Element> {
    values[Int(starts[number])..<Int(starts[number + 1])]
  }
}

extension NumberedLists where Element: Comparable {
  /// Sorts number `number`'s values.
  mutating func sort(_ number: Int) {
    values[Int(starts[number])..<Int(starts[number + 1])].sort()
  }
}
