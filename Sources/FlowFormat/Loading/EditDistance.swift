/// Levenshtein distance, for "did you mean" notes on misspelt keys and ids.
public func editDistance(_ a: String, _ b: String) -> Int {
  editDistance(Array(a.lowercased().unicodeScalars), Array(b.lowercased().unicodeScalars))
}

private func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
    }
    swap(&previous, &current)
  }
  return previous[b.count]
}

/// The candidate closest to `word` within `maxDistance` edits, if any (ties: first candidate).
///
/// Candidates whose length differs from the word's by more than `maxDistance` are skipped
/// without computing the distance (it is at least the difference), so a megabyte-long key
/// or thousands of screen ids cost no quadratic work.
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
    let distance = editDistance(w, c)
    if distance <= maxDistance, distance < (best?.1 ?? Int.max) {
      best = (candidate, distance)
    }
  }
  return best?.0
}
