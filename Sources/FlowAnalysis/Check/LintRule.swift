import FlowExpression
import FlowFormat
import FlowSupport

/// One lint rule of `flowrun check`: stable metadata plus the check itself.
///
/// (The protocol is `LintRule` rather than `Rule` so it does not clash with `FlowFormat.Rule`,
/// the branching rule of a screen.) Every rule documents a flow that triggers it and one that
/// does not; `ChecksDocumentation` turns the metadata into `docs/checks.md`, and one generic
/// test runs every rule on both examples.
public protocol LintRule: Sendable {
  /// Stable id, `check.<kebab-name>`.
  var id: String { get }
  /// One line, lowercase, no trailing period.
  var summary: String { get }
  /// The severity of what the rule reports.
  var severity: Severity { get }
  /// A longer explanation for the documentation (may be empty).
  var details: String { get }
  /// A flow (JSON) the rule reports on.
  var triggeringExample: String { get }
  /// A similar flow (JSON) the rule is silent on.
  var cleanExample: String { get }
  /// The diagnostic ids the rule stands for: its own id, or the loader's ids when the loader
  /// already reports the problem (then `check` returns nothing and the rule only documents).
  var diagnosticIDs: [String] { get }
  /// The problems in one loaded document.
  func check(_ context: CheckContext) -> [Diagnostic]
}

extension LintRule {
  public var details: String { "" }
  public var diagnosticIDs: [String] { [id] }
  /// The rule as an entry of the diagnostic-id catalogue (`DiagnosticID.Check`).
  public var diagnosticID: DiagnosticID { DiagnosticID(id, severity, summary) }
  /// True when the loader reports this problem and the rule only documents it.
  public var isReportedByLoader: Bool { diagnosticIDs != [id] }
}

/// A rule whose problem the loader already reports: documentation only, nothing to run.
public protocol LoaderReportedRule: LintRule {}

extension LoaderReportedRule {
  public func check(_ context: CheckContext) -> [Diagnostic] { [] }
}

/// Everything a rule may look at: the document, its graph and the way back to JSON paths.
public struct CheckContext: Sendable {
  public let file: String
  public let document: FlowDocument
  public let graph: FlowGraph
  /// JSON paths from the file's bytes.
  public var paths: JSONPathIndex { JSONPathIndex(source: source) }
  /// The file's bytes (a held file's read back when first asked for: only some rules' rare
  /// findings and `--format json`'s paths need them).
  public var source: [UInt8] { sourceBytes.value() }
  private let sourceBytes: MadeOnce<[UInt8]>
  /// The document's regular expressions with their string literals (`LoadResult.patterns`).
  public let patterns: [PatternSite]
  /// `graph`'s screen edges on dense node numbers, for the rules' searches.
  let dense: DenseScreenGraph
  /// The per-screen reads and fields several rules share, worked out when first asked for.
  var facts: ScreenFacts { sharedFacts.value() }
  private let sharedFacts: MadeOnce<ScreenFacts>
  /// How `diagnostic(_:_:at:)` fills in JSON paths.
  let pathFilling: PathFilling

  /// When a diagnostic's JSON path is found.
  enum PathFilling {
    /// At once, one scan of the source per diagnostic.
    case now
    /// Later, all in one scan: the path holds `PendingPath`'s marker until `FlowChecker` fills it.
    case deferred
    /// Never (the caller prints no paths).
    case omitted
  }

  public init(file: String, document: FlowDocument, source: [UInt8], patterns: [PatternSite] = []) {
    self.init(
      file: file, document: document, source: MadeOnce { source }, patterns: patterns, pathFilling: .now,
      facts: MadeOnce { ScreenFacts(document) })
  }

  init(
    file: String, document: FlowDocument, source: MadeOnce<[UInt8]>, patterns: [PatternSite],
    pathFilling: PathFilling, facts: MadeOnce<ScreenFacts>
  ) {
    self.file = file
    self.document = document
    self.graph = FlowGraph(document: document)
    self.dense = DenseScreenGraph(graph)
    self.sharedFacts = facts
    self.sourceBytes = source
    self.patterns = patterns
    self.pathFilling = pathFilling
  }

