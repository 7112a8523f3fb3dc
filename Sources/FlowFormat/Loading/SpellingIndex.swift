/// "Did you mean" over many candidates: the same answer as ``closestMatch(to:in:maxDistance:)``
/// (the closest candidate within `maxDistance` edits, case-insensitive, ties to the first), but
/// each question costs about the same whatever the number of candidates. A flow with thousands
/// of misspelt screen ids asked the whole id list once per reference (quadratic).
///
/// How: two strings within `d` edits become equal after deleting at most `d` characters from
/// each (delete what the edits substitute or insert on either side), and so do their first
/// `prefixLength` characters. The index holds a hash of every such deletion of each candidate's
/// prefix; a question looks up its own prefix's deletions and checks only the candidates found
/// with the exact (banded) distance. Only prefixes are indexed so that memory stays linear in
/// the candidates: a 32-character prefix has 529 deletions of up to two characters.
public struct SpellingIndex: Sendable {
  public let candidates: [String]
  public let maxDistance: Int
  /// A deletion's hash with its low bits replaced by a candidate's number (`candidateBits` of
  /// them), sorted, each once: 8 bytes an entry, where a (hash, candidate) pair took 16. Hashes
  /// that differ only in those bits find each other's candidates too, which the exact distance
  /// then rules out, so the answers are the same.
  private let entries: [UInt64]
  private let candidateBits: Int
  /// Every candidate lowercased, one after another, and where each starts (one more: the end):
  /// a question measures hundreds to thousands of them.
  private let lowered: [Unicode.Scalar]
  private let loweredStarts: [Int]

  /// Characters of each string's start that are indexed.
  static let prefixLength = 32

  public init(_ candidates: [String], maxDistance: Int = 2) {
    self.candidates = candidates
    self.maxDistance = maxDistance
    let bits = max(1, UInt64.bitWidth - UInt64(candidates.count).leadingZeroBitCount)
    candidateBits = bits
    var lowered: [Unicode.Scalar] = []
    var loweredStarts = [0]
    loweredStarts.reserveCapacity(candidates.count + 1)
    for candidate in candidates {
      lowered += candidate.lowercased().unicodeScalars
      loweredStarts.append(lowered.count)
    }
    // Reserved at the count `forEachDeletion` calls back: grown by doubling, the array and its
    // copy made the peak memory of loading a flow of 40,000 misspelt references (206 MB).
    var entries: [UInt64] = []
    entries.reserveCapacity(
      candidates.indices.reduce(0) {
        $0 + Self.deletionCount(min(loweredStarts[$1 + 1] - loweredStarts[$1], Self.prefixLength), maxDistance)
      })
    for index in candidates.indices {
      let start = loweredStarts[index]
      let prefix = Array(lowered[start..<min(loweredStarts[index + 1], start + Self.prefixLength)])
      Self.forEachDeletion(of: prefix, upTo: maxDistance) { entries.append(Self.key($0, bits) | UInt64(index)) }
    }
    Self.sort(&entries)
    var kept = min(entries.count, 1)
    for index in entries.indices.dropFirst() where entries[index] != entries[kept - 1] {
      entries[kept] = entries[index]
      kept += 1
    }
    entries.removeLast(entries.count - kept)
    self.entries = entries
    self.lowered = lowered
    self.loweredStarts = loweredStarts
  }

  /// `hash` with its low `bits` bits cleared.
  private static func key(_ hash: UInt64, _ bits: Int) -> UInt64 { (hash >> bits) << bits }

  /// How many times `forEachDeletion` calls back for `length` scalars: the ways of deleting up
  /// to `limit` of them.
  static func deletionCount(_ length: Int, _ limit: Int) -> Int {
    var total = 0
    var ways = 1  // length choose deleted
    for deleted in 0...max(0, min(limit, length)) {
      total += ways
      ways = ways * (length - deleted) / (deleted + 1)
    }
    return total
  }

