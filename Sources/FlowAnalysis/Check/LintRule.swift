import FlowExpression
import FlowFormat

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

  public init(file: String, document: FlowDocument, source: [UInt8]) {
    self.file = file
    self.document = document
    self.graph = FlowGraph(document: document)
    self.paths = JSONPathIndex(source: source)
  }

  /// A diagnostic of `rule` at `location`, with the JSON path of the value there.
  public func diagnostic(
    _ rule: some LintRule, _ message: String, at location: SourceLocation?, notes: [Diagnostic.Note] = []
  ) -> Diagnostic {
    Diagnostic(
      id: rule.id, severity: rule.severity, message: message, file: file, location: location,
      path: location.flatMap { paths.path(at: $0) }, notes: notes)
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

  /// Every collecting block of the document by field name.
  public var blocksByField: [String: [Block]] {
    var result: [String: [Block]] = [:]
    for flow in document.flows {
      for screen in flow.screens {
        for block in screen.content.flatBlocks {
          if let field = block.fieldName { result[field, default: []].append(block) }
        }
      }
    }
    return result
  }
}

/// Maps the position of every JSON object and array back to its JSON path.
public struct JSONPathIndex: Sendable {
  private var byOffset: [Int: String] = [:]

  public init(source: [UInt8]) {
    guard !source.isEmpty, let root = JSONParser.parse(source).0 else { return }
    walk(root, "")
  }

  public func path(at location: SourceLocation) -> String? { byOffset[location.offset] }

  private mutating func walk(_ value: JSONValue, _ path: String) {
    switch value.kind {
    case .object(let object):
      byOffset[value.location.offset] = path
      for member in object.members {
        walk(member.value, path.isEmpty ? member.key : "\(path).\(member.key)")
      }
    case .array(let items):
      byOffset[value.location.offset] = path
      for (index, item) in items.enumerated() { walk(item, "\(path)[\(index)]") }
    default:
      if byOffset[value.location.offset] == nil { byOffset[value.location.offset] = path }
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
    ShadowedRuleRule(),
    ImpossibleConditionRule(),
    UncollectedVariableRule(),
    DuplicateFieldRule(),
    InvalidRangeRule(),
    InvalidRegexRule(),
    UnhandledFailureRule(),
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
      let context = CheckContext(file: result.file, document: document, source: result.source)
      for rule in rules { diagnostics += rule.check(context) }
    }
    return diagnostics.sortedForDisplay()
  }

  /// Loads and checks JSON text (for tests and examples).
  public static func check(json: String, file: String = "example.json") -> [Diagnostic] {
    check(FlowLoader.load(bytes: Array(json.utf8), file: file))
  }
}
