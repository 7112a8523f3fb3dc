extension Array {
  /// The elements stably sorted by `keys` (one per element, in the same order) under
  /// `areInIncreasingOrder`; the array itself, not a copy, when it is in order already.
  ///
  /// Sorting the small keys and gathering once copies each element at most once, where
  /// sorting `(element, key)` tuples copied big model values (blocks, screens) several times.
  func inOrder<Key>(of keys: [Key], by areInIncreasingOrder: (Key, Key) -> Bool) -> [Element] {
    precondition(keys.count == count)
    var sorted = true
    for i in keys.indices.dropFirst() where areInIncreasingOrder(keys[i], keys[i - 1]) {
      sorted = false
      break
    }
    if sorted { return self }
    let order = keys.indices.sorted { a, b in
      if areInIncreasingOrder(keys[a], keys[b]) { return true }
      if areInIncreasingOrder(keys[b], keys[a]) { return false }
      return a < b
    }
    return order.map { self[$0] }
  }
}