  /// A diagnostic of `rule` at `location`, with the JSON path of the value there (or of the value
  /// at `value`, for a location inside a string).
  public func diagnostic(
    _ rule: some LintRule, _ message: String, at location: SourceLocation?, inValueAt value: SourceLocation? = nil,
    notes: [Diagnostic.Note] = []
  ) -> Diagnostic {
    let at = value ?? location
    let path: String? =
      switch pathFilling {
      case .now: at.flatMap { paths.path(at: $0) }
      case .deferred: at.map { PendingPath.marker($0.offset) }
      case .omitted: nil
      }
    return Diagnostic(
      rule.diagnosticID, message: message, file: file, location: location, path: path, notes: notes)
  }

  /// `flow 'x' screen 'y'` style name of a node for messages (the flow only in bundles).
  public func name(_ node: ScreenNode) -> String {
    let screen = graph.screen(node).id
    return document.flows.count > 1 ? "\(graph.flow(node).id)/\(screen)" : screen
  }

  /// `welcome → plan`.
  public func describe(_ path: [ScreenNode]) -> String {
    path.map(name).joined(separator: " → ")
  }
}

/// The lint rules in the order they run and are documented.
public enum LintRegistry {
  public static let rules: [any LintRule] = [
    UnknownReferenceRule(),
    UnreachableScreenRule(),
    DeadEndRule(),
    ClosedLoopRule(),
    OnEnterLoopRule(),
    ShadowedRuleRule(),
    ImpossibleConditionRule(),
    UncollectedVariableRule(),
    DuplicateFieldRule(),
    InvalidRangeRule(),
    InvalidRegexRule(),
    RegexBacktrackingRule(),
    UnhandledFailureRule(),
    TemplateBeforeAnswerRule(),
    SubflowCycleRule(),
  ]

  public static func rule(_ id: String) -> (any LintRule)? {
    rules.first { $0.id == id || $0.diagnosticIDs.contains(id) }
  }
}

/// Runs the lint rules on loaded documents.
public enum FlowChecker {
  /// The loader's diagnostics plus every rule's, in display order. Rules run only on documents
  /// that loaded (a document with load errors other than references still gets them).
  /// `jsonPaths: false` leaves the rules' diagnostics without JSON paths, for a report that
  /// prints none (text): finding them scans the file.
  public static func check(
    _ result: LoadResult, rules: [any LintRule] = LintRegistry.rules, jsonPaths: Bool = true
  ) -> [Diagnostic] {
    Array(report(result, rules: rules, jsonPaths: jsonPaths).completed)
  }

  /// `check`'s diagnostics as a report whose long texts are written only when asked for
  /// (`CheckReport`): a report that shows a thousand of tens of thousands, or writes them one
  /// at a time, never holds them all.
  public static func report(
    _ result: LoadResult, rules: [any LintRule] = LintRegistry.rules, jsonPaths: Bool = true
  ) -> CheckReport {
    report(result, rules: rules, jsonPaths: jsonPaths, parallelScreens: LintSchedule.parallelScreens)
  }

  /// `check` with the rules on two threads from `parallelScreens` screens on (`LintSchedule`).
  static func check(
    _ result: LoadResult, rules: [any LintRule], jsonPaths: Bool, parallelScreens: Int
  ) -> [Diagnostic] {
    Array(report(result, rules: rules, jsonPaths: jsonPaths, parallelScreens: parallelScreens).completed)
  }

