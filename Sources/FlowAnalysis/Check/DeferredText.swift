import FlowFormat

/// The message and notes of a rule's diagnostics, written only when a report shows them.
///
/// A rule that reports thousands of problems with long notes (`check.uncollected-variable` on
/// `lint-chain`: 21,714 diagnostics whose notes name 21 screens each) keeps a few numbers per
/// diagnostic instead: a text report shows the first `Limits.shownDiagnostics`, and a JSON
/// report writes one diagnostic at a time. Until then the diagnostic's message is a marker
/// (`DeferredText.marker`, short enough to be stored inline) and it has no notes.
protocol DeferredTexts: Sendable {
  /// Sets the message and notes of the diagnostic whose marker stands for `index`.
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
/// number (`add(_:text:at:_:)`, 16 bytes) until the check joins the rules' findings after
/// lint: as a `Diagnostic` (96 bytes) each, `lint-chain`'s 21,714 were 2.1 MB of lint's peak.
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

  /// Appends the diagnostics to `all` in the rule's order (those that wait as
  /// `CheckContext.diagnostic` makes them) and empties the findings.
  mutating func move(to all: inout [Diagnostic]) {
    var next = 0
    func appendWaiting(upTo end: Int) {
      guard let made else { return }
      while next < end {
        let (location, text) = waiting[next]
        all.append(
          Diagnostic(
            made.id, message: DeferredText.marker(Int(text)), file: made.file, location: location,
            path: made.paths ? PendingPath.marker(location.offset) : nil, notes: []))
        next += 1
      }
    }
    for (index, diagnostic) in diagnostics.enumerated() {
      appendWaiting(upTo: waitingBefore[index])
      all.append(diagnostic)
    }
    appendWaiting(upTo: waiting.count)
    self = RuleFindings([], texts: texts)
  }

  /// Every diagnostic with its text.
  var completed: [Diagnostic] {
    var all: [Diagnostic] = []
    all.reserveCapacity(count)
    var findings = self
    findings.move(to: &all)
    guard let texts else { return all }
    return all.map(texts.completed)
  }
}

/// A file's diagnostics in display order, the lint rules' among them; some of those are written
/// only when asked for (`complete(_:)`, or `completed`).
public struct CheckReport: Sendable {
  /// In display order. A diagnostic whose text waits has a marker for its message and no
  /// notes; its id, severity, file, location and path are final (`--strict` may change the
  /// severity).
  public var diagnostics: [Diagnostic]
  /// The texts that wait, by rule id.
  let texts: [String: any DeferredTexts]

  /// A report of diagnostics that all have their text.
  public init(_ diagnostics: [Diagnostic]) {
    self.init(diagnostics, texts: [:])
  }

  init(_ diagnostics: [Diagnostic], texts: [String: any DeferredTexts]) {
    self.diagnostics = diagnostics
    self.texts = texts
  }

  /// `diagnostic`, one of `diagnostics`, with its message and notes.
  public func complete(_ diagnostic: Diagnostic) -> Diagnostic {
    texts[diagnostic.id]?.completed(diagnostic) ?? diagnostic
  }

  /// The diagnostics of `reports` in order, as `DiagnosticFormatter.writeJSON(count:diagnostic:)`
  /// asks for them: by position, each with its text.
  public static func diagnostics(of reports: [CheckReport]) -> (count: Int, diagnostic: @Sendable (Int) -> Diagnostic) {
    var ends: [Int] = []
    for report in reports { ends.append((ends.last ?? 0) + report.diagnostics.count) }
    return (
      ends.last ?? 0,
      { [ends] index in
        // The first report whose end is past `index`.
        var low = 0
        var high = ends.count - 1
        while low < high {
          let mid = (low + high) / 2
          if ends[mid] > index { high = mid } else { low = mid + 1 }
        }
        let start = low == 0 ? 0 : ends[low - 1]
        return reports[low].complete(reports[low].diagnostics[index - start])
      }
    )
  }

  /// The diagnostics with their texts, each written when reached.
  public var completed: LazyMapSequence<[Diagnostic], Diagnostic> {
    diagnostics.lazy.map(complete)
  }
}
