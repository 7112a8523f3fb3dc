import Foundation
import Testing
import _FlowTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// What a designer meets walking the sample flows in a real terminal (issue 19): options
/// answered and Tab-completed by their words, and screens redrawn after an answer.
@Suite(.timeLimit(.minutes(1))) struct DesignerOnTerminalTests {
  #if canImport(Glibc)
    /// `flowrun run SAMPLE --start SCREEN ARGUMENTS` on an `xterm` pty, in a fresh home.
    final class Run {
      let home: TemporaryDirectory
      let term: PseudoTerminal

      init(_ sample: String, start: String, _ arguments: [String] = []) throws {
        home = try TemporaryDirectory()
        term = try PseudoTerminal(
          executable: flowrunExecutable().path,
          arguments: [
            "run", packageRoot().appendingPathComponent("sample-flows/\(sample)").path, "--start", start,
            "--now", "2026-01-01T00:00:00Z",
          ] + arguments,
          environment: ["TERM": "xterm", "HOME": home.url.path, "PATH": "/usr/bin:/bin", "NO_COLOR": "1"])
      }

      /// Quits with `:quit` and returns everything the terminal showed.
      func quit() throws -> String {
        term.send(":quit\r")
        try term.waitFor(substring: "Session ended (quit)")
        #expect(try term.waitForExit() == .exited(1))
        return term.output
      }
    }

    /// Item 1: options whose labels start with an emoji complete and answer by their words.
    @Test func emojiOptionsAnswerAndCompleteByTheirWords() throws {
      let run = try Run("fitness.json", start: "interests")
      try run.term.waitFor(substring: "interests [1-5, comma-separated]> ")
      run.term.send("Str\t")
      try run.term.waitFor(substring: "ength")
      run.term.send(", mob\t")
      try run.term.waitFor(substring: "stretching")
      run.term.send("\r")
      // The screen is drawn again with the options ticked (item 4), then the action prompt.
      try run.term.waitFor(substring: "[x] 💪 Strength")
      try run.term.waitFor(substring: "[1 Continue]> ")
      run.term.send(":data\r")
      try run.term.waitFor(substring: #""mobility""#)
      let output = try run.quit()
      #expect(!output.contains("! no option"), "\(output)")
      #expect(output.contains(#""strength""#))
    }

    /// Item 2: what Tab completes is an answer the run accepts, commas in the label included.
    @Test func aCompletedLabelWithCommasIsAccepted() throws {
      let run = try Run("goals.json", start: "muscle_plan")
      try run.term.waitFor(substring: "[1-4, comma-separated]> ")
      run.term.send("Ch\t")
      try run.term.waitFor(substring: "arms")
      run.term.send("\r")
      try run.term.waitFor(substring: "[x] Chest, back & arms")
      try run.term.waitFor(substring: "[1 Continue]> ")
      run.term.send(":data\r")
      try run.term.waitFor(substring: #""muscle_focus": ["#)
      let output = try run.quit()
      #expect(!output.contains("! "), "\(output)")
      #expect(output.contains(#""upper""#))
    }

    /// Item 4: a template over a slider shows the slider's value at once and again after each
    /// answer; the raw template never reaches the terminal.
    @Test func theScreenIsRedrawnAfterAnAnswer() throws {
      let run = try Run("goals.json", start: "weight_plan")
      try run.term.waitFor(substring: "about 10 weeks")
      try run.term.waitFor(substring: "[1-30] (5)> ")
      run.term.send("8\r")
      try run.term.waitFor(substring: "about 16 weeks")
      try run.term.waitFor(substring: "[1 Continue]> ")
      let output = try run.quit()
      #expect(!output.contains("{target_loss_kg"), "\(output)")
    }

    /// Item 3: a filler screen advances by itself once its delay has passed in real time.
    @Test func aFillerScreenAdvancesByItself() throws {
      let run = try Run("survey.json", start: "processing")
      try run.term.waitFor(substring: "Saving your answers")
      try run.term.waitFor(substring: "> ")
      try run.term.waitFor(substring: "(thanks)")  // nothing typed
      let output = try run.quit()
      #expect(!output.contains("not used"), "\(output)")
    }

    /// `--no-auto-advance`: the screen stays past its delay until `:wait` moves the clock.
    @Test func noAutoAdvanceKeepsTheScreen() async throws {
      let run = try Run("survey.json", start: "processing", ["--no-auto-advance"])
      try run.term.waitFor(substring: "> ")
      try await Task.sleep(for: .milliseconds(3000))
      run.term.send(":data\r")
      try run.term.waitFor(substring: "{")
      #expect(!run.term.output.contains("(thanks)"))
      run.term.send(":wait 2500\r")
      try run.term.waitFor(substring: "(thanks)")
      _ = try run.quit()
    }

    /// Done when (issue 19): whole sample flows walked in a terminal, every answer typed in
    /// words, ends completed with no refused answer and no raw template on the way.
    static let walks: [(String, [(String, String)])] = [
      (
        "fitness.json",
        [
          ("Started]> ", "Get Started"), ("First name> ", "Alex"), ("Continue]> ", "Continue"), ("(2)> ", "3"),
          ("Continue]> ", "Continue"), ("Show me how]> ", "show me"), ("comma-separated]> ", "str, MOB"),
          ("Continue]> ", "Continue"), ("Not now]> ", "enable"), (":cancel]> ", #":ok {"granted": true}"#),
          ("]> ", "Start my first workout"),
        ]
      ),
      (
        "goals.json",
        [
          ("go]> ", "Let's go"), ("Age> ", "30"), ("(kg)> ", "80"), ("(y)> ", "y"), ("Continue]> ", "Continue"),
          ("[1-3]> ", "build"), ("comma-separated]> ", "ch, LEGS"), ("Continue]> ", "Continue"), ("(y)> ", "yes"),
          ("(n)> ", "no"), ("Continue]> ", "Continue"), ("[1-3]> ", "wednesday"), ("Confirm]> ", "confirm"),
          ("plan]> ", "Start my plan"),
        ]
      ),
      (
        "survey.json",
        [
          ("Not now]> ", "start"), ("[1-", "engineering"), ("(5)> ", "8"), ("Continue]> ", "Continue"),
          ("comma-separated]> ", "JIRA"), ("]> ", "Continue"), ("know]> ", "good"), ("(7)> ", "10"),
          ("(optional)> ", "Fast and calm"), ("Submit]> ", "submit"), ("]> ", "leave a review"), ("]> ", "Continue"),
          // processing advances by itself after 2.5 s; then the thanks screen.
          ("Relay]> ", "Back to Relay"),
        ]
      ),
      (
        "bundle.json --variant onb_length=control",
        [
          ("budget]> ", "set up my budget"), ("First name> ", "Rosa"), ("Continue]> ", "Continue"),
          ("(including you) (1)> ", "2"), ("Continue]> ", "Continue"), ("currency [1-4]> ", "euro"),
          ("[y/n] (n)> ", "y"), ("Continue]> ", "Continue"), ("(2500)> ", "3000"), ("Continue]> ", "Continue"),
          ("dashboard]> ", "Go to my dashboard"),
        ]
      ),
      (
        "appdna/profile-form.json --trait first_name=Ada",
        [
          ("Started]> ", "get started"), ("Full name> ", "Ada Lovelace"), ("Email> ", "ada@example.com"),
          ("Age> ", "36"), ("Employment [1-3]> ", "employed"), ("Company> ", "Analytical Engines"),
          ("Short bio> ", ""), ("(y)> ", ""), ("Referral code> ", ""), ("Continue]> ", "Continue"),
          ("Login email> ", "ada@example.com"), ("Password> ", "s3cret-pass"), ("Not now]> ", "create account"),
          ("Finish]> ", "Finish"),
        ]
      ),
      (
        "appdna/quiz-bundle.json --variant exp_quiz=control",
        [
          ("goal [1-3]> ", "lose"), ("Continue]> ", "Continue"), ("level [1-2]> ", "beginner"), ("Next]> ", "Next"),
          ("(15)> ", "30"), ("Next]> ", "Next"), ("offer]> ", "See my offer"),
        ]
      ),
      (
        "appdna/coach-chat.json --offline",
        [
          ("Start]> ", "start"), ("plan]> ", ":chat I want to run a 5k"),
          ("network [TEXT]]> ", #"200 {"action":"reply_and_complete","messages":[{"content":"Let's go"}]}"#),
          ("plan]> ", "see my plan"), ("plan]> ", "save plan"), ("network [TEXT]]> ", #"200 {"action":"proceed"}"#),
          ("Finish]> ", "finish"),
        ]
      ),
      (
        "legacy.json",
        [
          ("started]> ", "get started"), ("Continue]> ", "continue"), ("[1-3]> ", "before bed"),
          ("Not now]> ", "allow"), (":cancel]> ", #":ok {"granted": true}"#), ("Begin]> ", "begin"),
        ]
      ),
    ]

    @Test(arguments: walks)
    func aSampleFlowIsWalkedInWords(_ sample: String, _ steps: [(String, String)]) throws {
      let home = try TemporaryDirectory()
      // The sample's file, then the options its walk needs (a variant, a trait).
      let words = sample.split(separator: " ").map(String.init)
      let term = try PseudoTerminal(
        executable: flowrunExecutable().path,
        arguments: [
          "run", packageRoot().appendingPathComponent("sample-flows/\(words[0])").path, "--now", "2026-01-01T00:00:00Z",
        ] + words.dropFirst(),
        environment: ["TERM": "xterm", "HOME": home.url.path, "PATH": "/usr/bin:/bin", "NO_COLOR": "1"])
      for (prompt, answer) in steps {
        try term.waitFor(substring: prompt)
        term.send(answer + "\r")
      }
      try term.waitFor(substring: "Flow completed")
      #expect(try term.waitForExit() == .exited(0))
      let refused = term.output.components(separatedBy: "\r\n").filter { $0.hasPrefix("! ") }
      #expect(refused.isEmpty, "\(refused)")
      // The survey's tip writes `\{team}`: a brace meant literally, not a template.
      let shown = term.output.replacingOccurrences(of: "@team or {team}", with: "")
      #expect(shown.firstRange(of: /\{[a-z_]+[ }|]/) == nil, "a raw template:\n\(term.output)")
    }
  #endif
}
