/// The outcome of evaluating a condition, with everything a trace needs to explain it.
public struct ConditionTrace: Hashable, Sendable {
  /// One clause of the condition's top-level `&&` / `||` chain.
  public struct Clause: Hashable, Sendable {
    /// The clause's source text.
    public var text: String
    /// Its result, or nil when short-circuiting skipped it.
    public var result: Bool?
  }

  /// The condition's source text, as written (text form) or rendered (structured form).
  public var source: String
  /// The result; an evaluation error makes it false.
  public var result: Bool
  /// The variables read, in order, with their values (nil: missing).
  public var reads: [VariableRead]
  /// The top-level chain's connective: `.and`, `.or`, or nil for a single clause.
  public var connective: BinaryOperator?
  /// The clauses of the top-level chain (one when there is no chain).
  public var clauses: [Clause]
  /// The index of the clause that decided the result, when one clause did.
  public var decidingClause: Int?
  /// The evaluation error that made the condition false, if any.
  public var error: EvaluationError?

  /// The reads and the outcome: `goal='build' → false (first clause)`.
  public var summary: String { summary(showing: \.value) }

  /// `summary` with each read's value as `shown` gives it (the engine masks secrets there).
  public func summary(showing shown: (VariableRead) -> Value?) -> String {
    var text = ""
    for (index, read) in reads.enumerated() {
      if index > 0 { text += ", " }
      text += read.path
      text += "="
      text += shown(read).map(\.description) ?? "(missing)"
    }
    if !reads.isEmpty { text += " " }
    text += result ? "→ true" : "→ false"
    if let note {
      text += " ("
      text += note
      text += ")"
    }
    return text
  }

  /// Why the result came out as it did, when that is worth saying.
  public var note: String? {
    if let error {
      guard clauses.count > 1, let index = clauses.firstIndex(where: { $0.result == nil }) else {
        return "error: \(error)"
      }
      return "error in \(Self.ordinal(index)) clause: \(error)"
    }
    guard clauses.count > 1 else { return nil }
    if let decidingClause { return "\(Self.ordinal(decidingClause)) clause" }
    return connective == .and ? "all clauses" : "no clause"
  }

  /// One trace line: the source padded to `sourceWidth` characters, three spaces, the summary.
  public func line(sourceWidth: Int = 0) -> String {
    let padding = String(repeating: " ", count: max(0, sourceWidth - source.count))
    return source + padding + "   " + summary
  }

  static func ordinal(_ index: Int) -> String {
    let words = [
      "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    ]
    return index < words.count ? words[index] : "#\(index + 1)"
  }
}

extension Condition {
  /// Evaluates the condition (missing fields follow §5; errors make it false) and explains why.
  public func evaluate(in environment: some ExpressionEnvironment) -> ConditionTrace {
    trace(in: environment, quotingClauses: true)
  }

  /// The result and `summary` of `evaluate(in:)`, without quoting each clause's source text
  /// (which the summary does not show).
  public func summarize(
    in environment: some ExpressionEnvironment, showing shown: (VariableRead) -> Value? = \.value
  ) -> (result: Bool, summary: String) {
    let trace = trace(in: environment, quotingClauses: false)
    return (trace.result, trace.summary(showing: shown))
  }

  private func trace(in environment: some ExpressionEnvironment, quotingClauses: Bool) -> ConditionTrace {
    var connective: BinaryOperator?
    if case .binary(let op, _, _) = expression.kind, op == .and || op == .or { connective = op }
    let parts = connective.map { expression.chain(of: $0) } ?? [expression]
    var evaluator = Evaluator(environment: environment, mode: .lenient)
    var clauses = parts.map {
      ConditionTrace.Clause(text: quotingClauses ? $0.range.text(in: source) : "", result: nil)
    }
    var result = connective != .or
    var decidingClause: Int?
    var failure: EvaluationError?
    for (index, part) in parts.enumerated() {
      let value: Bool
      do {
        value = try evaluator.evaluate(part)?.isTruthy ?? false
      } catch {
        failure = error
        result = false
        break
      }
      clauses[index].result = value
      // An `&&` chain is decided by its first false clause, an `||` chain by its first true one.
      if value == (connective == .or), connective != nil {
        result = value
        decidingClause = index
        break
      }
      if connective == nil { result = value }
    }
    if failure != nil { decidingClause = nil }
    return ConditionTrace(
      source: source, result: result, reads: evaluator.reads, connective: connective,
      clauses: clauses, decidingClause: decidingClause, error: failure)
  }

  /// Evaluates the condition and returns only its result.
  ///
  /// The same result as `evaluate(in:).result` without the trace: a top-level `&&`/`||` chain
  /// short-circuits clause by clause exactly as the evaluator's own `&&`/`||` do, and an error
  /// anywhere makes the result false in both.
  @inlinable public func holds(in environment: some ExpressionEnvironment) -> Bool {
    var evaluator = Evaluator(environment: environment, mode: .lenient, recordsReads: false)
    do {
      return try evaluator.evaluate(expression)?.isTruthy ?? false
    } catch {
      return false
    }
  }
}

extension Expression {
  /// The operands of a chain of one associative connective, flattened left to right.
  func chain(of op: BinaryOperator) -> [Expression] {
    guard case .binary(op, let lhs, let rhs) = kind else { return [self] }
    return lhs.chain(of: op) + rhs.chain(of: op)
  }
}
