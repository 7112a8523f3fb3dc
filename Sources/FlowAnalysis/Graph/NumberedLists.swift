/// A list of values per number `0..<count`, stored flat: two arrays, not an array per number
/// (per screen, an array each of one edge or one read cost `lint-chain`'s 21,714 screens
/// 2.1 MB, a third of it the arrays' headers and the allocator's overhead).
struct NumberedLists<Element: Sendable>: Sendable {
  /// Number `n`'s values are `values[starts[n]..<starts[n + 1]]`.
  private var starts: [Int32] = [0]
  /// Every number's values, in number order.
  private(set) var values: [Element] = []

  /// Lists to be appended number by number (`append(_:)`), room reserved for `count` numbers
  /// and `values` values.
  init(count: Int, values: Int) {
    starts.reserveCapacity(count + 1)
    self.values.reserveCapacity(values)
  }

  /// How many numbers have their list.
  var count: Int { starts.count - 1 }

  /// Appends the list of the next number.
  mutating func append(_ list: some Collection<Element>) {
    // Grown by a quarter, not doubled: `lint-chain`'s one edge past a reservation of one a
    // screen doubled 2.3 MB of edges, and the two buffers were the check's peak.
    if values.count + list.count > values.capacity {
      values.reserveCapacity(values.count + list.count + values.count / 4)
    }
    values += list
    starts.append(Int32(values.count))
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
