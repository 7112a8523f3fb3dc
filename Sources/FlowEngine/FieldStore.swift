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
  /// Updates of base keys and new keys, in the order they were first written: three arrays
  /// in step. A key is found by its fingerprint first (an integer compared per entry), its
  /// name compared only where the fingerprints agree; an `OrderedDictionary` compared the names
  /// of a small overlay one by one, and hashed a larger one before the base hashed the name
  /// again.
  private var keys: [String] = []
  private var values: [Value] = []
  private var prints: [UInt64] = []
  /// Counts the writes that changed a value (a write of the value a key already holds does
  /// not count): equal counts on one session before and after an input mean its data did not
  /// change, learnt without comparing two stores (the driver asks after every input).
  public private(set) var changes = 0

  init(_ values: OrderedDictionary<String, Value> = [:]) {
    base = Base(values)
  }

  var isEmpty: Bool { keys.isEmpty && base.values.isEmpty }

  subscript(key: String) -> Value? {
    get { self[key, print: Self.fingerprint(key)] }
    set {
      guard let newValue else {
        removeValue(forKey: key)
        return
      }
      store(newValue, forKey: key, print: Self.fingerprint(key))
    }
  }

  /// `self[key]` for a caller that knows the key's fingerprint (`fingerprint(_:)`): the
  /// document's tables hold each field's, so the engine hashes no name to read or write it.
  subscript(key: String, print print: UInt64) -> Value? {
    if !keys.isEmpty, let index = overlayIndex(of: key, print) { return values[index] }
    return base.values.isEmpty ? nil : base.values[key]
  }

  /// `self[key] = value` for a key whose fingerprint is `print`.
  mutating func store(_ newValue: Value, forKey key: String, print: UInt64) {
    let changed: Bool
    if let index = overlayIndex(of: key, print) {
      changed = values[index] != newValue
      values[index] = newValue
    } else {
      // Compared in place: a copy of the old value was made and destroyed per write.
      changed = base.values.isEmpty || base.values[key] != newValue
      keys.append(key)
      values.append(newValue)
      prints.append(print)
    }
    if changed { changes &+= 1 }
    if keys.count > Self.overlayLimit(base.values.count) { flatten() }
  }

  /// Stores `value` under `key` (fingerprint `print`) when the store holds nothing there (a
  /// field's default), with one lookup.
  mutating func storeIfAbsent(_ value: Value, forKey key: String, print: UInt64) {
    if !keys.isEmpty, overlayIndex(of: key, print) != nil { return }
    if !base.values.isEmpty, base.values[key] != nil { return }
    keys.append(key)
    values.append(value)
    prints.append(print)
    changes &+= 1
    if keys.count > Self.overlayLimit(base.values.count) { flatten() }
  }

  @discardableResult
  mutating func removeValue(forKey key: String) -> Value? {
    guard base.values[key] != nil else {
      guard !keys.isEmpty, let index = overlayIndex(of: key, Self.fingerprint(key)) else { return nil }
      keys.remove(at: index)
      prints.remove(at: index)
      changes &+= 1
      return values.remove(at: index)
    }
    changes &+= 1
    flatten()
    return base.values.removeValue(forKey: key)
  }

  /// Makes room for `count` writes (at most the overlay's limit) before the overlay grows: a
  /// caller that knows how many fields a session will write (the simulator) allocates it once
  /// instead of at 1, 2, 4 and 8 entries.
  mutating func reserveCapacity(_ count: Int) {
    let room = min(count, Self.overlayLimit(base.values.count))
    keys.reserveCapacity(room)
    values.reserveCapacity(room)
    prints.reserveCapacity(room)
  }

  /// Empties the store as a new one is (no changes counted), keeping the storage when no
  /// other copy shares it: a simulator hands one session's storage to the next user's.
  mutating func removeAll() {
    if isKnownUniquelyReferenced(&base) {
      base.values.removeAll(keepingCapacity: true)
    } else {
      base = Base([:])
    }
    keys.removeAll(keepingCapacity: true)
    values.removeAll(keepingCapacity: true)
    prints.removeAll(keepingCapacity: true)
    changes = 0
  }

  /// Replaces everything with `values` (counted as a change).
  mutating func replace(with values: OrderedDictionary<String, Value>) {
    base = Base(values)
    clearOverlay()
    changes &+= 1
  }

  /// Everything, in order (shares the base's storage when nothing was written since).
  var dictionary: OrderedDictionary<String, Value> {
    guard !keys.isEmpty else { return base.values }
    var merged = base.values
    for index in keys.indices { merged[keys[index]] = values[index] }
    return merged
  }

  /// Calls `body` with each key and its value, in order (the overlay alone when the base is
  /// empty, as in a session that started without data: no merged copy is built).
  public func forEach(_ body: (String, Value) -> Void) {
    guard !base.values.isEmpty else {
      for index in keys.indices { body(keys[index], values[index]) }
      return
    }
    for (key, value) in dictionary { body(key, value) }
  }

  /// The overlay's place of `key` (whose fingerprint is `print`), nil when it holds none.
  private func overlayIndex(of key: String, _ print: UInt64) -> Int? {
    prints.withUnsafeBufferPointer { prints in
      for index in prints.indices where prints[index] == print && keys[index] == key { return index }
      return nil
    }
  }

  /// FNV-1a over the key's UTF-8 bytes: equal names have equal prints, and names that differ
  /// nearly always differ here too.
  static func fingerprint(_ key: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    // Read in place: `withUTF8` on a copy of the key retained and released its storage.
    if let done = key.utf8.withContiguousStorageIfAvailable({ bytes -> UInt64 in
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
      return hash
    }) {
      return done
    }
    for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
    return hash
  }

  private mutating func clearOverlay() {
    keys = []
    values = []
    prints = []
  }

  /// Folds the overlay into the base: in place when this store is the base's only user.
  private mutating func flatten() {
    guard !keys.isEmpty else {
      if !isKnownUniquelyReferenced(&base) { base = Base(base.values) }
      return
    }
    if isKnownUniquelyReferenced(&base) {
      for index in keys.indices { base.values[keys[index]] = values[index] }
    } else {
      base = Base(dictionary)
    }
    clearOverlay()
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
    for index in lhs.keys.indices where rhs[lhs.keys[index]] != lhs.values[index] { return false }
    for index in rhs.keys.indices where lhs[rhs.keys[index]] != rhs.values[index] { return false }
    let base = lhs.base.values
    return lhs.keys.filter { base[$0] == nil } == rhs.keys.filter { base[$0] == nil }
  }
}
