import Testing
import _FlowTestSupport

/// Shell completion (README): the generated scripts call `flowrun ---completion` back with the
/// words typed; the ids of the flow named on the line are offered for `--start`, `--screen`,
/// `--flow` and `--variant`.
@Suite struct ShellCompletionTests {
  struct Case: Sendable, CustomStringConvertible {
    var words: [String]
    var expected: [String]
    var description: String { words.joined(separator: " ") }
  }

  static let cases: [Case] = [
    Case(words: ["run", "sample-flows/fitness.json", "--start", "h"], expected: ["hours"]),
    Case(
      words: ["run", "sample-flows/bundle.json", "--variant", ""], expected: ["onb_length=control", "onb_length=short"]),
    Case(words: ["render", "sample-flows/signin.json", "--screen", "p"], expected: ["profile", "paywall"]),
    Case(
      words: ["run", "sample-flows/bundle.json", "--flow", ""],
      expected: ["onboarding", "quick_start", "profile_setup"]),
    Case(words: ["run", "no-such.json", "--start", ""], expected: []),
  ]

  @Test(arguments: cases)
  func completes(_ test: Case) throws {
    let option = test.words[test.words.count - 2]
    let arguments =
      ["---completion", test.words[0], "--", option, String(test.words.count), String(test.words.last?.count ?? 0)]
      + ["flowrun"] + test.words
    let result = try runFlowrun(arguments)
    #expect(result.status == 0)
    #expect(result.stdout.split(separator: "\n").map(String.init) == test.expected)
  }

  @Test(arguments: ["bash", "zsh", "fish"])
  func scriptsAreGenerated(_ shell: String) throws {
    let result = try runFlowrun(["--generate-completion-script", shell])
    #expect(result.status == 0)
    #expect(result.stdout.contains("---completion run -- --start"))
  }
}
