import FlowExpression
import FlowFormat
import OrderedCollections
import Yams

/// A script document as a located tree, from YAML (Yams' composed nodes) or JSON (`JSONParser`),
/// so the parser below reads both the same way.
public struct ScriptNode: Sendable {
  public enum Scalar: Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
  }

  public struct Member: Sendable {
    public var key: String
    public var keyLocation: SourceLocation
    public var value: ScriptNode
  }

  public enum Kind: Sendable {
    case scalar(Scalar)
    case mapping([Member])
    case sequence([ScriptNode])
  }

  public var kind: Kind
  public var location: SourceLocation
  /// A scalar's text as written (`2026-01-01T00:00:00Z` stays a string whatever YAML resolves).
  public var text: String?

  /// `a string`, `a number`, `a list`, ... for type-mismatch messages.
  public var typeName: String {
    switch kind {
    case .scalar(.null): "null"
    case .scalar(.bool): "a boolean"
    case .scalar(.integer), .scalar(.number): "a number"
    case .scalar(.string): "a string"
    case .mapping: "a mapping"
    case .sequence: "a list"
    }
  }

  public var members: [Member]? {
    if case .mapping(let members) = kind { return members }
    return nil
  }

  public var elements: [ScriptNode]? {
    if case .sequence(let elements) = kind { return elements }
    return nil
  }

  /// A string scalar, or the text of any non-null scalar (numbers and booleans read as
  /// labels and ids keep their spelling).
  public var scalarText: String? {
    switch kind {
    case .scalar(.string(let s)): s
    case .scalar(.null): nil
    case .scalar: text
    default: nil
    }
  }

  /// The node as a runtime value (mappings keep their order).
  public var value: Value {
    switch kind {
    case .scalar(.null): .null
    case .scalar(.bool(let b)): .bool(b)
    case .scalar(.integer(let i)): .number(Double(i))
    case .scalar(.number(let d)): .number(d)
    case .scalar(.string(let s)): .string(s)
    case .sequence(let elements): .list(elements.map(\.value))
    case .mapping(let members):
      .object(OrderedDictionary(members.map { ($0.key, $0.value.value) }, uniquingKeysWith: { _, last in last }))
    }
  }
}

/// Maps Yams' 1-based line:column marks (columns in Unicode scalars) to `SourceLocation`s with
/// byte offsets, so `DiagnosticFormatter` can quote the line.
struct LineTable {
  let bytes: [UInt8]
  let lineStarts: [Int]

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    var starts = [0]
    for (i, byte) in bytes.enumerated() where byte == 0x0A { starts.append(i + 1) }
    lineStarts = starts
  }

  func location(line: Int, column: Int) -> SourceLocation {
    guard line >= 1, line <= lineStarts.count else {
      return SourceLocation(line: max(line, 1), column: max(column, 1), offset: bytes.count)
    }
    var offset = lineStarts[line - 1]
    var scalars = 1
    while scalars < column, offset < bytes.count, bytes[offset] != 0x0A {
      offset += 1
      while offset < bytes.count, bytes[offset] & 0xC0 == 0x80 { offset += 1 }
      scalars += 1
    }
    return SourceLocation(line: line, column: column, offset: offset)
  }

  func location(_ mark: Mark?) -> SourceLocation {
    guard let mark else { return SourceLocation(line: 1, column: 1, offset: 0) }
    return location(line: mark.line, column: mark.column)
  }
}

public enum ScriptNodeReader {
  /// Reads YAML text into located nodes; a syntax problem is one `script.syntax` diagnostic.
  /// Scripts in the subset `SubsetYAML` reads (nearly all) skip Yams; the others, and every
  /// text with an error, are composed by Yams.
  public static func yaml(_ bytes: [UInt8], file: String) -> (ScriptNode?, [Diagnostic]) {
    if let node = SubsetYAML.parse(bytes) { return (node, []) }
    return yamsTree(bytes, file: file)
  }

