/// A flow's screens by id: the position of the first screen of each id.
///
/// Open addressing over 4-byte slots, each a position + 1 (0: empty), the ids read from the
/// screens themselves. A `[String: Int]` kept a copy of each id and an `Int` in 24-byte buckets
/// (0.79 MB for `lint-chain`'s 21,714 screens; 0.13 MB here, at the same load of at most 3/4).
@usableFromInline struct ScreenIndex: Hashable, Sendable {
  @usableFromInline let slots: [UInt32]
  /// The screens indexed (the flow's own array, shared): a lookup reads this one field of
  /// the flow. Reading the flow's `screens` too made the engine copy the whole flow it reads
  /// in place to ask (`Session.resolve`, once a session).
  @usableFromInline let screens: [Screen]

  init(_ screens: [Screen]) {
    self.screens = screens
    guard !screens.isEmpty else {
      slots = []
      return
    }
    var capacity = 2
    while capacity * 3 < screens.count * 4 { capacity <<= 1 }
    let mask = capacity - 1
    var slots = [UInt32](repeating: 0, count: capacity)
    for position in screens.indices {
      let id = screens[position].id
      var i = id.hashValue & mask
      // The first screen of an id wins: a later one with the same id is not stored.
      while slots[i] != 0, screens[Int(slots[i] - 1)].id != id { i = (i + 1) & mask }
      if slots[i] == 0 { slots[i] = UInt32(position + 1) }
    }
    self.slots = slots
  }

  /// The position of the first screen with this id, or nil.
  @inlinable @inline(__always) func position(of id: String) -> Int? {
    guard !slots.isEmpty else { return nil }
    let mask = slots.count - 1
    var i = id.hashValue & mask
    while true {
      let slot = slots[i]
      if slot == 0 { return nil }
      let position = Int(slot - 1)
      if screens[position].id == id { return position }
      i = (i + 1) & mask
    }
  }

  /// Compared and hashed as its slots: the screens are the flow's, compared with it.
  @usableFromInline static func == (a: ScreenIndex, b: ScreenIndex) -> Bool { a.slots == b.slots }

  @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(slots) }
}
