/// Lists of values by key number (`0..<keys`), each in the order its pairs came: one flat
/// array and where each key's run starts (predecessors, a tree's children, a name's reads). An
/// array per key grew by doubling, an allocation each time: a tenth of
/// `check.uncollected-variable` on the rule-heavy bench flow.
struct Buckets<Value> {
  private let starts: [Int]
  private let values: [Value]

  /// `filler` only takes the places until the pairs' values are put in them.
  init(keys: Int, pairs: [(key: Int, value: Value)], filler: Value) {
    var starts = [Int](repeating: 0, count: keys + 1)
    for pair in pairs { starts[pair.key + 1] += 1 }
    for key in 0..<keys { starts[key + 1] += starts[key] }
    var next = starts
    var values = [Value](repeating: filler, count: pairs.count)
    for pair in pairs {
      values[next[pair.key]] = pair.value
      next[pair.key] += 1
    }
    self.starts = starts
    self.values = values
  }

  /// The values of `key`, in the order they were given.
  subscript(key: Int) -> ArraySlice<Value> { values[starts[key]..<starts[key + 1]] }
}
