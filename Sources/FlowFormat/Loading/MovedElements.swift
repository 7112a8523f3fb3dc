/// Elements kept in memory of their own, in order, and moved (not copied) into one array at the
/// end. A split flow's halves each decode their screens into one, and `decodeFlow` moves both
/// into the flow's array: copying them retained every reference a screen holds (about eleven)
/// and freeing the halves released them again, each a write to memory the other core had written
/// (docs/performance.md, "Thirteenth round"). Used by one thread at a time; a class, so a
/// copy of a value that holds one shares its elements: such values are handed over, not kept.
final class MovedElements<Element>: @unchecked Sendable {
  private struct Part {
    var base: UnsafeMutablePointer<Element>
    var count: Int
    var capacity: Int
  }

  /// Filled one after the other; a full part is followed by one as big as all before it, so
  /// nothing is moved while elements are added.
  private var parts: [Part] = []
  private(set) var count = 0

  init() {}

  deinit {
    for part in parts {
      part.base.deinitialize(count: part.count)
      part.base.deallocate()
    }
  }

  func append(_ element: consuming Element) {
    if parts.isEmpty || parts[parts.count - 1].count == parts[parts.count - 1].capacity {
      let capacity = Swift.max(16, count)
      parts.append(Part(base: .allocate(capacity: capacity), count: 0, capacity: capacity))
    }
    let last = parts.count - 1
    (parts[last].base + parts[last].count).initialize(to: element)
    parts[last].count += 1
    count += 1
  }

  /// Takes `other`'s elements after these, leaving it empty.
  func append(moving other: MovedElements) {
    parts += other.parts
    count += other.count
    other.parts = []
    other.count = 0
  }

  /// The elements as one array, moved out: this is left empty.
  func removeAll() -> [Element] {
    defer {
      for part in parts { part.base.deallocate() }
      parts = []
      count = 0
    }
    return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
      var next = buffer.baseAddress
      for part in parts {
        next?.moveInitialize(from: part.base, count: part.count)
        next = next.map { $0 + part.count }
      }
      initialized = count
    }
  }
}
