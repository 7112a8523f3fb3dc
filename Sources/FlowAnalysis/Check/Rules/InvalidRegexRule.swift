import FlowExpression
import FlowFormat

/// An input `pattern` or `matches` condition that is not a valid regular expression: the
/// loader reports it (`load.invalid-regex`).
public struct InvalidRegexRule: LoaderReportedRule {
  public init() {}
  public let id = "check.invalid-regex"
  public let summary = "a pattern or matches condition is not a valid regular expression"
  public let severity = Severity.error
  public let details =
    "Reported by the loader as `load.invalid-regex` at the pattern's string, with PCRE2's message and the offset in the pattern where it stopped (docs/semantics.md, \"Patterns\", gives the syntax). A flow with an invalid pattern does not run."
  public let diagnosticIDs = [DiagnosticID.Load.invalidRegex.id]
  public let triggeringExample = Example.flow([
    Example.screen(
      "code", "form",
      [Example.block("code_input", "input", #""fieldName": "code", "pattern": "[0-9{4}""#), Example.button("go")])
  ])
  public let cleanExample = Example.flow([
    Example.screen(
      "code", "form",
      [Example.block("code_input", "input", #""fieldName": "code", "pattern": "[0-9]{4}""#), Example.button("go")])
  ])
}
