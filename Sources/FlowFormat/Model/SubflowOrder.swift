import FlowExpression

extension FlowDocument {
  /// Flow indices with every flow after the sub-flows it runs (depth-first post-order from each
  /// flow in file order), and each flow's sub-flows as indices (unknown ones left out).
  ///
  /// Walkers that fold something over a flow and its sub-flows ("fields collected, sub-flows
  /// included") visit flows in this order and read the children already done: a child not done
  /// yet closes a cycle (a `load.subflow-cycle` error) and is skipped. Iterative, so a chain of
  /// 100,000 sub-flows needs no deeper stack than one flow.
  public func subflowPostOrder() -> (order: [Int], children: [[Int]]) {
    var index: [String: Int] = [:]
    for (i, flow) in flows.enumerated() where index[flow.id] == nil { index[flow.id] = i }
    let children = flows.map { flow in flow.screens.compactMap { $0.subflow.flatMap { index[$0] } } }
    var order: [Int] = []
    order.reserveCapacity(flows.count)
    var state = [UInt8](repeating: 0, count: flows.count)  // 1: on the stack, 2: done
    var stack: [(flow: Int, next: Int)] = []
    for root in flows.indices where state[root] == 0 {
      state[root] = 1
      stack.append((root, 0))
      while let (flow, next) = stack.last {
        if next < children[flow].count {
          stack[stack.count - 1].next += 1
          let child = children[flow][next]
          if state[child] == 0 {
            state[child] = 1
            stack.append((child, 0))
          }
        } else {
          state[flow] = 2
          order.append(flow)
          stack.removeLast()
        }
      }
    }
    return (order, children)
  }

  /// For each flow, `own(flow)` merged with the results of the sub-flows it runs, directly or
  /// through others (a cycle's back edge is skipped, see `subflowPostOrder`).
  public func foldOverSubflows<T>(_ own: (Flow) -> T, merge: (inout T, T) -> Void) -> [T] {
    foldOverSubflows({ own(flows[$0]) }, merge: merge, size: { _ in 0 }, budget: 0)!
  }

  /// The fields each flow collects, sub-flows included, or nil when the sets together would
  /// hold more than `Limits.subflowFields` names: every flow of a chain of 20,000, each with a
  /// field, gathers the fields of all the flows after it (200 million in all).
  public func fieldsThroughSubflows(_ own: (Flow) -> Set<String>) -> [Set<String>]? {
    fieldsThroughSubflows(ownAt: { own(flows[$0]) })
  }

  /// `fieldsThroughSubflows(_:)` with each flow's own fields given by its index.
  public func fieldsThroughSubflows(ownAt own: (Int) -> Set<String>) -> [Set<String>]? {
    foldOverSubflows(own, merge: { $0.formUnion($1) }, size: \.count, budget: Limits.subflowFields)
  }

  /// `foldOverSubflows`, stopping with nil once the results' sizes add up past `budget`.
  private func foldOverSubflows<T>(
    _ own: (Int) -> T, merge: (inout T, T) -> Void, size: (T) -> Int, budget: Int
  ) -> [T]? {
    let (order, children) = subflowPostOrder()
    var results = [T?](repeating: nil, count: flows.count)
    var total = 0
    for flow in order {
      var result = own(flow)
      for child in children[flow] {
        if let done = results[child] { merge(&result, done) }
      }
      total += size(result)
      if total > budget { return nil }
      results[flow] = result
    }
    return results.map { $0! }
  }
}
