import FlowEngine
import FlowExpression
import FlowFormat
import FlowReplay

/// Coverage of replay scripts: drives a `Session` with each script's steps as `flowrun test`
/// plays them (`ScriptStep.inputs(on:)` and `ScriptStep.send`: recorded secrets' stand-ins,
/// the stop at a rejected input, unanswered awaited actions failing) and collects the coverage
/// items the inputs hit. Expectations are not checked.
public enum ScriptCoverage {
  /// The items one script hits on `document` (nil when its session cannot start).
  public static func items(of script: ReplayScript, document: FlowDocument) -> Set<CoverageItem>? {
    let observer = CoverageObserver(document: document)
    var config = script.sessionConfig
    config.recordsHistory = false
    guard var (session, outputs) = try? Session.start(document: document, config: config) else { return nil }
    var items = Set(observer.start(session, outputs))
    func send(_ input: Input) -> [Output] {
      let before = observer.origin(session)
      outputs = session.send(input)
      items.formUnion(observer.step(from: before, input: input, outputs: outputs, after: session))
      return outputs
    }
    for (index, step) in script.steps.enumerated() {
      let rejected = ScriptStep.send(step.inputs(on: session), through: send)
      if rejected, step.expectError == nil { break }
      if let failure = script.unhandledActionFailure(after: index, on: session) { _ = send(failure) }
    }
    return items
  }
}

/// Coverage of a set of items against what exploration reached.
public struct CoverageReport: Sendable {
  public var reachable: [CoverageItem]
  public var covered: Set<CoverageItem>

  public init(reachable: [CoverageItem], covered: Set<CoverageItem>) {
    self.reachable = reachable
    self.covered = covered
  }

  public var uncovered: [CoverageItem] { reachable.filter { !covered.contains($0) } }

  /// Covered / reachable per kind (`screen`, `edge`, `rule`, `outcome`) and in total.
  public func ratio(_ kind: String? = nil) -> (covered: Int, total: Int) {
    let pool = reachable.filter { kind == nil || $0.kindName == kind }
    return (pool.filter(covered.contains).count, pool.count)
  }

  public var percent: Double {
    let (covered, total) = ratio()
    return total == 0 ? 100 : Double(covered) * 100 / Double(total)
  }
}
