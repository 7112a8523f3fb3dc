import FlowFormat

/// Diagnostics for CI systems: GitHub Actions workflow commands and SARIF 2.1.0.
public enum DiagnosticExport {
  /// One GitHub Actions annotation per diagnostic:
  /// `::error file=F,line=L,col=C,title=ID::message`.
  public static func github(_ diagnostics: [Diagnostic]) -> String {
    diagnostics.map(github).joined()
  }

  /// One diagnostic's annotation, ending with a newline.
  public static func github(_ diagnostic: Diagnostic) -> String {
    let command =
      switch diagnostic.severity {
      case .error: "error"
      case .warning: "warning"
      case .note: "notice"
      }
    var properties: [String] = []
    if let file = diagnostic.file { properties.append("file=\(escapeProperty(file))") }
    if let location = diagnostic.location {
      properties.append("line=\(location.line)")
      properties.append("col=\(location.column)")
    }
    properties.append("title=\(escapeProperty(diagnostic.id))")
    var message = diagnostic.message
    if let path = diagnostic.path { message += " (\(path))" }
    for note in diagnostic.notes { message += "\nnote: \(note.message)" }
    return "::\(command) \(properties.joined(separator: ","))::\(escapeData(message))\n"
  }

  static func escapeData(_ s: String) -> String {
    s.replacingAll("%", "%25").replacingAll("\r", "%0D").replacingAll("\n", "%0A")
  }

  static func escapeProperty(_ s: String) -> String {
    escapeData(s).replacingAll(":", "%3A").replacingAll(",", "%2C")
  }

  /// A SARIF `artifactLocation.uri` (a URI reference, RFC 3986): relative paths stay relative
  /// (code scanning resolves them against the checkout), absolute ones become `file://` URIs;
  /// every byte outside the unreserved set and `/` is percent-encoded.
  static func uri(_ path: String) -> String {
    var out = path.hasPrefix("/") ? "file://" : ""
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"), UInt8(ascii: "/"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        out.unicodeScalars.append("%")
        out.unicodeScalars.append(hex[Int(byte >> 4)])
        out.unicodeScalars.append(hex[Int(byte & 0xF)])
      }
    }
    return out
  }

  /// A minimal valid SARIF 2.1.0 log: one run, the lint rules as the driver's rules, one result
  /// per diagnostic.
  public static func sarif(
    _ diagnostics: [Diagnostic], version: String, rules: [any LintRule] = LintRegistry.rules
  ) -> String {
    var log = ""
    sarif(count: diagnostics.count, diagnostic: { diagnostics[$0] }, version: version, rules: rules) { log += $0 }
    return log
  }

  /// `sarif(_:version:rules:)` of the `count` diagnostics `diagnostic` makes, handed to `write`
  /// in pieces, a result at a time (each diagnostic made when its turn comes): `lint-chain`'s
  /// 21,714 results and their texts were never needed at once.
  public static func sarif(
    count: Int, diagnostic: (Int) -> Diagnostic, version: String, rules: [any LintRule] = LintRegistry.rules,
    to write: (String) -> Void
  ) {
    typealias V = JSONWriter.Value
    var ruleIDs: [String] = []
    var descriptors: [V] = []
    for rule in rules {
      for id in rule.isReportedByLoader ? rule.diagnosticIDs : [rule.id] where !ruleIDs.contains(id) {
        ruleIDs.append(id)
        descriptors.append(
          .object([
            ("id", .string(id)),
            ("shortDescription", .object([("text", .string(rule.summary))])),
            ("helpUri", .string("docs/checks.md#\(rule.id.replacingAll(".", ""))")),
          ]))
      }
    }
    func result(_ diagnostic: Diagnostic) -> V {
      var members: [(key: String, value: V)] = [
        ("ruleId", .string(diagnostic.id))
      ]
      if let index = ruleIDs.firstIndex(of: diagnostic.id) { members.append(("ruleIndex", .int(index))) }
      let level =
        switch diagnostic.severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
      members.append(("level", .string(level)))
      var text = diagnostic.message
      for note in diagnostic.notes { text += "\nnote: \(note.message)" }
      members.append(("message", .object([("text", .string(text))])))
      if let file = diagnostic.file {
        var physical: [(key: String, value: V)] = [("artifactLocation", .object([("uri", .string(uri(file)))]))]
        if let location = diagnostic.location {
          physical.append(
            ("region", .object([("startLine", .int(location.line)), ("startColumn", .int(location.column))])))
        }
        var location: [(key: String, value: V)] = [("physicalLocation", .object(physical))]
        if let path = diagnostic.path {
          location.append(("logicalLocations", .array([.object([("fullyQualifiedName", .string(path))])])))
        }
        members.append(("locations", .array([.object(location)])))
      }
      return .object(members)
    }
    // The log with one result standing in for all: written up to it, then each result in its
    // place (indented as the writer indents the results array's elements), then the rest.
    let placeholder = "\u{1}results"
    let log: V = .object([
      ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
      ("version", .string("2.1.0")),
      (
        "runs",
        .array([
          .object([
            (
              "tool",
              .object([
                (
                  "driver",
                  .object([
                    ("name", .string("flowrun")), ("version", .string(version)),
                    ("informationUri", .string("https://github.com/flowrun/flowrun")), ("rules", .array(descriptors)),
                  ])
                )
              ])
            ),
            ("results", count == 0 ? .array([]) : .array([.string(placeholder)])),
          ])
        ])
      ),
    ])
    let writer = JSONWriter(style: .pretty)
    let text = writer.string(log) + "\n"
    guard count > 0, let stand = text.firstRange(of: JSONWriter.quoted(placeholder)) else {
      return write(text)
    }
    write(String(text[..<stand.lowerBound]))
    // The results array's elements are at the fifth level: each line of a result written
    // alone (a raw newline is only ever the writer's) is indented four levels more.
    let indent = repeatElement(UInt8(ascii: " "), count: 4 * writer.indent)
    var piece: [UInt8] = []
    for index in 0..<count {
      if index > 0 {
        piece += ",\n".utf8
        piece += indent
      }
      for byte in writer.bytes(result(diagnostic(index))) {
        piece.append(byte)
        if byte == 0x0A { piece += indent }
      }
      if piece.count >= 1 << 16 {
        write(String(decoding: piece, as: UTF8.self))
        piece.removeAll(keepingCapacity: true)
      }
    }
    write(String(decoding: piece, as: UTF8.self) + text[stand.upperBound...])
  }
}

extension String {
  /// Every occurrence of `target` replaced (no Foundation in this module).
  func replacingAll(_ target: String, _ replacement: String) -> String {
    let needle = Array(target.unicodeScalars)
    guard !needle.isEmpty else { return self }
    // Most texts hold none of the characters escaped (graphs quote every id and label this way).
    if needle[0].isASCII, !utf8.contains(UInt8(needle[0].value)) { return self }
    let scalars = Array(unicodeScalars)
    var out = String.UnicodeScalarView()
    var i = 0
    func matches(at i: Int) -> Bool {
      guard i + needle.count <= scalars.count else { return false }
      for j in needle.indices where scalars[i + j] != needle[j] { return false }
      return true
    }
    while i < scalars.count {
      if matches(at: i) {
        out.append(contentsOf: replacement.unicodeScalars)
        i += needle.count
      } else {
        out.append(scalars[i])
        i += 1
      }
    }
    return String(out)
  }
}