  /// Reads YAML text with Yams (the whole of YAML 1.1, its syntax errors and positions),
  /// once `YAMLBounds` has found its nesting and aliases within bounds.
  static func yamsTree(_ bytes: [UInt8], file: String) -> (ScriptNode?, [Diagnostic]) {
    let table = LineTable(bytes)
    let text = String(decoding: bytes, as: UTF8.self)
    if let problem = YAMLBounds.check(text, table: table, file: file) { return (nil, [problem]) }
    do {
      guard let root = try Yams.compose(yaml: text) else {
        return (nil, [Diagnostic(.Script.empty, message: "the script is empty", file: file)])
      }
      var diagnostics: [Diagnostic] = []
      let node = convert(root, table: table, file: file, diagnostics: &diagnostics)
      return (node, diagnostics)
    } catch let error as YamlError {
      return (nil, [syntaxDiagnostic(error, table: table, file: file)])
    } catch {
      return (nil, [Diagnostic(.Script.syntax, message: "\(error)", file: file)])
    }
  }

  /// Reads JSON text with `JSONParser` (its diagnostics keep their `json.*` ids).
  static func json(_ bytes: [UInt8], file: String) -> (ScriptNode?, [Diagnostic]) {
    let (root, diagnostics) = JSONParser.parse(bytes, file: file)
    return (root.map(convert), diagnostics)
  }

  static func convert(_ value: JSONValue) -> ScriptNode {
    switch value.kind {
    case .null: return ScriptNode(kind: .scalar(.null), location: value.location, text: "null")
    case .bool(let b): return ScriptNode(kind: .scalar(.bool(b)), location: value.location, text: b ? "true" : "false")
    case .number(let d, let isInteger):
      let text = JSONWriter.number(d)
      if isInteger, d == d.rounded(), abs(d) < 9_007_199_254_740_992 {
        return ScriptNode(kind: .scalar(.integer(Int64(d))), location: value.location, text: text)
      }
      return ScriptNode(kind: .scalar(.number(d)), location: value.location, text: text)
    case .string(let s): return ScriptNode(kind: .scalar(.string(s)), location: value.location, text: s)
    case .array(let elements): return ScriptNode(kind: .sequence(elements.map(convert)), location: value.location)
    case .object(let object):
      return ScriptNode(
        kind: .mapping(
          object.members.map { Member(key: $0.key, keyLocation: $0.keyLocation, value: convert($0.value)) }),
        location: value.location)
    }
  }

  typealias Member = ScriptNode.Member

  static func convert(_ node: Node, table: LineTable, file: String, diagnostics: inout [Diagnostic]) -> ScriptNode {
    let location = table.location(node.mark)
    switch node {
    case .scalar(let scalar):
      let raw = scalar.string
      // Fast path: quoted scalars, and plain ones that start with a letter and are no YAML
      // keyword, are strings (tag resolution runs several regular expressions per scalar).
      if scalar.style != .plain || plainString(raw) {
        return ScriptNode(kind: .scalar(.string(raw)), location: location, text: raw)
      }
      return ScriptNode(kind: .scalar(resolvedKind(node, raw: raw)), location: location, text: raw)
    case .sequence(let sequence):
      return ScriptNode(
        kind: .sequence(sequence.map { convert($0, table: table, file: file, diagnostics: &diagnostics) }),
        location: location)
    case .mapping(let mapping):
      var members: [Member] = []
      for (key, value) in mapping {
        let keyLocation = table.location(key.mark)
        guard case .scalar(let scalar) = key else {
          diagnostics.append(
            Diagnostic(
              .Script.typeMismatch, message: "a key must be a plain string",
              file: file, location: keyLocation))
          continue
        }
        members.append(
          Member(
            key: scalar.string, keyLocation: keyLocation,
            value: convert(value, table: table, file: file, diagnostics: &diagnostics)))
      }
      return ScriptNode(kind: .mapping(members), location: location)
    case .alias:
      diagnostics.append(
        Diagnostic(
          .Script.unsupported, message: "YAML aliases are not supported in scripts",
          file: file, location: location))
      return ScriptNode(kind: .scalar(.null), location: location, text: nil)
    }
  }

