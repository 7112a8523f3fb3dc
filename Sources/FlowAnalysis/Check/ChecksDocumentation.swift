import FlowFormat

/// `docs/checks.md`, generated from the rules' metadata.
public enum ChecksDocumentation {
  /// The whole markdown document.
  public static func markdown(rules: [any LintRule] = LintRegistry.rules) -> String {
    var out = """
      # `flowrun check` rules

      <!-- Generated from the rule metadata in Sources/FlowAnalysis/Check/Rules; do not edit.
           Regenerate with: RECORD_SNAPSHOTS=1 swift test --filter ChecksDoc -->

      `flowrun check FLOW...` loads each flow (every load problem is reported with its own id) and
      then runs these rules in this order. `--strict` turns warnings into errors; `--format
      text|json|github|sarif` chooses the output. Rules marked *loader* are reported while loading
      under the ids shown; they are listed here so every check has one place.

      | id | severity | summary |
      |---|---|---|

      """
    for rule in rules {
      let ids =
        rule.isReportedByLoader ? " (loader: " + rule.diagnosticIDs.map { "`\($0)`" }.joined(separator: ", ") + ")" : ""
      out += "| [`\(rule.id)`](#\(anchor(rule.id))) | \(rule.severity.rawValue) | \(rule.summary)\(ids) |\n"
    }
    for rule in rules {
      out += "\n## `\(rule.id)`\n\n"
      out += "\(capitalized(rule.summary)). Severity: \(rule.severity.rawValue)."
      if rule.isReportedByLoader {
        out += " Reported by the loader as " + rule.diagnosticIDs.map { "`\($0)`" }.joined(separator: ", ") + "."
      }
      out += "\n"
      if !rule.details.isEmpty { out += "\n\(rule.details)\n" }
      out += "\nTriggers:\n\n```json\n\(rule.triggeringExample)```\n"
      out += "\nDoes not trigger:\n\n```json\n\(rule.cleanExample)```\n"
    }
    return out
  }

  static func anchor(_ id: String) -> String {
    String(id.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "-" })
  }

  static func capitalized(_ s: String) -> String {
    s.prefix(1).uppercased() + s.dropFirst()
  }
}
