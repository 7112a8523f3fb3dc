import FlowGenerator
import Testing

@testable import FlowFormat

/// `MoveStack` against an `Array` doing the same pushes and pops.
@Suite struct MoveStackTests {
  @Test(arguments: [1, 7, 2026])
  func sameAsArray(_ seed: UInt64) {
    var rng = SeededGenerator(seed: seed)
    let stack = MoveStack<String>(capacity: 1)
    var reference: [String] = []
    for step in 0..<2_000 {
      if Int.random(in: 0..<3, using: &rng) > 0 {
        // Long strings are heap objects: a wrong move would show as a crash or a wrong text.
        let text = "element \(step) " + String(repeating: "x", count: Int.random(in: 0...40, using: &rng))
        stack.append(text)
        reference.append(text)
      } else {
        let start = Int.random(in: 0...reference.count, using: &rng)
        #expect(stack.popArray(from: start) == Array(reference[start...]))
        reference.removeSubrange(start...)
      }
      #expect(stack.count == reference.count)
      if let last = reference.indices.last { #expect(stack[last] == reference[last]) }
    }
  }

  @Test func popEverythingAndNothing() {
    let stack = MoveStack<[Int]>()
    for i in 0..<100 { stack.append([i, i]) }
    #expect(stack.popArray(from: 100) == [])
    #expect(stack.popArray(from: 0) == (0..<100).map { [$0, $0] })
    #expect(stack.count == 0)
    stack.append([1])  // left on the stack: the deinit releases it
  }
}
