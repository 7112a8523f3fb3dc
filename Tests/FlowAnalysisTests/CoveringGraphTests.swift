import FlowEngine
import FlowFormat
import FlowReplay
import Foundation
import Testing
import _FlowTestSupport

@testable import FlowAnalysis

/// The covering set's bookkeeping against the plain computations it replaces.
@Suite struct CoveringGraphTests {
  static let flows = ["sample-flows/survey.json", "sample-flows/fitness.json", "sample-flows/bundle.json"]

  /// `BestPaths` worked out again only where gains changed equals working out every state from
  /// scratch with the same gains, round after round.
  @Test(arguments: flows)
  func bestPathsKeptUpToDateMatchFromScratch(_ flow: String) throws {
    let document = try #require(FlowLoader.load(path: packageRoot().appendingPathComponent(flow).path).document)
    let exploration = PathExplorer(document: document).explore()
    let graph = CoveringGraph(exploration)
    var transitionGain = exploration.transitions.map(\.items.count)
    var selfLoopGain = [Int](repeating: 0, count: exploration.states.count)
    for (state, items) in exploration.selfItems { selfLoopGain[state] = items.count }
    var kept = BestPaths(graph)
    // Cover the items of every third transition, then of every state's self-loops, a round each.
    for round in 0..<4 {
      kept.update(graph, transitionGain: transitionGain, selfLoopGain: selfLoopGain)
      var scratch = BestPaths(graph)
      scratch.update(graph, transitionGain: transitionGain, selfLoopGain: selfLoopGain)
      #expect(kept.value == scratch.value, "round \(round)")
      #expect(kept.choice == scratch.choice, "round \(round)")
      for t in transitionGain.indices where t % 3 == round % 3 && transitionGain[t] > 0 {
        transitionGain[t] -= 1
        kept.transitionChanged(t, graph)
      }
      for state in selfLoopGain.indices where round == 3 && selfLoopGain[state] > 0 {
        selfLoopGain[state] = 0
        kept.selfLoopsChanged(state, graph)
      }
    }
    #expect(kept.value.contains { $0 > 0 })
  }

  /// Covering paths are kept as numbers into the graph: their inputs, read back, replay to the
  /// ending their screens list.
  @Test(arguments: flows)
  func pathsReadFromTheGraphReplayAsListed(_ flow: String) throws {
    let document = try #require(FlowLoader.load(path: packageRoot().appendingPathComponent(flow).path).document)
    let exploration = PathExplorer(document: document).explore()
    for path in exploration.coveringPaths() {
      let session = try #require(path.replay(document: document))
      #expect(session.status.isEnded)
      #expect(path.screens.last == (session.status == .completed ? "$complete" : "$dismiss"))
      #expect(!path.items.isEmpty && path.items == path.items.sorted())
    }
  }

  /// Steps rewound to a position, then written on, are the steps written straight.
  @Test func scriptStepsRewoundThenContinuedMatchStraight() throws {
    let document = try #require(
      FlowLoader.load(path: packageRoot().appendingPathComponent("sample-flows/survey.json").path).document)
    let exploration = PathExplorer(document: document).explore()
    let path = try #require(exploration.coveringPaths().max { $0.inputs.count < $1.inputs.count })
    let inputs = path.inputs
    let middle = inputs.count / 2
    var (session, _) = try Session.start(document: document, config: path.config)
    var straight = ScriptSteps(secrets: .none)
    var saved: (Session, ScriptSteps.Position)?
    for (index, input) in inputs.enumerated() {
      if index == middle { saved = (session, straight.position) }
      _ = straight.send(input, to: &session)
    }
    var (resumed, mark) = try #require(saved)
    var steps = straight.rewound(to: mark)
    for input in inputs[middle...] { _ = steps.send(input, to: &resumed) }
    #expect(steps.values.count == straight.values.count)
    #expect(JSONWriter.pretty.string(.array(steps.values)) == JSONWriter.pretty.string(.array(straight.values)))
  }
}
