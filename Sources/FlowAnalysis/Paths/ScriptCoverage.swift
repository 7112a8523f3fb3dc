import FlowEngine
import FlowExpression
import FlowFormat
import FlowReplay

/// Coverage of replay scripts: drives a `Session` with each script's inputs (the replayer's own
/// mapping, `ScriptStep.inputs(on:)`, recorded secrets' stand-ins included) and collects the
/// coverage items the steps hit.
public enum ScriptCoverage {
  /// The items one script hits on `document` (nil when its session cannot start).
  public static func items(of script: ReplayScript, document: FlowDocument) -> Set<CoverageItem>? {
    let observer = CoverageObserver(document: document)
    var config = script.sessionConfig
    config.recordsHistory = false
    guard var (session, outputs) = try? Session.start(document: document, config: config) else { return nil }
    var items = Set(observer.start(session, outputs))
    for step in script.steps {
      for input in step.inputs(on: session) {
        let before = CoverageObserver.Origin(session)
        outputs = session.send(input)
        items.formUnion(observer.step(from: before, input: input, outputs: outputs, after: session))
      }
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
