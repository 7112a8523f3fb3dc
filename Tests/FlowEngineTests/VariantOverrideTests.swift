import FlowEngine
import FlowFormat
import Testing

/// `--variant` and a script's `variants:` may only name what the document declares.
@Suite struct VariantOverrideTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var flow: String
    var overrides: [String: String]
    /// The expected messages, in experiment order; empty when every override is declared.
    var messages: [String]
    var testDescription: String { "\(flow) \(overrides.sorted { $0.key < $1.key })" }
  }

  static let cases: [Case] = [
    Case(flow: "goals", overrides: [:], messages: []),
    Case(flow: "goals", overrides: ["plan_copy": "coach"], messages: []),
    Case(
      flow: "goals", overrides: ["plan_copi": "coach"],
      messages: ["unknown experiment 'plan_copi' (did you mean 'plan_copy'?); experiments: plan_copy"]),
    Case(
      flow: "goals", overrides: ["plan_copy": "coah"],
      messages: ["experiment 'plan_copy' has no variant 'coah' (did you mean 'coach'?); variants: control, coach"]),
    Case(
      flow: "goals", overrides: ["zzz": "a", "plan_copy": "something"],
      messages: [
        "experiment 'plan_copy' has no variant 'something'; variants: control, coach",
        "unknown experiment 'zzz'; experiments: plan_copy",
      ]),
    Case(
      flow: "fitness", overrides: ["onb_length": "short"],
      messages: ["unknown experiment 'onb_length': the flow declares no experiments"]),
    // Sequence's server-assigned `experiment`: its variant is the one the document carries.
    Case(flow: "legacy", overrides: ["exp_meditation_onb": "var_b"], messages: []),
    Case(
      flow: "legacy", overrides: ["exp_meditation_onb": "var_c"],
      messages: ["experiment 'exp_meditation_onb' has no variant 'var_c' (did you mean 'var_b'?); variants: var_b"]),
    Case(flow: "bundle", overrides: ["onb_length": "short"], messages: []),
  ]

  @Test(arguments: cases)
  func unknownExperimentsAndVariantsAreNamedWithTheValidOnes(_ example: Case) throws {
    let document = try SampleFlowTests.document(example.flow)
    let problems = VariantAssignment.unknownOverrides(example.overrides, in: document)
    #expect(problems.map(\.message) == example.messages)
  }
}
