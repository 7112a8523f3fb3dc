import Testing

@testable import FlowSimulation

/// `PathCounts` counts paths as a dictionary keyed by the path does: the same paths (the empty
/// one, prefixes of others, screens shown again) with the same users.
@Suite struct PathCountsTests {
  static let tables: [[[Int32]]] = [
    [[0, 1, 2], [0, 1, 2], [0, 1], [0, 2, 1], []],
    [[], [], [3]],
    [[0, 1, 0, 1, 0], [0, 1, 0], [0, 1, 0, 1, 0], [1, 0]],
    (0..<60).map { user in (0..<Int32(user % 7)).map { ($0 * 3 + Int32(user % 3)) % 5 } },
  ]

  @Test(arguments: tables)
  func countsLikeADictionaryOfPaths(_ paths: [[Int32]]) {
    var counts = PathCounts()
    var expected: [[Int32]: Int] = [:]
    for path in paths {
      counts.add(path[...])
      expected[path, default: 0] += 1
    }
    var counted: [[Int32]: Int] = [:]
    counts.forEach { path, users in
      #expect(counted[path] == nil)
      counted[path] = users
    }
    #expect(counted == expected)
  }
}
