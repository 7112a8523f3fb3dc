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
    let (order, children) = subflowPostOrder()
    var results = [T?](repeating: nil, count: flows.count)
    for flow in order {
      var result = own(flows[flow])
      for child in children[flow] {
        if let done = results[child] { merge(&result, done) }
      }
      results[flow] = result
    }
    return results.map { $0! }
  }
}
