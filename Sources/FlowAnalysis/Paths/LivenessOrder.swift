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
    let components = stronglyConnectedComponents(successors)
    var position: [ScreenNode: Int] = [:]
    position.reserveCapacity(dense.count)
    for (index, component) in components.enumerated() {
      for number in component where number < dense.count {
        position[dense.nodes[number]] = components.count - 1 - index
      }
    }
    return (position, components.count)
  }

  /// Tarjan's algorithm without recursion; components in reverse topological order.
  static func stronglyConnectedComponents(_ successors: [[Int]]) -> [[Int]] {
    let unvisited = -1
    var index = [Int](repeating: unvisited, count: successors.count)
    var low = [Int](repeating: 0, count: successors.count)
    var onStack = [Bool](repeating: false, count: successors.count)
    var stack: [Int] = []
    var components: [[Int]] = []
    var counter = 0
    for root in successors.indices where index[root] == unvisited {
      var work: [(node: Int, next: Int)] = [(root, 0)]
      index[root] = counter
      low[root] = counter
      counter += 1
      stack.append(root)
      onStack[root] = true
      while let (node, next) = work.last {
        if next < successors[node].count {
          work[work.count - 1].next += 1
          let target = successors[node][next]
          if index[target] == unvisited {
            index[target] = counter
            low[target] = counter
            counter += 1
            stack.append(target)
            onStack[target] = true
            work.append((target, 0))
          } else if onStack[target] {
            low[node] = min(low[node], index[target])
          }
          continue
        }
        work.removeLast()
        if let parent = work.last?.node { low[parent] = min(low[parent], low[node]) }
        guard low[node] == index[node] else { continue }
        var component: [Int] = []
        while let top = stack.popLast() {
          onStack[top] = false
          component.append(top)
          if top == node { break }
        }
        components.append(component)
      }
    }
    return components
  }
}