  static func report(
    _ result: LoadResult, rules: [any LintRule], jsonPaths: Bool, parallelScreens: Int
  ) -> CheckReport {
    guard let document = result.document, !document.flows.isEmpty else {
      return CheckReport(result.diagnostics.sortedForDisplay())
    }
    let parallel = rules.count > 1 && document.flows.reduce(0, { $0 + $1.screens.count }) >= parallelScreens
    let (findings, context) = lint(result, document, rules: rules, jsonPaths: jsonPaths, parallel: parallel)
    // Freed before the diagnostics are joined: the graph and the shared facts alive while the
    // joined diagnostics are made and sorted were the peak of `lint-chain`'s check. The paths'
    // index reads the source, which a held file (`LoadResult.held`) reads back whole: only for
    // JSON paths.
    let paths = jsonPaths ? context.paths : nil
    var found = consume findings
    let count = found.reduce(result.diagnostics.count) { $0 + $1.count }
    if parallel && count < LintSchedule.freedFirst {
      LintSchedule.release(consume context)
    } else {
      _ = consume context
    }
    var whole = result.diagnostics
    var waiting: [WaitingDiagnostics] = []
    var joined = Array(0..<Int32(whole.count))
    joined.reserveCapacity(count)
    for index in found.indices {
      // Freed as it is joined: a rule's slot can hold tens of thousands of diagnostics.
      found[index].move(whole: &whole, waiting: &waiting, joined: &joined)
    }
    if let paths { PendingPath.fill(&whole[result.diagnostics.count...], &waiting, paths) }
    return CheckReport(whole, waiting: waiting, joined: joined)
  }

  /// Each rule's findings, in `rules`' order, and the context they were found in (the
  /// caller holds the only reference to it, so it can be freed elsewhere).
  private static func lint(
    _ result: LoadResult, _ document: FlowDocument, rules: [any LintRule], jsonPaths: Bool, parallel: Bool
  ) -> ([RuleFindings], CheckContext) {
    let (file, patterns) = (result.file, result.patterns)
    let (bytes, held) = (result.source, result.held)
    let source = MadeOnce { held?.readAll() ?? bytes }
    let facts = MadeOnce { ScreenFacts(document) }
    let makeContext: @Sendable () -> CheckContext = {
      CheckContext(
        file: file, document: document, source: source, patterns: patterns,
        pathFilling: jsonPaths ? .deferred : .omitted, facts: facts)
    }
    guard parallel else {
      let context = makeContext()
      return (rules.map { RuleFindings($0, context) }, context)
    }
    let shared = MadeOnce(makeContext)
    return (LintSchedule.run(rules, context: shared, facts: facts), shared.value())
  }

  /// Loads and checks JSON text (for tests and examples).
  public static func check(json: String, file: String = "example.json") -> [Diagnostic] {
    check(FlowLoader.load(bytes: Array(json.utf8), file: file))
  }
}

/// The JSON path a lint diagnostic waits for while the rules run: every rule's diagnostics
/// get theirs in one scan of the source afterwards (one scan each made a report of 20,000
/// diagnostics quadratic; a kept JSON tree cost more memory than the lint rules).
enum PendingPath {
  /// A NUL, then the value's offset. Rules set paths only through `CheckContext.diagnostic`,
  /// so with deferred paths every path of a rule's diagnostic is a marker (or nil).
  static func marker(_ offset: Int) -> String { "\u{0}\(offset)" }

  /// The offset a marker stands for, or nil for any other path.
  static func offset(_ path: String?) -> Int? {
    guard let path, path.utf8.first == 0 else { return nil }
    return Int(path.dropFirst())
  }

  /// Replaces every marker in `diagnostics` with the path it stands for, and gives the
  /// `waiting` diagnostics theirs (at their locations), in one scan.
  static func fill(
    _ diagnostics: inout ArraySlice<Diagnostic>, _ waiting: inout [WaitingDiagnostics], _ paths: JSONPathIndex
  ) {
    let marked = diagnostics.indices.filter { offset(diagnostics[$0].path) != nil }
    var offsets = marked.map { offset(diagnostics[$0].path)! }
    for group in waiting { offsets += group.records.lazy.map { Int($0.location.offset) } }
    guard !offsets.isEmpty else { return }
    var found = paths.paths(at: offsets)[...]
    for index in marked { diagnostics[index].path = found.popFirst()! }
    for group in waiting.indices {
      let count = waiting[group].records.count
      waiting[group].paths = Array(found.prefix(count))
      found = found.dropFirst(count)
    }
  }
}
