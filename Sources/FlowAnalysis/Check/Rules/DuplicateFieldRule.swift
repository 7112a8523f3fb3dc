import FlowExpression
import FlowFormat

/// A field collected twice: the loader reports it (`ref.duplicate-field`).
public struct DuplicateFieldRule: LoaderReportedRule {
  public init() {}
  public let id = "check.duplicate-field"
  public let summary = "a field name is collected by two blocks"
  public let severity = Severity.error
  public let details =
    "Reported by the loader as `ref.duplicate-field`: an error when one screen collects a field twice, a warning across screens (the later value overwrites the earlier)."
  public let diagnosticIDs = [DiagnosticID.Ref.duplicateField.id]
  public let triggeringExample = Example.flow([
    Example.screen(
      "name", "form",
      [
        Example.block("first", "input", #""fieldName": "name", "label": "First name""#),
        Example.block("last", "input", #""fieldName": "name", "label": "Last name""#),
        Example.button("go"),
      ])
  ])
  public let cleanExample = Example.flow([
    Example.screen(
      "name", "form",
      [
        Example.block("first", "input", #""fieldName": "first_name", "label": "First name""#),
        Example.block("last", "input", #""fieldName": "last_name", "label": "Last name""#),
        Example.button("go"),
      ])
  ])
}
