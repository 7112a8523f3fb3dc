/// The outcome of a three-valued condition with what explains it, in the shape of
/// `ConditionTrace` so `:why` and `--trace` read alike: the source, the top-level `&&`/`||`
/// clauses, the facts read and the result (`unknown` fails closed).
public struct TruthTrace: Hashable, Sendable {
  /// One clause of the top-level chain.
  public struct Clause: Hashable, Sendable {
    public var text: String
    /// Its truth, or nil when short-circuiting skipped it.
    public var truth: Truth?
    public init(text: String, truth: Truth?) {
      self.text = text
      self.truth = truth
    }
  }

  public var source: String
  public var truth: Truth
  public var reads: [VariableRead]
  /// `.and`, `.or`, or nil for a single clause.
  public var connective: BinaryOperator?
  public var clauses: [Clause]
  /// The clause that decided the result, when one did.
  public var decidingClause: Int?
  /// Why the condition was not evaluated at all (`engine_min 99`).
  public var skipped: String?

  public init(
    source: String, truth: Truth, reads: [VariableRead] = [], connective: BinaryOperator? = nil,
    clauses: [Clause] = [], decidingClause: Int? = nil, skipped: String? = nil
  ) {
    self.source = source
    self.truth = truth
    self.reads = reads
    self.connective = connective
    self.clauses = clauses
    self.decidingClause = decidingClause
    self.skipped = skipped
  }

  /// Whether the condition's site acts: only on `true`.
  public var holds: Bool { truth.holds }

  /// `plan='trial', amount=79 → true (all clauses)`; unknown says it fails closed.
  public var summary: String {
    var text = reads.map { $0.path + "=" + ($0.value?.description ?? "(missing)") }.joined(separator: ", ")
    if !text.isEmpty { text += " " }
    text += "→ " + truth.rawValue
    if let note { text += " (" + note + ")" }
    return text
  }

  public var note: String? {
    if let skipped { return skipped }
    var parts: [String] = []
    if clauses.count > 1 {
      if let decidingClause {
        parts.append(ConditionTrace.ordinal(decidingClause) + " clause")
      } else if truth != .unknown {
        parts.append(connective == .and ? "all clauses" : "no clause")
      }
    }
    if truth == .unknown { parts.append("fails closed") }
    return parts.isEmpty ? nil : parts.joined(separator: "; ")
  }

  /// The source padded to `sourceWidth`, three spaces, the summary (`ConditionTrace.line`).
  public func line(sourceWidth: Int = 0) -> String {
    source + String(repeating: " ", count: max(0, sourceWidth - source.count)) + "   " + summary
  }
}

extension IRNode {
  /// The node's truth with the facts (no trace).
  public func truth(in facts: Facts) -> Truth {
    var evaluator = IREvaluator(facts: facts, recordsReads: false)
    return evaluator.truth(self)
  }

  /// The node's truth, clause by clause.
  public func trace(in facts: Facts, transitionsUnknown: Bool = false) -> TruthTrace {
    var evaluator = IREvaluator(facts: facts)
    evaluator.transitionsUnknown = transitionsUnknown
    let parts: [IRNode]
    let connective: BinaryOperator?
    switch self {
    case .and(let args) where args.count > 1:
      (parts, connective) = (args, .and)
    case .or(let args) where args.count > 1:
      (parts, connective) = (args, .or)
    default:
      (parts, connective) = ([self], nil)
    }
    var clauses = parts.map { TruthTrace.Clause(text: $0.description, truth: nil) }
    var truths: [Truth] = []
    var deciding: Int?
    for (index, part) in parts.enumerated() {
      let truth = evaluator.truth(part)
      clauses[index].truth = truth
      truths.append(truth)
      // `&&` stops at its first false clause, `||` at its first true one.
      if let connective, truth == (connective == .and ? .false : .true) {
        deciding = index
        break
      }
    }
    let truth: Truth =
      switch connective {
      case .and: Truth.all(truths)
      case .or: Truth.any(truths)
      default: truths[0]
      }
    return TruthTrace(
      source: description, truth: truth, reads: evaluator.reads, connective: connective, clauses: clauses,
      decidingClause: deciding)
  }
}

extension IREnvelope {
  /// The envelope's truth; one that needs a newer engine is not evaluated (false).
  public func truth(in facts: Facts) -> Truth { isSupported ? expression.truth(in: facts) : .false }

  public func trace(in facts: Facts) -> TruthTrace {
    guard isSupported else {
      return TruthTrace(
        source: expression.description, truth: .false,
        skipped: "engine_min \(engineMin ?? 0): needs a newer IR engine, not evaluated")
    }
    return expression.trace(in: facts)
  }
}
