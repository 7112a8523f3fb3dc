// libyaml's event stream, read directly: Yams composes a whole document before we see it, and
// expanding its aliases or hashing an aliased key is where a "billion laughs" script spends
// its time. (CYaml is the libyaml that Yams builds; this file is its only other user.)
import CYaml
import FlowExpression
import FlowFormat

/// Checks, before Yams composes a script, what composing and converting it would cost: nesting
/// deeper than `Limits.nesting` (aliases included) and aliases that add more than
/// `Limits.aliasNodes` nodes are errors at the collection or alias that crosses the bound.
///
/// One pass over libyaml's events, iterative, with the size and depth of each anchored node
/// kept by name: an alias costs what its anchor's node costs, without expanding anything.
/// Syntax errors are left to Yams, which reports them (the events before one are checked).
enum YAMLBounds {
  /// The first bound `text` crosses, as a diagnostic; nil when it stays within them all.
  static func check(_ text: String, table: LineTable, file: String) -> Diagnostic? {
    _ = ownNestingLimit
    var utf8 = Array(text.utf8)
    return utf8.withUnsafeMutableBufferPointer { buffer in
      var parser = yaml_parser_t()
      guard yaml_parser_initialize(&parser) == 1 else { return nil }
      defer { yaml_parser_delete(&parser) }
      yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
      yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
      var walk = Walk()
      var event = yaml_event_t()
      while yaml_parser_parse(&parser, &event) == 1 {
        defer { yaml_event_delete(&event) }
        if event.type == YAML_STREAM_END_EVENT { return nil }
        if let problem = walk.take(event) {
          let location = table.location(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
          return Diagnostic(problem.id, message: problem.message, file: file, location: location)
        }
      }
      return nil
    }
  }

  /// libyaml's own nesting limit (1000 levels) counts the levels its scanner has read ahead
  /// (up to 1024 characters), so ten thousand `[` fail at the first one with a message about
  /// a C function. This check's limit, which is lower, replaces it: set once, before any parse.
  private static let ownNestingLimit: Void = yaml_set_max_nest_level(Int32.max)

  /// A node's cost once composed: nodes in all (aliases expanded) and collections nested.
  private struct Cost {
    var nodes = 0
    var depth = 0
  }

  private struct Walk {
    /// The collections open around the current event, each with its anchor and what its
    /// children cost so far.
    var open: [(anchor: String?, cost: Cost)] = []
    var anchors: [String: Cost] = [:]
    /// Nodes added by aliases so far.
    var expanded = 0

    /// Takes one event; the problem it raises, if any.
    mutating func take(_ event: yaml_event_t) -> (id: DiagnosticID, message: String)? {
      switch event.type {
      case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
        guard open.count < Limits.nesting else {
          return (.Script.tooDeep, "nesting deeper than \(Limits.nesting) levels")
        }
        let anchor =
          event.type == YAML_SEQUENCE_START_EVENT
          ? event.data.sequence_start.anchor : event.data.mapping_start.anchor
        open.append((anchor.map { String(cString: $0) }, Cost()))
      case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
        guard let (anchor, children) = open.popLast() else { return nil }
        finish(Cost(nodes: children.nodes + 1, depth: children.depth + 1), anchor: anchor)
      case YAML_SCALAR_EVENT:
        finish(Cost(nodes: 1, depth: 0), anchor: event.data.scalar.anchor.map { String(cString: $0) })
      case YAML_ALIAS_EVENT:
        let name = event.data.alias.anchor.map { String(cString: $0) } ?? ""
        // An undefined alias is Yams' error to report.
        guard let cost = anchors[name] else { return nil }
        expanded += cost.nodes
        guard expanded <= Limits.aliasNodes else {
          let nodes = NumberFormatting.grouped(Double(Limits.aliasNodes))
          return (
            .Script.aliasExpansion,
            "the alias *\(name) expands the script past \(nodes) nodes (aliases may add at most \(nodes) in all)"
          )
        }
        guard open.count + cost.depth <= Limits.nesting else {
          return (.Script.tooDeep, "the alias *\(name) nests the script deeper than \(Limits.nesting) levels")
        }
        finish(cost, anchor: nil)
      default:
        break
      }
      return nil
    }

    /// A node is complete: its cost goes to the collection around it, and to its anchor.
    mutating func finish(_ cost: Cost, anchor: String?) {
      if let anchor { anchors[anchor] = cost }
      guard !open.isEmpty else { return }
      open[open.count - 1].cost.nodes += cost.nodes
      open[open.count - 1].cost.depth = max(open[open.count - 1].cost.depth, cost.depth)
    }
  }
}