  /// The candidate closest to `word` within `maxDistance` edits, if any (ties: first candidate).
  public func closest(to word: String) -> String? {
    let scalars = Array(word.lowercased().unicodeScalars)
    var found: [UInt32] = []
    let mask = UInt64(1) << candidateBits - 1
    Self.forEachDeletion(of: Array(scalars.prefix(Self.prefixLength)), upTo: maxDistance) { hash in
      let key = Self.key(hash, candidateBits)
      var i = lowerBound(key)
      while i < entries.count, entries[i] & ~mask == key {
        found.append(UInt32(entries[i] & mask))
        i += 1
      }
    }
    found.sort()
    var best: (candidate: UInt32, distance: Int)?
    var rows: [Int] = []
    scalars.withUnsafeBufferPointer { word in
      lowered.withUnsafeBufferPointer { lowered in
        for (index, candidate) in found.enumerated() where index == 0 || found[index - 1] != candidate {
          let other = UnsafeBufferPointer(
            rebasing: lowered[loweredStarts[Int(candidate)]..<loweredStarts[Int(candidate) + 1]])
          let distance = boundedEditDistance(word, other, limit: maxDistance, rows: &rows)
          guard distance <= maxDistance else { continue }
          if let known = best, (known.distance, known.candidate) < (distance, candidate) { continue }
          best = (candidate, distance)
        }
      }
    }
    return best.map { candidates[Int($0.candidate)] }
  }

  /// Sorts `entries` in place. From 65,536 entries on (the keys of an object kind have a few
  /// hundred), a comparison sort was three quarters of building the index: the entries (random
  /// hash bits on top) are first placed in buckets by their top 16 bits, by cycles of swaps in
  /// the array itself (no second array: the index is the peak of a flow with thousands of
  /// misspelt references), then each bucket of a few dozen is sorted.
  private static func sort(_ entries: inout [UInt64]) {
    guard entries.count >= 1 << 16 else {
      entries.sort()
      return
    }
    let buckets = 1 << 16
    var starts = [Int](repeating: 0, count: buckets + 1)
    entries.withUnsafeMutableBufferPointer { entries in
      starts.withUnsafeMutableBufferPointer { starts in
        for entry in entries { starts[Int(entry >> 48) + 1] += 1 }
        for bucket in 0..<buckets { starts[bucket + 1] += starts[bucket] }
        // `next[b]`: bucket b's first place not yet holding one of its own entries.
        var next = Array(starts)
        for bucket in 0..<buckets {
          while next[bucket] < starts[bucket + 1] {
            // Carry the entry found there home, and the one it displaces, until one is this
            // bucket's: it fills the place the first was taken from.
            var entry = entries[next[bucket]]
            var home = Int(entry >> 48)
            while home != bucket {
              swap(&entry, &entries[next[home]])
              next[home] += 1
              home = Int(entry >> 48)
            }
            entries[next[bucket]] = entry
            next[bucket] += 1
          }
        }
        for bucket in 0..<buckets where starts[bucket + 1] - starts[bucket] > 1 {
          var members = UnsafeMutableBufferPointer(rebasing: entries[starts[bucket]..<starts[bucket + 1]])
          members.sort()
        }
      }
    }
  }

  private func lowerBound(_ key: UInt64) -> Int {
    var low = 0
    var high = entries.count
    while low < high {
      let middle = (low + high) / 2
      if entries[middle] < key { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Calls `body` with the hash of every string made by deleting up to `limit` characters of
  /// `scalars` (the same string may come more than once). Each hash is assembled from prefix
  /// hashes of the kept runs, so it costs O(limit), not O(length).
  static func forEachDeletion(of scalars: [Unicode.Scalar], upTo limit: Int, _ body: (UInt64) -> Void) {
    let n = scalars.count
    var prefix = [UInt64](repeating: 0, count: n + 1)
    var power = [UInt64](repeating: 1, count: n + 1)
    for i in 0..<n {
      prefix[i + 1] = prefix[i] &* base &+ UInt64(scalars[i].value) &+ 1
      power[i + 1] = power[i] &* base
    }
    // The hash of scalars[from..<to].
    func run(_ from: Int, _ to: Int) -> UInt64 { prefix[to] &- prefix[from] &* power[to - from] }
    // Deleted positions in increasing order; `hash` covers scalars[..<next] minus the deletions.
    func extend(_ hash: UInt64, kept: Int, next: Int, left: Int) {
      body(finish(hash &* power[n - next] &+ run(next, n), length: kept + n - next))
      guard left > 0 else { return }
      for position in next..<n {
        let upTo = hash &* power[position - next] &+ run(next, position)
        extend(upTo, kept: kept + position - next, next: position + 1, left: left - 1)
      }
    }
    extend(0, kept: 0, next: 0, left: limit)
  }

  private static let base: UInt64 = 0x100_0000_01B3

  /// Mixes the length in, so strings of different lengths rarely share a hash.
  private static func finish(_ hash: UInt64, length: Int) -> UInt64 {
    var x = hash ^ (UInt64(length) &* 0x9E37_79B9_7F4A_7C15)
    x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
    x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
    return x ^ (x >> 31)
  }
}
