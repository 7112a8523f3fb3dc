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
  /// Updates of base keys and new keys, in the order they were first written. A key is found
  /// by its fingerprint first (an integer compared per entry), its name compared only where the
  /// fingerprints agree; an `OrderedDictionary` compared the names of a small overlay one by
  /// one, and hashed a larger one before the base hashed the name again. One array of entries,
  /// not three in step: a copy of the store (each environment an expression reads) retains two
  /// objects, and a write checks and grows one array.
  private var overlay: [Entry] = []

  private struct Entry: Sendable {
    var key: String
    var value: Value
    var print: UInt64
  }
  /// Counts the writes that changed a value (a write of the value a key already holds does
  /// not count): equal counts on one session before and after an input mean its data did not
  /// change, learnt without comparing two stores (the driver asks after every input).
  public private(set) var changes = 0

  init(_ values: OrderedDictionary<String, Value> = [:]) {
    base = Base(values)
  }

  var isEmpty: Bool { overlay.isEmpty && base.values.isEmpty }

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
    if !overlay.isEmpty, let index = overlayIndex(of: key, print) { return overlay[index].value }
    return base.values.isEmpty ? nil : base.values[key]
  }

  /// `self[key] = value` for a key whose fingerprint is `print`.
  mutating func store(_ newValue: Value, forKey key: String, print: UInt64) {
    let changed: Bool
    if let index = overlayIndex(of: key, print) {
      changed = overlay[index].value != newValue
      overlay[index].value = newValue
    } else {
      // Compared in place: a copy of the old value was made and destroyed per write.
      changed = base.values.isEmpty || base.values[key] != newValue
      overlay.append(Entry(key: key, value: newValue, print: print))
    }
    if changed { changes &+= 1 }
    if overlay.count > Self.overlayLimit(base.values.count) { flatten() }
  }

  /// Stores `value` under `key` (fingerprint `print`) when the store holds nothing there (a
  /// field's default), with one lookup.
  mutating func storeIfAbsent(_ value: Value, forKey key: String, print: UInt64) {
    if !overlay.isEmpty, overlayIndex(of: key, print) != nil { return }
    if !base.values.isEmpty, base.values[key] != nil { return }
    overlay.append(Entry(key: key, value: value, print: print))
    changes &+= 1
    if overlay.count > Self.overlayLimit(base.values.count) { flatten() }
  }

  @discardableResult
  mutating func removeValue(forKey key: String) -> Value? {
    guard base.values[key] != nil else {
      guard !overlay.isEmpty, let index = overlayIndex(of: key, Self.fingerprint(key)) else { return nil }
      changes &+= 1
      return overlay.remove(at: index).value
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
    overlay.reserveCapacity(room)
  }

  /// Empties the store as a new one is (no changes counted), keeping the storage when no
  /// other copy shares it: a simulator hands one session's storage to the next user's.
  /// An empty base (a session that started without data: the common case) is left alone.
  mutating func removeAll() {
    if !base.values.isEmpty {
      if isKnownUniquelyReferenced(&base) {
        base.values.removeAll(keepingCapacity: true)
      } else {
        base = Base([:])
      }
    }
    overlay.removeAllFromTheEnd()
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
    guard !overlay.isEmpty else { return base.values }
    var merged = base.values
    for entry in overlay { merged[entry.key] = entry.value }
    return merged
  }

  /// Calls `body` with each key and its value, in order (the overlay alone when the base is
  /// empty, as in a session that started without data: no merged copy is built).
  public func forEach(_ body: (String, Value) -> Void) {
    guard !base.values.isEmpty else {
      for entry in overlay { body(entry.key, entry.value) }
      return
    }
    for (key, value) in dictionary { body(key, value) }
  }

  /// The overlay's place of `key` (whose fingerprint is `print`), nil when it holds none.
  private func overlayIndex(of key: String, _ print: UInt64) -> Int? {
    overlay.withUnsafeBufferPointer { overlay in
      for index in overlay.indices where overlay[index].print == print && overlay[index].key == key { return index }
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
    overlay = []
  }

  /// Folds the overlay into the base: in place when this store is the base's only user.
  private mutating func flatten() {
    guard !overlay.isEmpty else {
      if !isKnownUniquelyReferenced(&base) { base = Base(base.values) }
      return
    }
    if isKnownUniquelyReferenced(&base) {
      for entry in overlay { base.values[entry.key] = entry.value }
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
    for entry in lhs.overlay where rhs[entry.key] != entry.value { return false }
    for entry in rhs.overlay where lhs[entry.key] != entry.value { return false }
    let base = lhs.base.values
    let lhsNew = lhs.overlay.lazy.map(\.key).filter { base[$0] == nil }
    return lhsNew.elementsEqual(rhs.overlay.lazy.map(\.key).filter { base[$0] == nil })
  }
}
