import FlowDriver
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
}