  /// A composed plain scalar typed by its resolved tag (Yams' default resolver and constructor).
  static func resolvedKind(_ node: Node, raw: String) -> ScriptNode.Scalar {
    switch Tag.Name(rawValue: node.tag.rawValue) {
    case .null: .null
    case .bool: node.bool.map { .bool($0) } ?? .string(raw)
    case .int:
      if let i = node.int { .integer(Int64(i)) } else { node.float.map { .number($0) } ?? .string(raw) }
    case .float: node.float.map { .number($0) } ?? .string(raw)
    default: .string(raw)
    }
  }

  /// A plain scalar's type, exactly as `convert` types a composed one: strings, small decimal
  /// integers, `true`, `false`, `null` and `~` directly; anything else through Yams' resolver.
  static func plainKind(_ raw: String) -> ScriptNode.Scalar {
    if plainString(raw) { return .string(raw) }
    let utf8 = raw.utf8
    if let first = utf8.first, first >= UInt8(ascii: "1"), first <= UInt8(ascii: "9"), utf8.count <= 18,
      utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let value = Int64(raw)
    {
      return .integer(value)
    }
    switch raw {
    case "0": return .integer(0)
    case "true": return .bool(true)
    case "false": return .bool(false)
    case "null", "~": return .null
    default: return resolvedKind(.scalar(.init(raw, Tag(.implicit), .plain)), raw: raw)
    }
  }

  static let keywords: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null"]

  static func plainString(_ text: String) -> Bool {
    let utf8 = text.utf8
    guard let byte = utf8.first else { return false }
    if byte < 0x80 {
      guard (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) else { return false }
    } else {
      guard let first = text.unicodeScalars.first, first.properties.isAlphabetic else { return false }
    }
    // No keyword is longer than five bytes, and no longer text lowercases to one. ASCII text
    // is compared as its bytes folded to lowercase (`lowercased` and a hashed lookup cost
    // about 400 instructions for each short value of a script: `Alex`, `a`, `Next`).
    guard utf8.count <= 5 else { return true }
    var copy = text
    let folded = copy.withUTF8 { bytes -> UInt64? in
      var folded: UInt64 = 0
      for offset in 0..<bytes.count {
        guard bytes[offset] < 0x80 else { return nil }
        folded |= UInt64(bytes[offset] | 0x20) << (8 * offset)
      }
      return folded
    }
    guard let folded else { return !keywords.contains(text.lowercased()) }
    return !YAMLText.isReservedWord(folded)
  }

  static func syntaxDiagnostic(_ error: YamlError, table: LineTable, file: String) -> Diagnostic {
    func make(_ problem: String, _ mark: Mark?, _ context: YamlError.Context?) -> Diagnostic {
      var notes: [Diagnostic.Note] = []
      if let context {
        notes.append(.init(context.text, at: table.location(context.mark)))
      }
      return Diagnostic(
        .Script.syntax, message: problem, file: file,
        location: mark.map { table.location($0) }, notes: notes)
    }
    switch error {
    case .scanner(let context, let problem, let mark, _),
      .parser(let context, let problem, let mark, _),
      .composer(let context, let problem, let mark, _):
      return make(problem, mark, context)
    case .duplicatedKeysInMapping(let duplicates, let context):
      return Diagnostic(
        .Script.duplicateKey,
        message: "duplicate key \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) in a mapping",
        file: file, location: table.location(context.mark))
    case .reader(let problem, let offset, _, _):
      let location = offset.map { o in
        let clamped = min(max(o, 0), table.bytes.count)
        let line = table.lineStarts.lastIndex { $0 <= clamped }.map { $0 + 1 } ?? 1
        return SourceLocation(line: line, column: clamped - table.lineStarts[line - 1] + 1, offset: clamped)
      }
      return Diagnostic(.Script.syntax, message: problem, file: file, location: location)
    default:
      return Diagnostic(.Script.syntax, message: "\(error)", file: file)
    }
  }
}
