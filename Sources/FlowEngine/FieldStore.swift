import FlowExpression
import OrderedCollections

/// Collected data stored so that copying it is cheap: a frozen base shared between copies plus
/// a small overlay of the writes since. `paths` forks a session at every choice and each fork
/// then writes a field; with one `OrderedDictionary` every fork copied everything collected so
/// far, so exploring a long flow cost its length squared in time and memory. Here a fork copies
/// the overlay, at most about the square root of the base's size, and the base is rebuilt when
/// the overlay outgrows that (in place when no other copy shares it).
///
/// Order is `OrderedDictionary`'s: keys in first-insertion order, an update keeps its place, a
/// removed key that comes back goes last.
public struct FieldStore: Sendable {
  private final class Base: @unchecked Sendable {
    // Mutated only while uniquely referenced (`isKnownUniquelyReferenced`), so no access can
    // overlap another: unchecked, each read spares the runtime's dynamic exclusivity check
    // (two per field write, one per read the overlay misses).
    @exclusivity(unchecked) var values: OrderedDictionary<String, Value>
    init(_ values: OrderedDictionary<String, Value>) { self.values = values }
  }

  private var base: Base
  /// Updates of base keys and new keys, in the order they were first written.
  private var overlay: OrderedDictionary<String, Value> = [:]
  /// Counts the writes that changed a value (a write of the value a key already holds does
  /// not count): equal counts on one session before and after an input mean its data did not
  /// change, learnt without comparing two stores (the driver asks after every input).
  public private(set) var changes = 0

  init(_ values: OrderedDictionary<String, Value> = [:]) {
    base = Base(values)
  }

  var isEmpty: Bool { overlay.isEmpty && base.values.isEmpty }

  subscript(key: String) -> Value? {
    get { overlay[key] ?? base.values[key] }
    set {
      guard let newValue else {
        removeValue(forKey: key)
        return
      }
      // One lookup of the overlay both reads the old value and stores the new one.
      let old = overlay.updateValue(newValue, forKey: key) ?? base.values[key]
      if old != newValue { changes &+= 1 }
      if overlay.count > Self.overlayLimit(base.values.count) { flatten() }
    }
  }

  @discardableResult
  mutating func removeValue(forKey key: String) -> Value? {
    guard base.values[key] != nil else {
      let removed = overlay.removeValue(forKey: key)
      if removed != nil { changes &+= 1 }
      return removed
    }
    changes &+= 1
    flatten()
    return base.values.removeValue(forKey: key)
  }

  /// Makes room for `count` writes (at most the overlay's limit) before the overlay grows: a
  /// caller that knows how many fields a session will write (the simulator) allocates it once
  /// instead of at 1, 2, 4 and 8 entries.
  mutating func reserveCapacity(_ count: Int) {
    overlay.reserveCapacity(min(count, Self.overlayLimit(base.values.count)))
  }

  /// Replaces everything with `values` (counted as a change).
  mutating func replace(with values: OrderedDictionary<String, Value>) {
    base = Base(values)
    overlay = [:]
    changes &+= 1
  }

  /// Everything, in order (shares the base's storage when nothing was written since).
  var dictionary: OrderedDictionary<String, Value> {
    guard !overlay.isEmpty else { return base.values }
    var merged = base.values
    for (key, value) in overlay { merged[key] = value }
    return merged
  }

  /// Calls `body` with each key and its value, in order (the overlay alone when the base is
  /// empty, as in a session that started without data: no merged copy is built).
  public func forEach(_ body: (String, Value) -> Void) {
    guard !base.values.isEmpty else {
      for (key, value) in overlay { body(key, value) }
      return
    }
    for (key, value) in dictionary { body(key, value) }
  }

  /// Folds the overlay into the base: in place when this store is the base's only user.
  private mutating func flatten() {
    guard !overlay.isEmpty else {
      if !isKnownUniquelyReferenced(&base) { base = Base(base.values) }
      return
    }
    if isKnownUniquelyReferenced(&base) {
      for (key, value) in overlay { base.values[key] = value }
    } else {
      base = Base(dictionary)
    }
    overlay = [:]
  }

  /// The overlay's largest size before folding: a fork copies at most this many entries, and
  /// folding (a copy of the base when shared) happens once per that many writes.
  private static func overlayLimit(_ baseCount: Int) -> Int {
    max(16, Int(Double(baseCount).squareRoot()))
  }
}

extension FieldStore: Equatable {
  public static func == (lhs: FieldStore, rhs: FieldStore) -> Bool {
    guard lhs.base === rhs.base else { return lhs.dictionary == rhs.dictionary }
    // One base (a store and its recent copy): only the overlays' keys can differ, and the keys
    // new to the base must come in the same order.
    for (key, value) in lhs.overlay where rhs[key] != value { return false }
    for (key, value) in rhs.overlay where lhs[key] != value { return false }
    let base = lhs.base.values
    return lhs.overlay.keys.filter { base[$0] == nil } == rhs.overlay.keys.filter { base[$0] == nil }
  }
}
