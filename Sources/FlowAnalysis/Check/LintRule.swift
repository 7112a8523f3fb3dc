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
  public let paths: JSONPathIndex
  /// The file's bytes.
  public let source: [UInt8]
  /// The document's regular expressions with their string literals (`LoadResult.patterns`).
  public let patterns: [PatternSite]
  /// The dense graph and per-screen reads and fields several rules share.
  let facts: ScreenFacts

  /// `syntax`: the parsed source when the loader kept it (else it is parsed again when a
  /// diagnostic first needs a JSON path).
  public init(
    file: String, document: FlowDocument, source: [UInt8], syntax: JSONValue? = nil, patterns: [PatternSite] = []
  ) {
    self.file = file
    self.document = document
    self.graph = FlowGraph(document: document)
    self.facts = ScreenFacts(graph)
    self.paths = JSONPathIndex(source: source, syntax: syntax)
    self.source = source
    self.patterns = patterns
  }

  /// A diagnostic of `rule` at `location`, with the JSON path of the value there (or of the value
  /// at `value`, for a location inside a string).
  public func diagnostic(
    _ rule: some LintRule, _ message: String, at location: SourceLocation?, inValueAt value: SourceLocation? = nil,
    notes: [Diagnostic.Note] = []
  ) -> Diagnostic {
    Diagnostic(
      rule.diagnosticID, message: message, file: file, location: location,
      path: (value ?? location).flatMap { paths.path(at: $0) }, notes: notes)
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

/// Maps the position of every JSON object and array back to its JSON path.
///
/// Built lazily: the source is parsed again only when the first path is asked for (a clean
/// document never asks), and a path is found by descending to the value at that offset rather
/// than by rendering the path of every value in the document.
public struct JSONPathIndex: Sendable {
  private let storage: Storage

  public init(source: [UInt8], syntax: JSONValue? = nil) {
    storage = Storage(source: source, syntax: syntax)
  }

  public func path(at location: SourceLocation) -> String? { storage.path(at: location.offset) }

  /// Where the value at `keys` (`["content", "min"]`) inside the object at `location` is, or
  /// nil: a diagnostic about one key points at it, not at its enclosing object.
  public func location(of keys: [String], inObjectAt location: SourceLocation) -> SourceLocation? {
    storage.location(of: keys, inObjectAt: location.offset)
  }

  /// The parsed source, built on first use. The lock makes the lazy parse safe to share.
  private final class Storage: Sendable {
    private let source: [UInt8]
    /// The parsed root, once parsed (`.some(nil)`: the source does not parse).
    private let root: Locked<JSONValue??>

    init(source: [UInt8], syntax: JSONValue?) {
      self.source = source
      root = Locked(syntax.map { .some($0) })
    }

    func path(at offset: Int) -> String? {
      withRoot { Self.path(to: offset, in: $0)?.path }
    }

    func location(of keys: [String], inObjectAt offset: Int) -> SourceLocation? {
      withRoot { root in
        var value = Self.path(to: offset, in: root)?.value
        for key in keys { value = value?.objectValue?.members.first { $0.key == key }?.value }
        return value?.location
      }
    }

    private func withRoot<T>(_ body: (JSONValue) -> T?) -> T? {
      root.withLock { root in
        if case .none = root { root = .some(source.isEmpty ? nil : JSONParser.parse(source).0) }
        guard case .some(.some(let parsed)) = root else { return nil }
        return body(parsed)
      }
    }

    /// The path of the value starting at `offset`, and the value: children are in source order,
    /// so each step goes into the last child starting at or before it.
    static func path(to offset: Int, in root: JSONValue) -> (path: String, value: JSONValue)? {
      var value = root
      var path = ""
      while value.location.offset != offset {
        switch value.kind {
        case .object(let object):
          let members = object.members
          guard let i = lastIndex(in: members.count, atOrBefore: offset, { members[$0].value.location.offset }) else {
            return nil
          }
          let key = members[i].key
          path = path.isEmpty ? key : "\(path).\(key)"
          value = members[i].value
        case .array(let items):
          guard let i = lastIndex(in: items.count, atOrBefore: offset, { items[$0].location.offset }) else {
            return nil
          }
          path = "\(path)[\(i)]"
          value = items[i]
        default:
          return nil
        }
      }
      return (path, value)
    }

    /// The last index whose offset is at or before `offset` (offsets increase), or nil.
    private static func lastIndex(in count: Int, atOrBefore offset: Int, _ offsetOf: (Int) -> Int) -> Int? {
      var low = 0
      var high = count
      while low < high {
        let mid = (low + high) / 2
        if offsetOf(mid) <= offset { low = mid + 1 } else { high = mid }
      }
      return low == 0 ? nil : low - 1
    }
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
  public static func check(_ result: LoadResult, rules: [any LintRule] = LintRegistry.rules) -> [Diagnostic] {
    var diagnostics = result.diagnostics
    if let document = result.document, !document.flows.isEmpty {
      let context = CheckContext(
        file: result.file, document: document, source: result.source, syntax: result.syntax, patterns: result.patterns)
      for rule in rules { diagnostics += rule.check(context) }
    }
    return diagnostics.sortedForDisplay()
  }

  /// Loads and checks JSON text (for tests and examples).
  public static func check(json: String, file: String = "example.json") -> [Diagnostic] {
    check(FlowLoader.load(bytes: Array(json.utf8), file: file))
  }
}
