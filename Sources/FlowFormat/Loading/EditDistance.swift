/// The candidate closest to `word` within `maxDistance` edits, if any (ties: first candidate).
/// Case-insensitive. One question scans the candidates once; many questions over the same
/// candidates go through a ``SpellingIndex``.
///
/// Candidates whose length differs from the word's by more than `maxDistance` are skipped
/// without computing the distance (it is at least the difference), and the distance is
/// computed only within `maxDistance`, so a megabyte-long key costs no quadratic work.
public func closestMatch(
  to word: String,
  in candidates: some Sequence<String>,
  maxDistance: Int = 2
) -> String? {
  let w = Array(word.lowercased().unicodeScalars)
  var best: (String, Int)?
  for candidate in candidates {
    let c = Array(candidate.lowercased().unicodeScalars)
    guard abs(c.count - w.count) <= maxDistance else { continue }
    let distance = boundedEditDistance(w, c, limit: maxDistance)
    if distance <= maxDistance, distance < (best?.1 ?? Int.max) {
      best = (candidate, distance)
    }
  }
  return best?.0
}

/// The Levenshtein distance of `a` and `b` when it is at most `limit`, else `limit + 1`. Only
/// the diagonal band of width `2 * limit + 1` is computed, so two long strings cost
/// O(length × limit) instead of O(length²).
func boundedEditDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
  var rows: [Int] = []
  return a.withUnsafeBufferPointer { a in
    b.withUnsafeBufferPointer { b in boundedEditDistance(a, b, limit: limit, rows: &rows) }
  }
}

/// The same, in `rows` (grown as needed): a question that measures thousands of candidates
/// (`SpellingIndex.closest`) allocates its two rows once, not twice a candidate.
func boundedEditDistance(
  _ a: UnsafeBufferPointer<Unicode.Scalar>, _ b: UnsafeBufferPointer<Unicode.Scalar>, limit: Int, rows: inout [Int]
) -> Int {
  let n = a.count
  let m = b.count
  let over = limit + 1
  guard abs(n - m) <= limit else { return over }
  if n == 0 || m == 0 { return max(n, m) }
  if rows.count < 2 * (m + 1) { rows = [Int](repeating: 0, count: 2 * (m + 1)) }
  return rows.withUnsafeMutableBufferPointer { rows in
    // Cells outside the band hold `over`: no path through them stays within the limit.
    var previous = UnsafeMutableBufferPointer(rebasing: rows[0...m])
    var current = UnsafeMutableBufferPointer(rebasing: rows[(m + 1)...(2 * m + 1)])
    for j in 0...m {
      previous[j] = j <= limit ? j : over
      current[j] = over
    }
    for i in 1...n {
      let low = max(1, i - limit)
      let high = min(m, i + limit)
      current[low - 1] = low == 1 ? min(i, over) : over
      var best = current[low - 1]
      for j in low...high {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        let value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost, over)
        current[j] = value
        best = min(best, value)
      }
      if high < m { current[high + 1] = over }
      if best > limit { return over }
      swap(&previous, &current)
    }
    return previous[m]
  }
}
