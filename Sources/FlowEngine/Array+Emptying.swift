extension Array {
  /// Empties the array, keeping its storage when no other copy shares it. From the end, one
  /// element at a time: `removeAll(keepingCapacity:)` goes through `replaceSubrange`, dearer for
  /// the handful of elements a recycled session's arrays hold.
  mutating func removeAllFromTheEnd() {
    while !isEmpty { removeLast() }
  }
}
