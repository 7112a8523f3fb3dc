import FlowEngine
import FlowExpression
import FlowFormat
import FlowRender
import Testing

@Suite struct SessionStateTests {
  @Test func headerNamesScreenIdAndType() throws {
    let json = flowJSON([
      #"{"id": "paywall", "name": "Premium offer", "type": "native", "order": 0, "content": {"identifier": "paywall_v2", "title": "Lumen"}}"#
    ])
    let s = try session(json)
    let text = ScreenRenderer.render(s, options: RenderOptions(width: 50))
    #expect(text.hasPrefix("── Premium offer (paywall) · native: paywall_v2 ──\n"))
    #expect(text.hasSuffix("Waiting for native screen paywall_v2: :ok [JSON] |\n:fail [TEXT] | :cancel\n"))
    expectFits(text, width: 50)
  }

  @Test func headerForPermissionAndSameNameAndId() throws {
    let json = flowJSON([
      #"{"id": "notify", "name": "notify", "type": "permission", "order": 0, "content": {"title": "Stay on track", "permissionType": "notifications"}}"#
    ])
    let text = ScreenRenderer.render(try session(json), options: RenderOptions(width: 40))
    #expect(text.hasPrefix("── notify · permission: notifications ──\n"))
  }

  @Test func legacyScreen() throws {
    let json = flowJSON([
      #"""
      {"id": "w", "name": "Welcome", "type": "welcome", "order": 0, "content": {"icon": "🌿", "title": "Breathe easier",
       "subtitle": "Five minutes a day.", "image": "https://cdn.test/calm/ready.png", "buttonText": "Get started",
       "skipText": "Not now"}}
      """#
    ])
    #expect(
      body(try session(json)) == """
        🌿

        Breathe easier
        ══════════════

        Five minutes a day.

        [image: ready.png]

        [1] Get started
        [2] Not now

        """)
  }

  @Test func carouselSlides() throws {
    let json = flowJSON([
      #"""
      {"id": "tour", "name": "Tour", "type": "carousel", "order": 0, "content": {"title": "How it works", "slides": [
        {"icon": "🎧", "title": "Guided sessions", "body": "Short audio sessions led by real teachers."},
        {"title": "Sleep stories", "body": "Wind down."}]}}
      """#
    ])
    #expect(
      body(try session(json), width: 40) == """
        How it works
        ════════════

        1/2  🎧 Guided sessions
             Short audio sessions led by real
             teachers.

        2/2  Sleep stories
             Wind down.

        [1] Continue

        """)
  }

  @Test func pendingAwaitedActionPrompt() throws {
    var s = try session(
      flowJSON([
        blockScreen(
          "n",
          [
            block(
              "b", "button",
              #"{"text": "Enable notifications", "action": {"type": "custom", "identifier": "permission.notifications", "awaitResult": true}}"#
            )
          ])
      ]))
    _ = s.send(.tap(.number(1)))
    #expect(
      body(s) == """
        [1] Enable notifications

        Waiting for permission.notifications: :ok [JSON] | :fail [TEXT] | :cancel

        """)
    _ = s.send(.result(.failure("timeout")))
    #expect(body(s) == "[1] Enable notifications\n\n! timeout\n")
  }

  @Test func unhandledActionErrorInANonInteractiveRun() throws {
    var s = try session(
      flowJSON([
        blockScreen(
          "n",
          [
            block(
              "b", "button",
              #"{"text": "Sign in", "action": {"type": "custom", "identifier": "auth.apple", "awaitResult": true}}"#)
          ])
      ]), interactive: false)
    _ = s.send(.tap(.number(1)))
    #expect(body(s).hasSuffix("\n! unhandled action: auth.apple\n"))
  }

  @Test func endedStates() throws {
    let json = flowJSON([
      blockScreen(
        "a", [block("n", "input", #"{"fieldName": "name"}"#), block("b", "button", #"{"text": "Next"}"#)], order: 0),
      blockScreen("z", [block("b2", "button", #"{"text": "Done", "action": {"type": "complete"}}"#)], order: 1),
    ])
    var s = try session(json)
    _ = s.send(.set(field: "name", value: "Alex"))
    _ = s.send(.tap(.number(1)))
    var dismissed = s
    _ = s.send(.tap(.number(1)))
    #expect(s.status == .completed)
    #expect(
      ScreenRenderer.render(s, options: RenderOptions(width: 40)) == """
        ── Flow completed · t ──────────────────
        Screens shown (2): a → z

        Collected data:
          name: Alex

        """)
    _ = dismissed.send(.dismiss)
    #expect(
      ScreenRenderer.render(dismissed, options: RenderOptions(width: 40)).hasPrefix(
        "── Flow dismissed on z · t ─────────────\n"))
  }

  @Test func fillerNote() throws {
    let json = flowJSON([
      #"{"id": "f", "name": "f", "type": "filler", "order": 0, "autoAdvanceMs": 2500, "content": {"useBlocks": true, "blocks": [{"id": "t", "type": "text", "content": {"text": "Saving…"}}]}}"#,
      blockScreen("g", [], order: 1),
    ])
    #expect(body(try session(json)) == "Saving…\n\n(advances by itself after 2500 ms)\n")
  }

  @Test func colourOnlyWhenAsked() throws {
    var s = try session(blocks: [
      block("t", "text", #"{"text": "Title", "variant": "h1"}"#),
      block("c", "checklist", #"{"fieldName": "f", "allowMultiple": true, "items": [{"id": "a", "label": "A"}]}"#),
      block("b", "button", #"{"text": "Go"}"#),
    ])
    _ = s.send(.set(field: "f", value: ["a"]))
    let plain = ScreenRenderer.render(s, options: RenderOptions(width: 40, color: false))
    let colored = ScreenRenderer.render(s, options: RenderOptions(width: 40, color: true))
    #expect(!plain.contains("\u{1B}"))
    #expect(colored.contains("\u{1B}[1mTitle\u{1B}[0m"))
    #expect(colored.contains("\u{1B}[1;36m[1] \u{1B}[0m"))
    #expect(stripANSI(colored) == plain)
  }
}

@Suite struct TranscriptTests {
  @Test func joinsScreensAndInputs() {
    let text = Transcript.render([
      Transcript.Entry(screen: "── A ──\n\n[1] Go   \n\n", input: "1"),
      Transcript.Entry(screen: "\u{1B}[1m── B ──\u{1B}[0m\n", input: "nope", responses: ["no button 'nope'"]),
      Transcript.Entry(screen: "── B ──\n"),
    ])
    #expect(text == "── A ──\n\n[1] Go\n> 1\n\n── B ──\n> nope\n! no button 'nope'\n\n── B ──\n")
    #expect(Transcript.render([]) == "")
  }
}
