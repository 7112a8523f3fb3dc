import FlowExpression
import Foundation
import Testing

@testable import FlowFormat

/// Document 000's naming and identifier rules, as the loader applies them.
@Suite struct DocumentFidelityLoadingTests {
  @Test(arguments: [
    ("Daily Hours", "daily_hours"), ("dailyHours", "daily_hours"), ("daily-hours", "daily_hours"),
    ("HTTPCode", "http_code"), ("user_name", "user_name"), (" First name ", "first_name"), ("2fa", nil),
    ("café", nil),
  ])
  func snakeCaseSpelling(_ name: String, _ expected: String?) {
    #expect(FieldNaming.snakeCase(name) == expected)
  }

  @Test(arguments: [("user_name", true), ("daily_hours2", true), ("Daily", false), ("a-b", false), ("_a", false)])
  func snakeCaseTest(_ name: String, _ expected: Bool) {
    #expect(FieldNaming.isSnakeCase(name) == expected)
  }

  static func screen(_ blocks: String, extra: String = "") -> String {
    """
    {"version": 1, \(extra) "screens": [{"id": "a", "name": "A", "type": "feature", "order": 0,
      "content": {"useBlocks": true, "blocks": [\(blocks)]}}]}
    """
  }

  @Test(arguments: ["input", "checklist", "slider", "toggle"])
  func blockIDIsTheFieldWithoutFieldName(_ type: String) throws {
    let result = ModelDecodingTests.load(
      Self.screen(
        #"{"id": "level", "type": "\#(type)", "order": 0, "content": {"items": [{"id": "x", "label": "X"}]}}"#))
    let block = try #require(result.document?.entryFlow?.screens[0].content.flatBlocks.first)
    #expect(block.fieldName == "level")
    let note = try #require(result.diagnostics.first { $0.id == DiagnosticID.Load.fieldFromBlockID.id })
    #expect(note.severity == .note)
    #expect(note.message == "\(type) block 'level' has no fieldName: its value is collected under its id 'level'")
  }

  @Test func duplicateFieldOnAnotherScreenIsAnError() {
    let result = ModelDecodingTests.load(
      """
      {"version": 1, "screens": [
        {"id": "a", "name": "A", "type": "feature", "order": 0, "content": {"blocks": [
          {"id": "x", "type": "input", "order": 0, "content": {"fieldName": "name"}}]}},
        {"id": "b", "name": "B", "type": "feature", "order": 1, "content": {"blocks": [
          {"id": "y", "type": "input", "order": 0, "content": {"fieldName": "name"}}]}}]}
      """)
    let duplicate = result.diagnostics.first { $0.id == DiagnosticID.Ref.duplicateField.id }
    #expect(duplicate?.severity == .error)
    #expect(duplicate?.notes.first?.message == "first collected here")
  }

  @Test func wordNameTemplatesReadTheField() throws {
    let result = ModelDecodingTests.load(
      Self.screen(#"{"id": "t", "type": "text", "order": 0, "content": {"text": "{Daily Hours} a day, {1 +}"}}"#))
    #expect(result.diagnostics.map(\.id) == [DiagnosticID.Load.templateSyntax.id])
    let block = try #require(result.document?.entryFlow?.screens[0].content.flatBlocks.first)
    guard case .text(let text) = block.content else {
      Issue.record("not a text block")
      return
    }
    #expect(text.text?.template.variableNames == ["Daily Hours"])
  }

  @Test(arguments: [("slide-lef", "did you mean 'slide-left'?"), ("warp", nil)])
  func unknownTransitions(_ value: String, _ note: String?) {
    let result = ModelDecodingTests.load(
      Self.screen(
        #"{"id": "b", "type": "button", "order": 0, "content": {}}"#,
        extra: #""transitions": [{"fromScreenId": "a", "toScreenId": "a", "transition": "\#(value)"}],"#))
    let warning = result.diagnostics.first { $0.id == DiagnosticID.Load.unknownValue.id }
    #expect(warning?.message.hasPrefix("unknown transition '\(value)'") == true)
    #expect(warning?.notes.first?.message == note)
    #expect(result.document?.entryFlow?.transitions.isEmpty == true)
  }

  @Test func transitionsReferenceScreens() {
    let result = ModelDecodingTests.load(
      Self.screen(
        #"{"id": "b", "type": "button", "order": 0, "content": {}}"#,
        extra: #""transitions": [{"fromScreenId": "a", "toScreenId": "nowhere", "transition": "fade"}],"#))
    #expect(result.diagnostics.contains { $0.id == DiagnosticID.Ref.unknownScreen.id })
  }

  @Test(arguments: [
    ("auth.emial", "auth.email"), ("permission.camra", "permission.camera"), ("myapp.connectFitness", nil),
  ])
  func nearBuiltInActions(_ identifier: String, _ builtIn: String?) {
    let result = ModelDecodingTests.load(
      Self.screen(
        #"{"id": "b", "type": "button", "order": 0, "content": {"action": {"type": "custom", "identifier": "\#(identifier)"}}}"#
      ))
    let warning = result.diagnostics.first { $0.id == DiagnosticID.Load.unknownBuiltInAction.id }
    #expect(warning?.notes.first?.message == builtIn.map { "did you mean '\($0)'?" })
  }

  @Test func experimentDefaultMustBeAVariant() {
    let json = #"""
      {"version": 1, "experiments": [{"id": "e", "default": "variant-bse", "variants": [{"id": "variant-base"}, {"id": "b"}]}],
       "screens": [{"id": "a", "name": "A", "type": "feature", "order": 0, "content": {}}]}
      """#
    let result = ModelDecodingTests.load(json)
    let error = result.diagnostics.first { $0.id == DiagnosticID.Ref.unknownVariant.id }
    #expect(error?.notes.first?.message == "did you mean 'variant-base'?")
    let fine = ModelDecodingTests.load(json.replacingOccurrences(of: "variant-bse", with: "variant-base"))
    #expect(fine.document?.experiments.first?.fallbackVariant == "variant-base")
    #expect(fine.diagnostics.isEmpty)
  }
}
