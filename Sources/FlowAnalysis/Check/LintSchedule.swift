import Dispatch
import FlowFormat
import FlowSupport

/// Runs the lint rules of a big document on two threads; each rule's diagnostics land in its
/// own slot and are joined in the rules' order, so the result is the one thread's, byte for byte.
///
/// The two facts most rules share are worked out first, one on each thread: the screen graph
/// (`FlowGraph`, `DenseScreenGraph`: the check context) and the screens' numbered reads and
/// fields (`ScreenFacts`), which need only the document. Then both threads take rules from one
/// queue, heaviest first; a rule that asks for a fact the other thread is still working out
/// waits for it (`MadeOnce`). Whichever thread asks first for a fact nobody has started works
/// it out itself, so nothing waits on work that has not begun, however the threads are run.
enum LintSchedule {
  /// Below this many screens the rules run on the calling thread. Since the check context and
  /// `ScreenFacts` are worked out one on each thread, a second thread takes a share from a few
  /// hundred screens on: the calling thread's instructions, `r300` 76.2 → 69.1 M, `r1000`
  /// 134.9 → 122.7 M, the sum within 0.7 M (docs/performance.md, "Thirteenth round"; the
  /// eighth round, with the rules alone shared, measured no gain at 1,000 screens).
  static let parallelScreens = 250

  /// Rules by measured cost, heaviest first, on the rule-heavy bench flow and `lint-chain`
  /// (millions of instructions on the 20,000-screen flow); the rules not named follow in
  /// their order. Rules that read only the graph come before those that wait for
  /// `ScreenFacts`, so the thread that built the graph has work while the other numbers names.
  static let costOrder = [
    ShadowedRuleRule().id,  // 40, graph only
    ClosedLoopRule().id,  // 38, graph only
    UncollectedVariableRule().id,  // 61 (460 on `lint-chain`)
    ImpossibleConditionRule().id,  // 68
    InvalidRangeRule().id,  // 11
  ]

  /// Every rule's findings, in `rules`' order.
  static func run(
    _ rules: [any LintRule], context: MadeOnce<CheckContext>, facts: MadeOnce<ScreenFacts>
  ) -> [RuleFindings] {
    let heavy = costOrder.compactMap { id in rules.firstIndex { $0.id == id } }
    let order = heavy + rules.indices.filter { !heavy.contains($0) }
    let next = Locked(0)
    let results = Locked([RuleFindings](repeating: RuleFindings([]), count: rules.count))
    DispatchQueue.concurrentPerform(iterations: 2) { thread in
      if thread == 0 { _ = context.value() } else { _ = facts.value() }
      while true {
        let taken = next.withLock { next in
          defer { next += 1 }
          return next
        }
        guard taken < order.count else { break }
        let index = order[taken]
        let found = RuleFindings(rules[index], context.value())
        results.withLock { $0[index] = found }
      }
    }
    return results.withLock { $0 }
  }
}

extension LintSchedule {
  /// From this many joined diagnostics the check frees the context on its own thread before
  /// joining them (1.7 M instructions on `lint-chain`): freed on another thread meanwhile, the
  /// graph (2.3 MB of edges there) and the joined diagnostics (2 MB, when they were
  /// `Diagnostic`s; now their sort keys, 0.7 MB) were resident together, the check's peak.
  static let freedFirst = 4_096

  /// Frees `context` (the graph and the shared facts: 40 M instructions on the rule-heavy
  /// flow) on another thread while the caller sorts and writes the report.
  static func release(_ context: consuming CheckContext) {
    // Moved into the box, so the caller keeps no reference that could be the last.
    let retired = Locked<CheckContext?>(consume context)
    DispatchQueue.global().async { retired.withLock { $0 = nil } }
  }
}
