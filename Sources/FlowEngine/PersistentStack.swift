/// One immutable node of a `PersistentStack`: copies of a stack share their tails, so copying a
/// session costs one retain however deep its back stack is.
final class Link<Element: Sendable>: @unchecked Sendable {
  /// The three are only changed while the node is uniquely referenced (`deinit`, and
  /// `RecyclingStack.append` reusing a kept node); never otherwise.
  private(set) var value: Element
  private(set) var next: Link<Element>?
  /// Elements from this node down to the bottom, this one included.
  private(set) var count: Int

  init(_ value: Element, next: Link<Element>?) {
    self.value = value
    self.next = next
    self.count = (next?.count ?? 0) + 1
  }

  /// Makes this node (uniquely referenced) hold `value` over `next`; returns the node it was
  /// linked to.
  func reuse(_ value: Element, over next: Link<Element>?) -> Link<Element>? {
    self.value = value
    let old = self.next
    self.next = next
    count = (next?.count ?? 0) + 1
    return old
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

  /// Pushes `element` in `node`, a node no copy shares (`Link.reuse`); returns the node `node`
  /// was linked to.
  mutating func append(_ element: Element, in node: Link<Element>) -> Link<Element>? {
    let old = node.reuse(element, over: top)
    top = node
    return old
  }

  /// Empties the stack; returns its top node (nil when it was empty).
  mutating func removeAllNodes() -> Link<Element>? {
    var taken: Link<Element>?
    swap(&taken, &top)
    return taken
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

/// A `PersistentStack` that keeps the nodes of its emptied stack for its next appends, which
/// reuse them while no copy shares them: a session's back stack, which a simulator empties
/// when it hands a finished session's storage to the next user's, who shows as many screens
/// again (a `Link` was allocated per screen shown and freed per user). The kept nodes are not
/// part of the value: equality and hashing are the stack's.
struct RecyclingStack<Element: Hashable & Sendable>: Sendable, Hashable {
  private(set) var stack = PersistentStack<Element>()
  private var kept: Link<Element>?

  var count: Int { stack.count }
  var last: Element? { stack.last }

  mutating func append(_ element: Element) {
    var node: Link<Element>?
    swap(&node, &kept)
    guard node != nil, isKnownUniquelyReferenced(&node!) else {
      stack.append(element)
      return
    }
    kept = stack.append(element, in: node!)
  }

  @discardableResult
  mutating func removeLast() -> Element { stack.removeLast() }

  /// Empties the stack, keeping its nodes for the next appends.
  mutating func removeAllKeepingNodes() {
    guard let top = stack.removeAllNodes(), kept == nil else { return }
    kept = top
  }

  func map<T>(_ transform: (Element) throws -> T) rethrows -> [T] { try stack.map(transform) }

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.stack == rhs.stack }
  func hash(into hasher: inout Hasher) { stack.hash(into: &hasher) }
}

/// The set of screens ever shown: one bit per screen of the document (`SessionContext.screenBase`).
struct ScreenSet: Hashable, Sendable {
  private var words: [UInt64]

  init(capacity: Int) {
    words = [UInt64](repeating: 0, count: (capacity + 63) / 64)
  }

  /// Empties the set and sizes it for `capacity` screens, keeping its storage.
  mutating func removeAll(capacity: Int) {
    let count = (capacity + 63) / 64
    guard words.count == count else {
      words = [UInt64](repeating: 0, count: count)
      return
    }
    // Zeroed in place (the storage is this set's alone when the session is recycled).
    for index in words.indices { words[index] = 0 }
  }

  /// Adds `index`; true when it was not there yet.
  mutating func insert(_ index: Int) -> Bool {
    let (word, bit) = (index >> 6, UInt64(1) << UInt64(index & 63))
    if words[word] & bit != 0 { return false }
    words[word] |= bit
    return true
  }
}
