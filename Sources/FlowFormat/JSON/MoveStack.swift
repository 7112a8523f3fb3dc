/// A growable stack whose top elements can be moved out into a new array without copying.
///
/// The parser keeps the elements and members of the containers still open on one stack; when a
/// container closes, its part is moved into the container's array. With `Array` that was a copy
/// of the slice (a retain per string and container) followed by `removeSubrange` (a release per
/// element): both showed in the profiles of big files.
final class MoveStack<Element> {
  private var base: UnsafeMutablePointer<Element>
  private var capacity: Int
  private(set) var count = 0

  init(capacity: Int = 64) {
    self.capacity = max(1, capacity)
    base = .allocate(capacity: self.capacity)
  }

  deinit {
    base.deinitialize(count: count)
    base.deallocate()
  }

  @inline(__always) func append(_ element: consuming Element) {
    if count == capacity { grow() }
    (base + count).initialize(to: element)
    count += 1
  }

  /// The element at `index`, read in place (so `stack[i].key` copies only the key).
  @inline(__always) subscript(index: Int) -> Element {
    unsafeAddress {
      precondition(index >= 0 && index < count)
      return UnsafePointer(base + index)
    }
  }

  /// Removes the elements from `start` to the top and returns them, in order, as an array.
  func popArray(from start: Int) -> [Element] {
    precondition(start >= 0 && start <= count)
    let n = count - start
    guard n > 0 else { return [] }
    // `reserveCapacity` + `append` rather than `init(unsafeUninitializedCapacity:)`: the latter
    // allocates through an unspecialised standard library function that looks up the array's
    // type metadata on every call (~400 instructions per array in callgrind).
    var array: [Element] = []
    array.reserveCapacity(n)
    for i in start..<count { array.append((base + i).move()) }
    count = start
    return array
  }

  private func grow() {
    let newCapacity = capacity * 2
    let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
    newBase.moveInitialize(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }
}
