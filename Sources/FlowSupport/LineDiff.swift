/// The lines that differ between two texts, for failure messages (snapshots, generated docs).
///
/// Lines are aligned by the standard library's `difference(from:)` (a shortest edit script),
/// so a line inserted near the top shows as one `+` line instead of marking every later line
/// changed. Each line is written `-N: text` (only in the expected text, N its line number
/// there) or `+N: text` (only in the actual text, N its line number there), in reading order,
/// removals before the insertions that replace them.
public enum LineDiff {
  /// Differing lines aligned one by one, at most this many per side once the common start and
  /// end are set aside: past it the alignment (whose cost grows with the product of the edits
  /// and the lines) gives way to the whole middle removed, then added.
  public static let alignedLines = 5_000

  /// At most `limit` differing lines, then `… N more differing lines`; empty when the texts
  /// are equal.
  public static func lines(expected: String, actual: String, limit: Int = 40) -> [String] {
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var prefix = 0
    while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < old.count - prefix, suffix < new.count - prefix,
      old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    let oldMiddle = old[prefix..<(old.count - suffix)]
    let newMiddle = new[prefix..<(new.count - suffix)]
    var removed = Set<Int>()
    var inserted = Set<Int>()
    if oldMiddle.count <= alignedLines && newMiddle.count <= alignedLines {
      for change in Array(newMiddle).difference(from: Array(oldMiddle)) {
        switch change {
        case .remove(let offset, _, _): removed.insert(prefix + offset)
        case .insert(let offset, _, _): inserted.insert(prefix + offset)
        }
      }
    } else {
      removed = Set(oldMiddle.indices)
      inserted = Set(newMiddle.indices)
    }
    var out: [String] = []
    var more = 0
    func emit(_ line: @autoclosure () -> String) {
      if out.count < limit { out.append(line()) } else { more += 1 }
    }
    var (i, j) = (prefix, prefix)
    while i < old.count - suffix || j < new.count - suffix {
      if removed.contains(i) {
        emit("-\(i + 1): \(old[i])")
        i += 1
      } else if inserted.contains(j) {
        emit("+\(j + 1): \(new[j])")
        j += 1
      } else {
        i += 1
        j += 1
      }
    }
    if more > 0 { out.append("… \(more) more differing line\(more == 1 ? "" : "s")") }
    return out
  }
}
