import FlowGenerator
import Testing

@testable import FlowFormat

/// `inOrder(of:by:)` gives what sorting `(element, key)` pairs did, with the same comparison.
@Suite struct InOrderTests {
  @Test(arguments: [
    [], [1], [1, 2, 3], [3, 2, 1], [2, 2, 1, 1], [0, 5, 5, 0, 5], [1, 1, 1],
  ])
  func smallCases(_ orders: [Int]) {
    check(orders)
  }

  @Test(arguments: [1, 2, 2026])
  func randomOrders(_ seed: UInt64) {
    var rng = SeededGenerator(seed: seed)
    for _ in 0..<200 {
      let count = Int.random(in: 0...30, using: &rng)
      let sortedAlready = Bool.random(using: &rng)
      var orders = (0..<count).map { _ in Int.random(in: 0...5, using: &rng) }
      if sortedAlready { orders.sort() }
      check(orders)
    }
  }

  func check(_ orders: [Int]) {
    let elements = orders.indices.map { "element \($0)" }
    let keys = orders.indices.map { (orders[$0], $0) }
    let expected = zip(elements, keys).sorted { $0.1 < $1.1 }.map(\.0)
    #expect(elements.inOrder(of: keys) { $0 < $1 } == expected)
    // Only the order decides: equal orders keep their array order.
    #expect(elements.inOrder(of: orders) { $0 < $1 } == expected)
  }
}
