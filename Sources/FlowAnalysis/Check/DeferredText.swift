import FlowFormat

/// The message and notes of a rule's diagnostics, written only when a report shows them.
///
/// A rule that reports thousands of problems with long notes (`check.uncollected-variable` on
/// `lint-chain`: 21,714 diagnostics whose notes name 21 screens each) keeps a few numbers per
/// diagnostic instead: a text report shows the first `Limits.shownDiagnostics`, and a JSON
/// report writes one diagnostic at a time. Until then a check's report keeps the diagnostic as
/// its location and its text's number (`WaitingDiagnostics`); a rule's diagnostic made whole
/// before (a path found at once) has a marker for its message (`DeferredText.marker`, short
/// enough to be stored inline) and no notes.
protocol DeferredTexts: Sendable {
  /// Sets the message and notes of the diagnostic whose text is number `index`.
  func complete(_ diagnostic: inout Diagnostic, _ index: Int)
}

extension DeferredTexts {
  /// `diagnostic` with its text: completed when its message is a marker, else as it is.
  func completed(_ diagnostic: Diagnostic) -> Diagnostic {
    guard let index = DeferredText.index(diagnostic.message) else { return diagnostic }
    var completed = diagnostic
    complete(&completed, index)
    return completed
  }
}

enum DeferredText {
  /// A NUL, then the index: at most 15 bytes, so the string needs no allocation.
  static func marker(_ index: Int) -> String { "\u{0}\(index)" }

  /// The index a marker stands for, or nil for any other message.
  static func index(_ message: String) -> Int? {
    guard message.utf8.first == 0 else { return nil }
    return Int(message.dropFirst())
  }
}

/// What one rule found: its diagnostics, and the texts of those that wait for theirs.
///
/// A diagnostic whose text and JSON path both wait is kept as its location and its text's
/// number (`add(_:text:at:_:)`, 16 bytes), in lint and in the check's report (`CheckReport`),
/// until it is shown: as a `Diagnostic` (96 bytes) each, `lint-chain`'s 21,714 were 2.1 MB
/// of lint's peak, and after lint, joined, 2 MB to the end.
struct RuleFindings: Sendable {
  /// The rule's diagnostics made whole, in order among `waiting` (`waitingBefore`).
  private(set) var diagnostics: [Diagnostic]
  var texts: (any DeferredTexts)?
  /// How many of `waiting` come before each of `diagnostics`.
  private var waitingBefore: [Int] = []
  private var waiting: [(location: SourceLocation, text: Int32)] = []
  /// What a waiting diagnostic is made of besides its location and text.
  private var made: (id: DiagnosticID, file: String, paths: Bool)?

  init(_ diagnostics: [Diagnostic], texts: (any DeferredTexts)? = nil) {
    self.diagnostics = diagnostics
    self.texts = texts
    waitingBefore = [Int](repeating: 0, count: diagnostics.count)
  }

  /// What `rule` finds in `context`, texts deferred where the rule can defer them.
  init(_ rule: any LintRule, _ context: CheckContext) {
    // The one rule that defers, cast to by its type: a cast to a protocol looks the
    // conformance up among every record of the process, once per rule type at every start
    // (0.3 M instructions each, 4 M a check).
    if let rule = rule as? UncollectedVariableRule {
      self = rule.findings(context)
    } else {
      self.init(rule.check(context))
    }
  }

  /// How many diagnostics the rule found.
  var count: Int { diagnostics.count + waiting.count }

  /// Adds a diagnostic made whole.
  mutating func append(_ diagnostic: Diagnostic) {
    diagnostics.append(diagnostic)
    waitingBefore.append(waiting.count)
  }

  /// Room for `count` more diagnostics whose text waits.
  mutating func reserve(waiting count: Int) { waiting.reserve(count) }

  /// Adds `rule`'s diagnostic at `location` whose message is `texts`' number `text`
  /// (`DeferredText.marker`), without notes: kept as numbers while its JSON path waits too.
  mutating func add(_ rule: some LintRule, text: Int, at location: SourceLocation, _ context: CheckContext) {
    switch context.pathFilling {
    case .now: append(context.diagnostic(rule, DeferredText.marker(text), at: location))
    case .deferred, .omitted:
      made = made ?? (rule.diagnosticID, context.file, context.pathFilling == .deferred)
      waiting.append((location, Int32(text)))
    }
  }

  /// Moves the diagnostics to a report's parts (`CheckReport`), in the rule's order: those
  /// made whole to `whole` (with their texts), those that wait to `waiting` as one group, and
  /// each one's entry to `joined` (`whole`'s index, or the complement of its number among the
  /// waiting ones). Empties the findings.
  mutating func move(whole: inout [Diagnostic], waiting groups: inout [WaitingDiagnostics], joined: inout [Int32]) {
    var number = groups.reduce(0) { $0 + $1.records.count }
    var next = 0
    func joinWaiting(upTo end: Int) {
      while next < end {
        joined.append(~Int32(number))
        (number, next) = (number + 1, next + 1)
      }
    }
    for (index, diagnostic) in diagnostics.enumerated() {
      joinWaiting(upTo: waitingBefore[index])
      joined.append(Int32(whole.count))
      whole.append(texts?.completed(diagnostic) ?? diagnostic)
    }
    joinWaiting(upTo: waiting.count)
    if let made, let texts, !waiting.isEmpty {
      groups.append(WaitingDiagnostics(made: (made.id, made.file), records: waiting, texts: texts))
    }
    self = RuleFindings([], texts: texts)
  }

  /// Every diagnostic with its text, in the rule's order (with deferred JSON paths, each
  /// path a marker, as `CheckContext.diagnostic` makes them).
  var completed: [Diagnostic] {
    var whole: [Diagnostic] = []
    var groups: [WaitingDiagnostics] = []
    var joined: [Int32] = []
    let paths = made?.paths == true
    var findings = self
    findings.move(whole: &whole, waiting: &groups, joined: &joined)
    return joined.map { entry in
      guard entry < 0 else { return whole[Int(entry)] }
      var diagnostic = groups[0].diagnostic(Int(~entry))
      if paths, let location = diagnostic.location { diagnostic.path = PendingPath.marker(location.offset) }
      return diagnostic
    }
  }
}
