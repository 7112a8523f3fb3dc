import FlowExpression

/// AppDNA's `{{ns.path | fallback}}` templates and dot-paths, compiled to flowrun's templates
/// and names. Collected data is one map of field ids (docs/dialects/appdna.md), so
/// `onboarding.<step>.<field>.<sub>` reads `<field>.<sub>`.
extension DecodeContext {
  /// The template of AppDNA text: each `{{path | fallback}}` becomes `{name | default: 'fallback'}`
  /// (an unresolved path gives the fallback, or nothing); a path flowrun cannot resolve yet
  /// (`computed`, `session`, `remote_config`) gives its fallback. Other braces stay literal.
  mutating func appdnaTemplate(_ text: String, at location: SourceLocation?) -> TextTemplate {
    guard text.contains("{") else { return TextTemplate(template: Template(parsing: text), location: location) }
    var out = ""
    var rest = Substring(text)
    while let open = rest.firstRange(of: "{{") {
      out += Self.escapingBraces(rest[..<open.lowerBound])
      let afterOpen = rest[open.upperBound...]
      guard let close = afterOpen.firstRange(of: "}}"), !afterOpen[..<close.lowerBound].contains("}") else {
        out += "\\{\\{"
        rest = afterOpen
        continue
      }
      let token = afterOpen[..<close.lowerBound]
      let parts = token.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
      let path = String(parts[0]).trimmingWhitespace
      let fallback = parts.count > 1 ? String(parts[1]).trimmingWhitespace : ""
      if let name = Self.appdnaName(path, verbatim: options.iosQuirks) {
        out += "{\(name) | default: \(Self.quoted(fallback))}"
      } else {
        out += Self.escapingBraces(Substring(fallback))
      }
      rest = afterOpen[close.upperBound...]
    }
    out += Self.escapingBraces(rest)
    return TextTemplate(template: Template(parsing: out), location: location)
  }

  /// The flowrun name an AppDNA dot-path reads, or nil when flowrun has no value for it.
  /// `verbatim`: iOS 1.0.70 splits `onboarding.<step>.<rest>` in three and looks `<rest>` up as
  /// one key, so a nested path (`user_location.city`) reads nothing.
  static func appdnaName(_ path: String, verbatim: Bool = false) -> String? {
    let segments = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard segments.allSatisfy(isIdentifier) else { return nil }
    switch segments.first {
    case "onboarding", "responses":
      guard segments.count >= 3, !verbatim || segments.count == 3 else { return nil }
      // A legacy question's answer is stored under its step id.
      let field = segments[2] == "selected" ? segments[1] : segments[2]
      return ([field] + segments.dropFirst(3)).joined(separator: ".")
    case "input":
      return segments.count >= 2 ? segments.dropFirst().joined(separator: ".") : nil
    case "user":
      return segments.count >= 2 ? (["$user"] + segments.dropFirst()).joined(separator: ".") : nil
    case "device":
      return segments.count == 2 ? ["platform": "$platform", "locale": "$locale"][segments[1]] : nil
    default:
      return nil
    }
  }

  private static func isIdentifier(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
    return text.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
  }

  private static func escapingBraces(_ text: Substring) -> String {
    text.reduce(into: "") { out, character in out += character == "{" ? "\\{" : String(character) }
  }

  static func quoted(_ text: String) -> String {
    text.contains("'") ? "\"" + text.filter { $0 != "\"" } + "\"" : "'\(text)'"
  }
}
