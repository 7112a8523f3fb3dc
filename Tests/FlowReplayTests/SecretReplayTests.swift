import FlowEngine
import FlowExpression
import FlowFormat
import Testing
import _FlowTestSupport

@testable import FlowReplay

/// Recorded secrets: placeholders, and the stand-ins a replay types for them.
@Suite struct SecretReplayTests {
  static func session(_ input: String) throws -> Session {
    let json = """
      {"version": 1, "id": "f", "screens": [{"id": "s", "name": "S", "type": "form", "content": {"blocks": [
        {"id": "i", "type": "input", "content": {"fieldName": "pw", "secret": true, \(input)}},
        {"id": "b", "type": "button", "content": {"text": "Go"}}]}}]}
      """
    let document = try #require(FlowLoader.load(bytes: Array(json.utf8), file: "f.json").document)
    return try Session.start(document: document).0
  }

  struct Field: Sendable, CustomTestStringConvertible {
    var input: String
    /// Validation messages a stand-in must be able to get (nil: passes).
    var outcomes: [String?]
    var testDescription: String { input }
  }

  @Test(arguments: [
    Field(
      input: #""inputType": "password", "minLength": 8, "maxLength": 64, "required": true"#,
      outcomes: [nil, "Must be at least 8 characters", "Must be at most 64 characters", "This field is required"]),
    Field(input: #""pattern": "^[0-9]{6}$", "patternMessage": "Six digits""#, outcomes: [nil, "Six digits"]),
    Field(input: #""pattern": "^[a-z]+$""#, outcomes: [nil, "Invalid format"]),
    Field(input: #""inputType": "email""#, outcomes: [nil, "Enter a valid email address"]),
    Field(input: #""maxLength": 4"#, outcomes: [nil, "Must be at most 4 characters"]),
    Field(
      input: #""inputType": "number", "min": 1000, "max": 9999"#,
      outcomes: [nil, "Must be at least 1000", "Must be at most 9999"]),
  ])
  func standInsReproduceTheRecordedValidationOutcome(_ field: Field) throws {
    let session = try Self.session(field.input)
    let block = try #require(session.currentScreen.content.flatBlocks.first)
    for outcome in field.outcomes {
      let placeholder = SecretStandIn.placeholder(validationMessage: outcome)
      #expect(SecretStandIn.outcome(of: placeholder) == .some(outcome))
      let standIn = SecretStandIn.value(for: "pw", outcome: outcome, on: session)
      #expect(
        session.validationMessage(of: block, holding: standIn) == outcome,
        "\(standIn) for \(outcome ?? "a valid answer")")
    }
  }

  @Test(
    arguments: [
      (Value.string("••••"), String??.some(nil)),
      (.string("•••• (Six digits)"), .some("Six digits")),
      (.string("•••"), nil),
      (.string("••••x"), nil),
      (.string("hunter2"), nil),
      (.number(4), nil),
    ] as [(Value, String??)])
  func placeholdersAreRecognised(_ value: Value, _ outcome: String??) {
    #expect(SecretStandIn.outcome(of: value) == outcome)
  }

  /// A secret written in clear in a script is used as written; only placeholders get stand-ins.
  @Test func onlyPlaceholdersOfSecretFieldsAreReplaced() throws {
    let session = try Self.session(#""minLength": 8"#)
    func sent(_ field: String, _ value: Value) -> [Input] {
      ScriptStep(.fill([ScriptStep.FieldValue(field: field, value: value)])).inputs(on: session)
    }
    #expect(sent("pw", "hunter2-long") == [.set(field: "pw", value: "hunter2-long")])
    #expect(sent("other", "••••") == [.set(field: "other", value: "••••")])
    guard case .set(_, let standIn) = sent("pw", "••••").first else {
      Issue.record("no set")
      return
    }
    #expect(standIn != "••••")
  }
}
