import FlowFormat
import FlowReplay

extension DiagnosticID {
  /// `check.*`: the lint rules, one id each; a rule's metadata is its catalogue entry
  /// (docs/checks.md is generated from the rules).
  public enum Check {
    public static var all: [DiagnosticID] { LintRegistry.rules.map(\.diagnosticID) }
  }
}

/// The id table of docs/loading.md, generated from the catalogue (`DiagnosticID`): every
/// `json.*`, `load.*`, `ref.*`, `script.*` and `campaign.*` id with its severity and meaning.
public enum DiagnosticIDDocumentation {
  /// The line that opens the generated table in docs/loading.md.
  public static let start = "<!-- Generated from the diagnostic-id catalogue (DiagnosticID); do not edit."
  /// The line that closes it.
  public static let end = "<!-- End of the generated id table. -->"

  /// Every catalogued id outside the lint rules, in the table's order.
  public static var ids: [DiagnosticID] {
    DiagnosticID.JSON.all + DiagnosticID.Load.all + DiagnosticID.Ref.all + DiagnosticID.AppDNA.all
      + DiagnosticID.Script.all + DiagnosticID.Campaign.all + DiagnosticID.Nuxie.all + DiagnosticID.Model.all
  }

  /// The table between its two marker lines, both included, ending with a newline.
  public static func table() -> String {
    var out = start + "\n     Regenerate with: RECORD_SNAPSHOTS=1 swift test --filter DiagnosticIDDoc -->\n\n"
    out += "| id | severity | meaning |\n|---|---|---|\n"
    for id in ids {
      out += "| `\(id.id)` | \(id.severity.rawValue) | \(id.summary) |\n"
    }
    return out + "\n" + end + "\n"
  }

  /// `document` with its generated table replaced by `table()`; nil when a marker is missing.
  public static func updating(_ document: String) -> String? {
    guard let open = document.firstRange(of: start), let close = document[open.upperBound...].firstRange(of: end + "\n")
    else { return nil }
    return String(document[..<open.lowerBound]) + table() + String(document[close.upperBound...])
  }
}
