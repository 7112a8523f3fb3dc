import FlowDriver
import FlowEngine
import Testing

/// Issue 19 item 8: the prompt of an awaited action names the result keys its screen's rules
/// read, which only `:ok` data can supply.
@Suite struct PendingPromptTests {
  @Test func theAwaitedActionPromptNamesTheKeysTheRulesRead() throws {
    let run = try drive("signin.json", lines: [":quit"])
    let prompt = try #require(run.source.prompts.first)
    #expect(prompt.hasPrefix("action account.restoreSession (rules read: "), "\(prompt)")
    #expect(prompt.contains("isNewUser") && prompt.contains("hasSubscription"), "\(prompt)")
  }

  /// A rule reading only collected fields adds nothing to the prompt.
  @Test func collectedFieldsAreNotNamed() throws {
    let run = try drive(lines: toNotifications + ["1", ":quit"])
    #expect(run.source.prompts.contains("action permission.notifications [:ok [JSON] | :fail [TEXT] | :cancel]> "))
  }

  /// Tab offers only what the prompt accepts (issue 19 item 2): option labels at the checklist's
  /// prompt, not at the action prompt after it, where they would be refused as buttons.
  @Test func completionsOfferOnlyWhatThePromptAccepts() throws {
    let source = ScriptedLines(toNotifications.prefix(6) + ["cardio", ":quit"])
    var offered: [String: [String]] = [:]
    let driver = try Driver(
      document: sampleDocument("fitness.json"), config: runConfig(), flowPath: "f", source: source, output: { _ in })
    source.onPrompt = { [unowned driver] prompt in
      offered[prompt] = driver.completions(linePrefix: "Car") + driver.completions(linePrefix: "Cont")
    }
    driver.run()
    #expect(offered["interests [1-5, comma-separated]> "] == ["Cardio"])
    #expect(offered["[1 Continue]> "] == ["Continue"])
  }
}
