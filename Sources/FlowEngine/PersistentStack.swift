/// One immutable node of a `PersistentStack`: copies of a stack share their tails, so copying a
/// session costs one retain however deep its back stack is.
final class Link<Element: Sendable>: @unchecked Sendable {
  let value: Element
  /// Only cleared by `deinit` while the node is uniquely referenced; never mutated otherwise.
  private(set) var next: Link<Element>?
  /// Elements from this node down to the bottom, this one included.
  let count: Int

  init(_ value: Element, next: Link<Element>?) {
    self.value = value
    self.next = next
    self.count = (next?.count ?? 0) + 1
  }

  deinit {
    // Unlink uniquely owned successors one by one: releasing a 10,000-deep chain recursively
    // would overflow a thread's stack.
    var current = next
    next = nil
    while var node = current {
      current = nil
      guard isKnownUniquelyReferenced(&node) else { break }
      current = node.next
      node.next = nil
    }
  }
}

/// A last-in first-out stack with O(1) push, pop and copy (a persistent singly linked list).
struct PersistentStack<Element: Hashable & Sendable>: Sendable {
  private(set) var top: Link<Element>?

  init() {}

  var isEmpty: Bool { top == nil }
  var count: Int { top?.count ?? 0 }
  /// The most recently pushed element.
  var last: Element? { top?.value }

  mutating func append(_ element: Element) {
    top = Link(element, next: top)
  }

  @discardableResult
  mutating func removeLast() -> Element {
    let node = top!
    top = node.next
    return node.value
  }

  /// The elements, oldest first.
  var elements: [Element] {
    var result: [Element] = []
    result.reserveCapacity(count)
    var node = top
    while let current = node {
      result.append(current.value)
      node = current.next
    }
    result.reverse()
    return result
  }

  func map<T>(_ transform: (Element) throws -> T) rethrows -> [T] {
    try elements.map(transform)
  }
}

extension PersistentStack: Hashable {
  static func == (lhs: Self, rhs: Self) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var a = lhs.top
    var b = rhs.top
    while let x = a, let y = b {
      if x === y { return true }  // shared tail
      guard x.value == y.value else { return false }
      a = x.next
      b = y.next
    }
    return true
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    var node = top
    while let current = node {
      hasher.combine(current.value)
      node = current.next
    }
  }
}

/// The set of screens ever shown: one bit per screen of the document (`SessionContext.screenBase`).
struct ScreenSet: Hashable, Sendable {
  private var words: [UInt64]

  init(capacity: Int) {
    words = [UInt64](repeating: 0, count: (capacity + 63) / 64)
  }

  /// Empties the set and sizes it for `capacity` screens, keeping its storage.
  mutating func removeAll(capacity: Int) {
    words.removeAll(keepingCapacity: true)
    words.append(contentsOf: repeatElement(0, count: (capacity + 63) / 64))
  }

  /// Adds `index`; true when it was not there yet.
  mutating func insert(_ index: Int) -> Bool {
    let (word, bit) = (index >> 6, UInt64(1) << UInt64(index & 63))
    if words[word] & bit != 0 { return false }
    words[word] |= bit
    return true
  }
}
