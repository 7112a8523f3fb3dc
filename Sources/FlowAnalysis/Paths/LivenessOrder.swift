import FlowFormat

/// Topological positions of the screen graph's strongly connected components for the explorer's
/// liveness test, with sub-flow returns drawn in: a screen that completes a sub-flow leads to
/// the screens after every flow screen that runs it. Without those edges nothing orders a
/// sub-flow's screens before the screens after its flow screen, and the fields of every
/// finished sub-flow stay live until the outermost flow ends.
///
/// Sound: a screen a session can reach next (through a return too) never has a lower position.
enum LivenessOrder {
  /// The position of each screen, and how many positions there are.
  static func positions(_ graph: FlowGraph) -> (position: [ScreenNode: Int], count: Int) {
    let dense = DenseScreenGraph(graph)
    let flows = graph.document.flows.count
    // Nodes 0..<dense.count are screens; dense.count + f is the return of flow f.
    var successors = [[Int]](repeating: [], count: dense.count + flows)
    for number in 0..<dense.count {
      successors[number] = Array(dense.successors(of: number))
      let node = dense.nodes[number]
      if graph.subflowParents[node.flow] != nil,
        graph.outgoing[node]?.contains(where: { $0.to == .complete(flow: node.flow) }) == true
      {
        successors[number].append(dense.count + node.flow)
      }
    }
    for (child, parents) in graph.subflowParents {
      for parent in parents {
        for edge in graph.outgoing[parent] ?? [] {
          if case .subflow = edge.kind { continue }
          switch edge.to {
          case .screen(let next): successors[dense.count + child].append(dense.number(next))
          case .complete(let flow): successors[dense.count + child].append(dense.count + flow)
          case .dismiss: break
          }
        }
      }
    }
    let components = stronglyConnectedComponents(count: successors.count) { successors[$0][...] }
    var position: [ScreenNode: Int] = [:]
    position.reserveCapacity(dense.count)
    for index in 0..<components.count {
      for number in components[index] where number < dense.count {
        position[dense.nodes[Int(number)]] = components.count - 1 - index
      }
    }
    return (position, components.count)
  }

  /// Tarjan's algorithm without recursion over nodes `0..<count`; components in reverse
  /// topological order, each as its nodes leave the search's stack. Flat: a list per node in
  /// and per component out were 2.6 MB of `check`'s peak on a 21,714-screen chain; and 32 bits
  /// a number (a chain's search holds every node on both stacks at its deepest: with 64 bits,
  /// 1.4 MB while `check.uncollected-variable` ran on the other thread).
  static func stronglyConnectedComponents<Successors: RandomAccessCollection<Int>>(
    count: Int, successors: (Int) -> Successors
  ) -> NumberedLists<Int32> where Successors.Index == Int {
    let unvisited: Int32 = -1
    var index = [Int32](repeating: unvisited, count: count)
    var low = [Int32](repeating: 0, count: count)
    var onStack = [Bool](repeating: false, count: count)
    var stack: [Int32] = []
    var components = NumberedLists<Int32>(count: count, values: count)
    var counter: Int32 = 0
    for root in 0..<count where index[root] == unvisited {
      // `next`: the index in the node's successors of the one to visit next.
      var work: [(node: Int32, next: Int32)] = [(Int32(root), Int32(successors(root).startIndex))]
      index[root] = counter
      low[root] = counter
      counter += 1
      stack.append(Int32(root))
      onStack[root] = true
      while let (node32, next) = work.last {
        let node = Int(node32)
        let nodeSuccessors = successors(node)
        if next < nodeSuccessors.endIndex {
          work[work.count - 1].next += 1
          let target = nodeSuccessors[Int(next)]
          if index[target] == unvisited {
            index[target] = counter
            low[target] = counter
            counter += 1
            stack.append(Int32(target))
            onStack[target] = true
            work.append((Int32(target), Int32(successors(target).startIndex)))
          } else if onStack[target] {
            low[node] = min(low[node], index[target])
          }
          continue
        }
        work.removeLast()
        if let parent = work.last?.node { low[Int(parent)] = min(low[Int(parent)], low[node]) }
        guard low[node] == index[node] else { continue }
        let start = stack.lastIndex(of: node32)!
        for member in stack[start...] { onStack[Int(member)] = false }
        components.append(stack[start...].reversed())
        stack.removeSubrange(start...)
      }
    }
    return components
  }
}
