import FlowEngine
import FlowExpression
import FlowFormat
import FlowRender
import FlowReplay
import FlowSupport
import OrderedCollections

/// How a `Driver` talks to the outside world besides lines in and text out.
public struct DriverOptions {
  /// The render width, asked before every screen (a terminal may have been resized).
  public var width: () -> Int
  /// ANSI styling in rendered screens (prompts are never coloured).
  public var color: Bool
  /// True on a terminal: Ctrl-C (`.interrupted`) cancels the line and the prompt is asked
  /// again, Ctrl-D (`.endOfFile`) quits with reason `quit`. False on a pipe: the end of input
  /// quits with reason `end_of_input`, `.interrupted` (SIGINT) quits with reason `quit`, and
  /// `unproductiveLineLimit` lines in a row that change nothing end the run as `stuck`.
  public var interactive: Bool
  /// Print every decision of the trace as it is made (`--trace`).
  public var traceDecisions: Bool
  /// A monotonic clock in milliseconds, on a terminal only: the real time between two lines
  /// is sent to the session as `advanceClock` before the line is used. Nil on a pipe.
  public var elapsedMilliseconds: (() -> Int64)?
  /// Asked before every read (and after a read was interrupted); a reason ends the session
  /// with it: `quit` for SIGINT on a pipe, `terminated` for SIGTERM or SIGHUP,
  /// `output_failed` when stdout or the event stream cannot be written any more.
  public var shouldStop: () -> DropOffReason?
  /// Off a terminal, how many lines in a row may change nothing on one screen (rejected,
  /// blocked by validation, malformed, empty, inspection commands, too long) before the run
  /// ends as `stuck`: endless input (`yes 1 |`) cannot keep a run alive for ever.
  public var unproductiveLineLimit: Int
  /// On a terminal (with `elapsedMilliseconds`): a screen with `autoAdvanceMs` advances by
  /// itself when its delay has passed in real time with nothing typed (`--no-auto-advance`
  /// turns this off; `:wait` and the next line still advance it).
  public var autoAdvances: Bool
  /// Answers every `onBeforeStepAdvance` the session asks (`--hook-command`).
  public var hookCommand: HookCommand?
  /// Server webhooks are not called; the person, the answers or `--mock webhook` answer them.
  public var offline = false

  /// `run --watch`: asked when a read ends without a line (the watcher woke it), with the
  /// document running; returns its new version when the file changed since, nil otherwise.
  public var reload: ((FlowDocument) -> Reload?)?

  /// The default of `unproductiveLineLimit` (docs/cli.md).
  public static let defaultUnproductiveLineLimit = 1000

  public init(
    width: @escaping () -> Int = { 80 }, color: Bool = false, interactive: Bool = false,
    traceDecisions: Bool = false, elapsedMilliseconds: (() -> Int64)? = nil,
    shouldStop: @escaping () -> DropOffReason? = { nil },
    unproductiveLineLimit: Int = DriverOptions.defaultUnproductiveLineLimit, autoAdvances: Bool = false
  ) {
    self.width = width
    self.color = color
    self.interactive = interactive
    self.traceDecisions = traceDecisions
    self.elapsedMilliseconds = elapsedMilliseconds
    self.shouldStop = shouldStop
    self.unproductiveLineLimit = unproductiveLineLimit
    self.autoAdvances = autoAdvances
  }
}

/// A new version of the flow for `run --watch`.
public enum Reload: Sendable {
  /// It loaded: `changes` are one-line model changes (`` `about_you` gained field `age` ``).
  case loaded(FlowDocument, changes: [String])
  /// It does not load: `diagnostics` is the formatted text; the last good version runs on.
  case failed(diagnostics: String)
}

/// Asks a session's screens over a `LineSource` (docs/cli.md, "How a screen is asked").
///
/// For each screen: the rendered screen is written; then one prompt per visible collecting
/// block in reading order; then, when the screen has numbered controls, the action prompt.
/// A pending awaited action or native screen is asked for `:ok`, `:fail` or `:cancel`
/// instead. Every answer and `:` command is the replay step it stands for, sent through the
/// replay's own mapping (`ScriptStep.inputs(on:)`); the driver never navigates by itself.
/// `:` commands work at every prompt. Accepted inputs are kept in `recording`.
///
/// One driver runs one `run()`. Not `Sendable`: use it from one thread.
public final class Driver {
  /// The session as it stands (a new one after `:restart`).
  public private(set) var session: Session
  /// Every input the session accepted, in order (rejected inputs are left out: a replay
  /// would fail on them). `:restart` starts it afresh.
  public private(set) var recording: Recording
  /// Called with every event, in order, as soon as the engine emits it (`--events`).
  public var onEvent: (Event) -> Void = { _ in }
  /// Called with the session after each input it accepted (`run --store` saves the row).
  public var onAccepted: ((Session) -> Void)?
  /// Steps of a replay script played before any line is read (`--answers`). Expectations and
  /// snapshots are not checked (that is `flowrun test`); the first step with an input the
  /// session rejects (unless it says `expect_error`) stops the playing, and the lines take
  /// over. A validation failure is not a rejection: the playing goes on, as in `flowrun test`.
  public var answers: [ScriptStep] = []
  /// Values collected before the first line (`--data-in`, `--set`), sent as `setVariable`
  /// inputs once the session has started (and again after `:restart`), so `--record` replays
  /// them as `set:` steps.
  public var presetData: OrderedDictionary<String, Value> = [:]
  /// Files `:save` must not write (besides the flow): the run's other inputs and outputs.
  public var protectedFiles: [FileIdentity.Role] = []

  private let source: any LineSource
  private let output: (String) -> Void
  private let options: DriverOptions
  private var pendingStartOutputs: [Output]
  private var generation = 0
  private var screensShown = 0
  private var lastLineAt: Int64?
  private var currentPrompt: PromptKind = .generic
  private var lastShown: Position?
  /// The text of the screen as last printed, and whether an accepted input since may have
  /// changed it (redrawn on a terminal before the next prompt).
  private var lastScreenText = ""
  private var mayNeedRedraw = false
  /// A chat turn changed the conversation: drawn again on pipes too (the reply is the point).
  private var chatChanged = false
  /// The first session's id, and how many times `:restart` started another.
  private let firstSessionID: String
  private var restarts = 0
  /// Lines read since the session last changed (see `DriverOptions.unproductiveLineLimit`).
  private var unproductiveLines = 0

  /// Starts the session (no I/O yet: `run()` reports the start's events and trace).
  ///
  /// - Parameters:
  ///   - flowPath: the flow file as `:save` should name it (relative to the working directory,
  ///     or absolute).
  ///   - output: receives all text for stdout: rendered screens, messages, `:` command output.
  public init(
    document: FlowDocument, config: SessionConfig, flowPath: String, source: any LineSource,
    output: @escaping (String) -> Void, options: DriverOptions = DriverOptions()
  ) throws(SessionStartError) {
    let (session, outputs) = try Session.start(document: document, config: config)
    self.session = session
    self.firstSessionID = session.sessionID
    self.pendingStartOutputs = outputs
    self.recording = Recording(flowPath: flowPath, config: config, inputs: [])
    self.source = source
    self.output = output
    self.options = options
  }

  /// Runs the session until it ends (completion, dismissal, `:quit`, end of input, failure)
  /// and returns how it ended.
  @discardableResult
  public func run() -> SessionStatus {
    if options.elapsedMilliseconds != nil { lastLineAt = options.elapsedMilliseconds?() }
    report(pendingStartOutputs, traceFrom: 0)
    answerHookRequests(in: pendingStartOutputs)
    pendingStartOutputs = []
    sendPresetData()
    playAnswers()
    while !read({ $0.status }).isEnded {
      showScreen()
      askScreen()
    }
    showScreen()  // the renderer's summary of the ended session
    return session.status
  }

  // MARK: Screens

  /// Identifies what is being asked: any change means the screen must be shown again.
  private struct Position: Equatable {
    var generation: Int
    var shownScreens: Int
    var flowID: String
    var screenID: String
    var status: SessionStatus
  }

  private var position: Position {
    read {
      Position(
        generation: generation, shownScreens: $0.path.count, flowID: $0.currentFlowID,
        screenID: $0.currentScreenID, status: $0.status)
    }
  }

  /// `position == start`, compared in place: building a `Position` copies the status and two
  /// ids, and the driver asks about ten times a screen (cheapest fields first).
  private func isAt(_ start: Position) -> Bool {
    generation == start.generation
      && read {
        $0.path.count == start.shownScreens && $0.currentScreenID == start.screenID
          && $0.currentFlowID == start.flowID && $0.status == start.status
      }
  }

  /// Reads the session through `inout`: a getter called on the stored property copies the
  /// whole session first (every field retained, then released), one called on an exclusive
  /// reference reads it in place. `body` must not reach `self.session` (an overlapping access).
  private func read<T>(_ body: (inout Session) -> T) -> T { body(&session) }

  private func showScreen() {
    if let lastShown, isAt(lastShown) { return }
    lastShown = position
    lastScreenText = renderedScreen()
    mayNeedRedraw = false
    // One write per screen: the blank line between two screens goes with the second.
    say(screensShown > 0 ? "\n" + lastScreenText : lastScreenText)
    screensShown += 1
    if screensShown == 1 { sayMissingNames() }
  }

  /// The screen as it stands, with the defaults its untouched fields will store shown in its
  /// templates (`Session.showingDefaults`), so a template over a slider reads its value at once.
  private func renderedScreen() -> String {
    ScreenRenderer.render(
      session.showingDefaults, options: RenderOptions(width: max(20, options.width()), color: options.color))
  }

  /// On a terminal, prints the screen again when an answer changed what it shows (a template
  /// over the answer, a ticked option, a block revealed). Pipes keep one drawing per screen.
  private func redrawIfChanged() {
    guard mayNeedRedraw, options.interactive || chatChanged, !session.status.isEnded else { return }
    mayNeedRedraw = false
    chatChanged = false
    let text = renderedScreen()
    guard text != lastScreenText else { return }
    lastScreenText = text
    say("\n" + text)
  }

  private func askScreen() {
    let start = position
    if case .awaiting(let pending) = read({ $0.status }) {
      return askPending(pending, start)
    }
    var onlyFields: Set<String>?
    while isAt(start) {
      var last: String?
      while let block = nextField(after: last, only: onlyFields) {
        last = block.id
        guard askField(block, start) else { return }
      }
      guard isAt(start) else { return }
      let entries = read { $0.actions }
      if entries.isEmpty {
        return askWithoutControls(start)
      }
      switch askAction(entries, start) {
      case .changed: return
      case .blocked: onlyFields = Set(session.validationErrors.keys)
      }
    }
  }

  /// The next visible collecting block after the block with id `last` (reading order).
  private func nextField(after last: String?, only: Set<String>?) -> Block? {
    // Positions are looked up in the blocks themselves (their ids were copied out on every call).
    let order = last == nil ? [] : read { $0.currentScreen.content.flatBlocks }
    let lastIndex = last.flatMap { last in order.firstIndex { $0.id == last } }
    return read { $0.visibleBlocks }.first { block in
      guard let field = block.fieldName else { return false }
      if let lastIndex, (order.firstIndex { $0.id == block.id } ?? 0) <= lastIndex { return false }
      return only?.contains(field) ?? true
    }
  }

  /// Asks one field until it is answered (true) or the screen changed or ended (false).
  private func askField(_ block: Block, _ start: Position) -> Bool {
    guard let field = block.fieldName, let content = block.content.field else { return true }
    currentPrompt = .field(block)
    while true {
      switch ask(fieldPrompt(block, content), start, secret: content.isSecret) {
      case .changed: return false
      case .answer(_, .empty): return true
      case .answer(let line, _):
        guard let step = fieldStep(content, field: field, line: line) else { continue }
        if play(step) { continue }
        return isAt(start)
      }
    }
  }

  private enum ActionOutcome { case changed, blocked }

  private func askAction(_ entries: [ActionEntry], _ start: Position) -> ActionOutcome {
    currentPrompt = .action
    while true {
      switch ask("[" + entries.map { "\($0.number) \($0.label)" }.joined(separator: " | ") + "]> ", start) {
      case .changed: return .changed
      case .answer(_, .empty): continue
      case .answer(let line, let parsed):
        var outputs: [Output] = []
        play(.tap(Self.selector(line, parsed))) { outputs += $0 }
        if !isAt(start) { return .changed }
        if outputs.contains(where: { if case .validationFailed = $0 { true } else { false } }) {
          return .blocked
        }
      }
    }
  }

  private func askPending(_ pending: PendingAction, _ start: Position) {
    if case .hook(let request) = pending.source { return askHook(request, start) }
    if case .timer = pending.source { return askWhileWaiting(pending, start) }
    currentPrompt = .pending
    let native = pending.source == .nativeScreen
    let what = native ? "native screen" : "action"
    // A native screen may also have numbered controls (its skip control): they stay usable.
    let entries = native ? session.actions : []
    let controls = entries.map { " | \($0.number) \($0.label)" }.joined()
    let prompt = "\(what) \(pending.identifier)\(resultKeysHint) [:ok [JSON] | :fail [TEXT] | :cancel\(controls)]> "
    while true {
      switch ask(prompt, start) {
      case .changed: return
      case .answer(_, .empty): continue
      case .answer(let line, let parsed):
        if !entries.isEmpty {
          play(.tap(Self.selector(line, parsed)))
          continue
        }
        say("! waiting for the result of \(what) '\(pending.identifier)': answer :ok [JSON], :fail [TEXT] or :cancel\n")
      }
    }
  }

  /// A parked wait: command lines (`:wait`, `:track`, `:dismiss`, …) go through; anything
  /// else is told the flow is waiting. Interactively the clock also moves with real time.
  private func askWhileWaiting(_ pending: PendingAction, _ start: Position) {
    while true {
      switch ask("waiting (\(pending.identifier))> ", start) {
      case .changed: return
      case .answer(_, .empty): continue
      case .answer:
        say("! the flow is waiting (\(pending.identifier)): :wait MS moves the virtual clock, :dismiss closes it\n")
      }
    }
  }

  /// The pending `onBeforeStepAdvance`: a line is the host's answer (`:hook` without the
  /// command name).
  private func askHook(_ request: HookRequest, _ start: Position) {
    currentPrompt = .pending
    if let call = request.webhook { return askWebhook(call, request, start) }
    if request.kind == .beforeStepRender {
      let prompt =
        "hook \(HookRequest.beforeStepRender) of \(request.screenID) "
        + "[{\"title\", \"subtitle\", \"ctaText\", \"fieldDefaults\"} | null]> "
      return askAnswer(prompt, start) { InputLanguage.hookAnswer($0).map(ScriptStep.Kind.hook) }
    }
    let data = Value.object(session.secrets.data(request.stepData)).json
    let prompt =
      "hook \(HookRequest.beforeStepAdvance) of \(request.screenID) \(data) "
      + "[proceed | block [TEXT] | stay [TEXT] | skipTo STEP | JSON]> "
    askAnswer(prompt, start) { InputLanguage.hookAnswer($0).map(ScriptStep.Kind.hook) }
  }

  /// The pending webhook attempt of an `--offline` run: a line is how it ended.
  private func askWebhook(_ call: WebhookCall, _ request: HookRequest, _ start: Position) {
    let prompt =
      "webhook of \(request.screenID): POST \(call.url) (attempt \(call.attempt) of \(call.attempts)) "
      + "[STATUS [BODY] | timeout | network [TEXT]]> "
    askAnswer(prompt, start) { InputLanguage.webhookAnswer($0).map(ScriptStep.Kind.webhook) }
  }

  /// Asks until a line reads as an answer (`parse`), which is played; a line that does not is
  /// told why.
  private func askAnswer(
    _ prompt: String, _ start: Position, parse: (String) -> Result<ScriptStep.Kind, InputLanguageError>
  ) {
    while true {
      switch ask(prompt, start) {
      case .changed: return
      case .answer(_, .empty): continue
      case .answer(let line, _):
        switch parse(line) {
        case .success(let step): play(step)
        case .failure(let error): say("! \(error.message)\n")
        }
      }
    }
  }

  /// A screen with no numbered controls (a filler screen, or one that advances from a
  /// checklist): only `:` commands move it on.
  private func askWithoutControls(_ start: Position) {
    currentPrompt = .generic
    while true {
      switch ask("> ", start) {
      case .changed: return
      case .answer(_, .empty): continue
      case .answer:
        var hint = "! this screen has no buttons: use a command such as :back or :wait MS"
        if session.currentScreen.autoAdvanceMs != nil { hint += " (it advances by itself after a wait)" }
        say(hint + "\n")
      }
    }
  }

  /// After `--start`: the names the first screen's texts read that nothing has set, and how to
  /// set them, so a raw `{name}` is explained at once (issue 19 item 6).
  private func sayMissingNames() {
    guard recording.config.startScreen != nil, !session.status.isEnded else { return }
    var missing: [String] = []
    for block in session.visibleBlocks {
      block.forEachTemplate { text in
        for name in text.template.variableNames
        where !name.hasPrefix("$") && session.data(name) == nil && !missing.contains(name)
          && !session.currentScreen.content.flatBlocks.contains(where: { $0.fieldName == name })
        {
          missing.append(name)
        }
      }
    }
    guard !missing.isEmpty else { return }
    let example = missing[0]
    say(
      "(screen '\(session.currentScreen.id)' reads \(missing.joined(separator: ", ")), which nothing has set: "
        + "run with --set \(example)=VALUE or --data-in FILE, or type :set \(example) VALUE)\n")
  }

  private func sendPresetData() {
    for (name, value) in presetData where !session.status.isEnded {
      send(.setVariable(name: name, value: value))
    }
  }

  /// ` (rules read: isNewUser, hasSubscription)`: the names the current screen's rules read that
  /// no field of the flow collects, which only a result's `:ok` data can supply; empty when none.
  private var resultKeysHint: String {
    var names: [String] = []
    for rule in session.currentScreen.rules {
      for name in rule.when?.variableNames ?? [] where !name.hasPrefix("$") && !names.contains(name) {
        names.append(name)
      }
    }
    names.removeAll(where: documentFieldNames.contains)
    return names.isEmpty ? "" : " (rules read: \(names.joined(separator: ", ")))"
  }

  // MARK: Answers from a script

  /// Plays the `answers` steps as `flowrun test` does (`ScriptStep.send`), until one is rejected
  /// without `expect_error`: then the lines take over. An awaited action they leave pending
  /// waits for a line (`:ok`, ...), where a replay would fail it.
  private func playAnswers() {
    for (index, step) in answers.enumerated() {
      guard !session.status.isEnded else { return }
      let inputs = step.inputs(on: session)
      if inputs.isEmpty { continue }
      showScreen()
      guard ScriptStep.send(inputs, through: { send($0) }), step.expectError == nil else { continue }
      let place = step.location.map { " at line \($0.line)" } ?? ""
      say("! --answers: step \(index + 1) (\(step.keyword)\(place)) was not accepted; the lines take over\n")
      return
    }
  }

  /// Plays what a line stands for through the one mapping from steps to inputs
  /// (`ScriptStep.inputs(on:)`, `ScriptStep.send`); `observe` sees each input's outputs.
  /// Returns whether an input was rejected.
  @discardableResult
  private func play(_ step: ScriptStep.Kind, observe: ([Output]) -> Void = { _ in }) -> Bool {
    ScriptStep.send(read { ScriptStep(step).inputs(on: $0) }) { input in
      let outputs = send(input)
      observe(outputs)
      return outputs
    }
  }

  /// A button answered by number or by label.
  private static func selector(_ line: String, _ parsed: InputLine) -> ButtonSelector {
    if case .number(let number) = parsed { return .number(number) }
    return .label(line.trimmingWhitespace)
  }

  // MARK: Reading

  private enum Asked {
    case changed
    case answer(String, InputLine)
  }

  /// Reads lines until one answers the prompt; runs `:` commands on the way. `.changed` when
  /// the screen or the session's state changed (or the session ended) instead. A `secret`
  /// prompt is read without echo and kept out of the history.
  /// The prompt is made again before every read, so a `:set` of the field it shows is current.
  private func ask(_ prompt: @autoclosure () -> String, _ start: Position, secret: Bool = false) -> Asked {
    while true {
      if !isAt(start) { return .changed }
      redrawIfChanged()
      if let reason = options.shouldStop() {
        quit(reason)
        return .changed
      }
      if !options.interactive, unproductiveLines >= options.unproductiveLineLimit {
        say(
          "! \(unproductiveLines) lines in a row changed nothing on screen '\(session.currentScreen.id)'; "
            + "the run ends as stuck\n")
        quit(.stuck)
        return .changed
      }
      // A pipe shows no prompt: none is made (a field's prompt renders its label).
      let prompt = source.showsPrompt ? terminalSafe(prompt()) : ""
      let read: ReadResult
      if secret {
        read = source.readSecretLine(prompt: prompt)
      } else if let wait = autoAdvanceWait() {
        read = source.readLine(prompt: prompt, timeoutMilliseconds: wait)
      } else {
        read = source.readLine(prompt: prompt)
      }
      switch read {
      case .timedOut:
        advanceRealTime()
        // Real time measured a hair short of the delay still means the delay has passed.
        if let left = session.millisecondsUntilAutoAdvance, left > 0 { send(.advanceClock(ms: left)) }
      case .endOfFile:
        quit(options.interactive ? .quit : .endOfInput)
        return .changed
      case .interrupted:
        if let reload = options.reload?(session.document) {
          if case .failed(let diagnostics) = reload {
            say(diagnostics + "! the flow does not load; still running the last good version\n")
            continue
          }
          if case .loaded(let document, let changes) = reload { self.reload(document, changes: changes) }
          return .changed
        }
        if let reason = options.shouldStop() {
          quit(reason)
          return .changed
        }
        if options.interactive { continue }
        quit(.quit)
        return .changed
      case .overlong(let bytes):
        unproductiveLines += 1
        say("! an answer line of \(bytes) bytes was ignored: \(ReadLimit.answerLine.exceededMessage)\n")
      case .line(let line):
        unproductiveLines += 1
        advanceRealTime()
        if !isAt(start) {
          say("(the screen advanced by itself; that line was not used)\n")
          return .changed
        }
        switch InputLanguage.parse(line) {
        case .failure(let error):
          say("! \(error.message)\n")
        case .success(.command(let command)):
          execute(command)
        case .success(.text(let text)):
          return .answer(text, .text(text))  // `::x` arrives as `:x`
        case .success(let parsed):
          return .answer(line, parsed)
        }
      }
    }
  }

  /// How long, in real milliseconds, the current screen may wait for a line before it advances
  /// by itself (`DriverOptions.autoAdvances`), or nil to wait for ever.
  private func autoAdvanceWait() -> Int64? {
    guard options.autoAdvances, let clock = options.elapsedMilliseconds,
      let due = session.millisecondsUntilAutoAdvance
    else { return nil }
    let spent = lastLineAt.map { clock() - $0 } ?? 0
    return max(0, due - spent)
  }

  private func advanceRealTime() {
    guard let clock = options.elapsedMilliseconds, !session.status.isEnded else { return }
    let now = clock()
    defer { lastLineAt = now }
    guard let last = lastLineAt, now > last else { return }
    let matters = session.currentScreen.autoAdvanceMs != nil
    _ = send(.advanceClock(ms: now - last), record: matters)
  }

  // MARK: Answers

  private func fieldPrompt(_ block: Block, _ content: FieldContent) -> String {
    let field = block.fieldName ?? block.id
    let label = fieldLabel(content, field: field)
    let current = read { $0.value(of: block) }
    switch content {
    case .input:
      let shown = current.map { session.secrets.text($0, of: field) } ?? ""
      return label + (shown.isEmpty ? "" : " (\(shown))") + "> "
    case .choice(let choice):
      let range = choice.items.isEmpty ? "" : "1-\(choice.items.count)"
      let hint = choice.allowMultiple ? "[\(range), comma-separated]" : "[\(range)]"
      // The current selection, so that `+PART`/`-PART` (and Enter to keep it) are informed.
      let shown = current.map(\.displayString).flatMap { $0.isEmpty ? nil : " (\($0))" } ?? ""
      return label + " " + hint + shown + "> "
    case .slider(let slider):
      let js = NumberFormatting.javaScriptString
      let shown = current.map(\.displayString).map { " (\($0))" } ?? ""
      return label + " [\(js(slider.min))-\(js(slider.max))]" + shown + "> "
    case .toggle:
      let on = current == .bool(true)
      return label + " [y/n] (\(on ? "y" : "n"))> "
    }
  }

  /// The step an answer to a field prompt stands for, or nil (after explaining) when the
  /// answer cannot be one.
  private func fieldStep(_ content: FieldContent, field: String, line: String) -> ScriptStep.Kind? {
    switch content {
    case .choice(let choice):
      guard let items = optionIDs(answering: line, choice, field: field) else { return nil }
      return .select([ScriptStep.FieldItems(field: field, items: items)])
    case .slider, .toggle:
      return .fill([ScriptStep.FieldValue(field: field, value: .string(line.trimmingWhitespace))])
    case .input:
      return .fill([ScriptStep.FieldValue(field: field, value: .string(line))])
    }
  }

  /// The ids of the options a checklist answer picks (`ChecklistAnswer`), or nil after saying
  /// why it picks none.
  private func optionIDs(answering line: String, _ choice: ChoiceBlock, field: String) -> [String]? {
    let current = selectedOptions(choice, field: field)
    switch ChecklistAnswer.resolve(line, options: session.optionNames(of: choice), current: current, field: field) {
    case .success(let picked): return picked.map { choice.items[$0].id }
    case .failure(let error):
      say("! \(error.message)\n")
      return nil
    }
  }

  /// The indices of a checklist's options the field holds now.
  private func selectedOptions(_ choice: ChoiceBlock, field: String) -> [Int] {
    let values: [Value]
    switch session.value(ofField: field) {
    case .list(let list)?: values = list
    case let value?: values = [value]
    case nil: values = []
    }
    return values.compactMap { value in choice.items.firstIndex { $0.value == value.displayString } }
  }

  // MARK: Commands

  private func execute(_ command: DriverCommand) {
    switch command {
    case .back: play(.back)
    case .skip: skip()
    case .dismiss: play(.dismiss)
    case .set(let field, let value): setAnyField(field, value)
    case .ok(let value): play(.result(.success(value)))
    case .fail(let text): play(.result(.failure(text)))
    case .cancel: play(.result(.cancelled))
    case .decline: play(.decline)
    case .hook(let answer): play(.hook(answer))
    case .webhook(let response): play(.webhook(response))
    case .chat(let turn): play(.chat(turn))
    case .wait(let ms): play(.wait(ms))
    case .goto(let screenID): play(.goto(screenID))
    case .track(let type, let properties): play(.track(type, properties))
    case .quit: quit(.quit)
    case .restart: restart()
    case .data: say(Value.object(session.secrets.data(session.data)).prettyJSON + "\n")
    case .events:
      say(session.events.map { session.secrets.event($0).value.json + "\n" }.joined())
    case .why:
      say(variantsLine)
      if let decision = session.lastBranchDecision {
        say(decisionText(decision.lines))
      } else {
        say("(no branching decision yet)\n")
      }
    case .trace:
      say(variantsLine)
      if session.trace.isEmpty {
        say("(no decisions yet)\n")
      } else {
        say(session.trace.map { decisionText($0.lines) }.joined())
      }
    case .save(let path): save(to: path)
    case .help: say(InputLanguage.helpText)
    }
  }

  /// `:skip`: the screen's skip control, else its one visible button whose action is `skip`
  /// (tapped, so `:skip` does what the "Skip" on screen does), else the engine's refusal.
  private func skip() {
    let skipButtons = session.actions.filter { $0.action == .skip && $0.kind == .button }
    if !session.actions.contains(where: { $0.kind == .skip }), skipButtons.count == 1 {
      say("(:skip taps \(skipButtons[0].number) \(skipButtons[0].label))\n")
      play(.tap(.number(skipButtons[0].number)))
    } else {
      play(.skip)
    }
  }

  /// Decision lines as `:why` and `:trace` print them: on a terminal wrapped at word boundaries
  /// to its width, continued under their own indentation plus two spaces; on a pipe as they are.
  private func decisionText(_ lines: [String]) -> String {
    guard options.interactive else { return lines.map { $0 + "\n" }.joined() }
    let width = max(20, options.width())
    return lines.flatMap { line -> [String] in
      let indent = String(line.prefix { $0 == " " })
      return TextWrapper.wrap(
        String(line.dropFirst(indent.count)), width: width, indent: indent, continuationIndent: indent + "  ")
    }.map { $0 + "\n" }.joined()
  }

  /// `variants: goal_copy=b (forced)`: the variants this session got, which rules and templates
  /// read as `$variant`, first in `:why` and `:trace`; nothing when the flow has no experiment.
  private var variantsLine: String {
    let variants = session.variants
    guard !variants.isEmpty else { return "" }
    let forced = recording.config.variantOverrides
    let parts = variants.map { experiment, variant in
      "\(experiment)=\(variant)" + (forced[experiment] == variant ? " (forced)" : "")
    }
    return "variants: " + parts.joined(separator: ", ") + "\n"
  }

  /// `:set`: a field of the current screen is answered (validated as an answer); any other
  /// field of the flow, or a name the data holds, is set as a debug `setVariable` (the replay
  /// step `set:`), so earlier answers can be supplied after `--start`. Unknown names are refused.
  private func setAnyField(_ field: String, _ value: Value) {
    let known = session.currentScreen.content.flatBlocks.contains { $0.fieldName == field }
    guard known || session.data(field) != nil || documentFieldNames.contains(field) else {
      let hint = closestMatch(to: field, in: documentFieldNames).map { " (did you mean '\($0)'?)" } ?? ""
      say("! no field '\(field)' in this flow\(hint); :set takes a field the flow collects\n")
      return
    }
    let rejected = play(.set([ScriptStep.FieldValue(field: field, value: value)]))
    guard !rejected else { return }
    if value == .string(""), session.data(field) == nil || session.data(field) == .string("") {
      say("(\(field) cleared)\n")
    } else if let stored = session.data(field) {
      say("(\(field) set to \(session.secrets.text(stored, of: field)))\n")
    }
  }

  /// Every field name any screen of the document collects, in document order.
  private lazy var documentFieldNames: [String] = Self.fieldNames(of: session.document)

  private static func fieldNames(of document: FlowDocument) -> [String] {
    var seen: Set<String> = []
    return document.flows.flatMap { flow in
      flow.screens.flatMap { $0.content.flatBlocks.compactMap(\.fieldName) }
    }.filter { seen.insert($0).inserted }
  }

  private func quit(_ reason: DropOffReason) {
    guard !session.status.isEnded else { return }
    send(.quit(reason: reason))
  }

  /// Ends the session and starts the flow again with the same options, under a new session
  /// id: the first session's id followed by `-N` for the N-th restart, so that (session_id,
  /// seq) stays unique in one `--events` file (docs/cli.md).
  private func restart() {
    // Restarting a session in which nothing was accepted starts the very same session again:
    // the line changed nothing, so `yes :restart` ends as stuck like any other such stream.
    let unproductive = recording.inputs.isEmpty ? unproductiveLines : 0
    quit(.quit)
    restarts += 1
    var config = recording.config
    config.sessionID = "\(firstSessionID)-\(restarts)"
    let started: (Session, [Output])
    do {
      started = try Session.start(document: session.document, config: config)
    } catch {
      say("! cannot restart: \(error.message)\n")
      return
    }
    session = started.0
    generation += 1
    unproductiveLines = unproductive
    recording.config = config
    recording.inputs = []
    say("(restarted)\n")
    report(started.1, traceFrom: 0)
    answerHookRequests(in: started.1)
    sendPresetData()
  }

  /// Runs `document` from the start with the answers given so far, up to the first one it
  /// rejects or blocks that the old version did not, and goes on from there; says where the
  /// session now is and what changed. The replay's events are not reported again.
  private func reload(_ document: FlowDocument, changes: [String]) {
    let config = recording.config
    let fresh: Session
    do {
      fresh = try Session.start(document: document, config: config).0
    } catch {
      say("! the new version cannot start: \(error.message); still running the last good version\n")
      return
    }
    var replayed = fresh
    var previous = try? Session.start(document: session.document, config: config).0
    var kept = 0
    var problem: String?
    for input in recording.inputs {
      var attempt = replayed
      let outputs = attempt.send(input)
      let before = previous?.send(input) ?? []
      if let why = Self.failure(outputs, before: before) {
        let steps = Recording(flowPath: "", config: config, inputs: Array(recording.inputs.prefix(kept + 1)))
        let step = ScriptWriter.stepTexts(for: steps, document: session.document).last ?? "?"
        problem = "answer \(kept + 1) (\(step)) no longer fits: \(why)"
        break
      }
      replayed = attempt
      kept += 1
    }
    session = replayed
    recording.inputs = Array(recording.inputs.prefix(kept))
    generation += 1
    documentFieldNames = Self.fieldNames(of: document)
    let place = session.status.isEnded ? session.status.name : "on `\(session.currentScreen.id)`"
    var note = "reloaded: now \(place) after \(kept) answer\(kept == 1 ? "" : "s")"
    if let problem { note += "; \(problem)" }
    let shown = changes.prefix(3).joined(separator: "; ")
    note += changes.isEmpty ? "; no change to screens, fields, rules or actions" : "; " + shown
    if changes.count > 3 { note += "; and \(changes.count - 3) more" }
    say("\n" + terminalSafe(note) + "\n")
  }

  /// Why an input replayed on a new version fails: rejected, or blocked by validation where
  /// the old version let it through.
  private static func failure(_ outputs: [Output], before: [Output]) -> String? {
    for case .rejected(let message) in outputs { return message }
    let blockedBefore = before.contains { if case .validationFailed = $0 { true } else { false } }
    for case .validationFailed(let errors) in outputs where !blockedBefore {
      return errors.map { "\($0.field): \($0.message)" }.joined(separator: "; ")
    }
    return nil
  }

  private func save(to path: String) {
    let protected = [FileIdentity.Role("the flow", recording.flowPath)] + protectedFiles
    if let clash = FileIdentity.clash(inputs: protected, outputs: [FileIdentity.Role(":save", path)]) {
      say("! cannot save: \(clash)\n")
      return
    }
    var saved = recording
    saved.flowPath = FilePaths.relative(path: recording.flowPath, fromDirectoryOf: path)
    let text = ScriptWriter.yaml(for: saved, final: session)
    if let problem = TextFile.write(text, to: path) {
      say("! cannot write \(path): \(problem)\n")
    } else {
      let count = saved.inputs.count
      say("(saved \(count) input\(count == 1 ? "" : "s") to \(path))\n")
    }
  }

  // MARK: Sending

  @discardableResult
  private func send(_ input: Input, record: Bool = true) -> [Output] {
    let traceCount = session.trace.count
    // Only counts and ids are kept across `send`: a copy of the session (or of its data) alive
    // there would make the engine copy what it writes.
    let (before, changesBefore, chatBefore) = (position, session.fields.changes, currentChat)
    let outputs = session.send(input)
    if !outputs.isRejected {
      if record { recording.inputs.append(recorded(input)) }
      onAccepted?(session)
    }
    if let chat = currentChat, chat != chatBefore { chatChanged = true }
    if !isAt(before) || session.fields.changes != changesBefore || chatChanged {
      unproductiveLines = 0
      mayNeedRedraw = true
    }
    report(outputs, traceFrom: traceCount)
    answerHookRequests(in: outputs)
    return outputs
  }

  /// The current screen's conversation; nil at once in a session without any (most flows).
  private var currentChat: ChatState? { session.chats.isEmpty ? nil : read { $0.currentChat } }

  /// Calls the webhooks the outputs ask for (unless offline) and asks the hook command, when
  /// there is one, the host hooks they ask.
  private func answerHookRequests(in outputs: [Output]) {
    for case .hookRequested(let request) in outputs {
      if let call = request.webhook {
        // Offline, the person, a script's `hook:` step or `--mock webhook` answers it instead.
        if !options.offline { send(.webhookAnswered(WebhookClient.response(to: call))) }
      } else if let command = options.hookCommand {
        let answer = command.answer(request)
        if case .failed(let reason) = answer {
          let then = request.kind == .beforeStepRender ? "the step is shown as authored" : "the step proceeds"
          say("! hook command: \(reason); \(then)\n")
        }
        send(.hookAnswered(answer))
      }
    }
  }

  /// The input as a replay script should carry it: text the engine stored as a number or a
  /// boolean (a slider, a number input, a toggle) is recorded as that value, so `:save` and
  /// `--record` write `hours_daily: 5`, not `"5"` (the replay stores the same value).
  private func recorded(_ input: Input) -> Input {
    guard case .set(let field, .string) = input, let stored = read({ $0.value(ofField: field) }) else { return input }
    switch stored {
    case .number, .bool: return .set(field: field, value: stored)
    default: return input
    }
  }

  private func report(_ outputs: [Output], traceFrom traceCount: Int) {
    for output in outputs {
      switch output {
      case .event(let event): onEvent(event)
      case .rejected(let message): say("! \(message)\n")
      case .validationFailed(let errors):
        for error in errors { say("! \(fieldLabel(error.field)): \(error.message)\n") }
      case .actionFailed(let identifier, let message):
        // A hook that blocks did not fail: its message is the error shown.
        let hook = identifier == HookRequest.beforeStepAdvance || identifier == HookRequest.serverWebhook
        say(hook ? "! \(message)\n" : "! \(identifier) failed: \(message)\n")
      case .error(let message): say("! error: \(message)\n")
      case .notice(let message): say("→ \(message)\n")
      case .screenShown, .awaitingResult, .hookRequested, .ended: break
      }
    }
    if options.traceDecisions, session.trace.count > traceCount {
      say(session.trace[traceCount...].map { $0.lines.joined(separator: "\n") + "\n" }.joined())
    }
  }

  /// A field's label as its prompt and its messages name it: the rendered label, else the name.
  private func fieldLabel(_ content: FieldContent?, field: String) -> String {
    let text = content?.label.map { label in read { $0.render(label) } }?.trimmingWhitespace ?? ""
    return text.isEmpty ? field : text
  }

  private func fieldLabel(_ field: String) -> String {
    let block = session.currentScreen.content.flatBlocks.first { $0.fieldName == field }
    return fieldLabel(block?.content.field, field: field)
  }

  /// Everything the driver shows goes here, with terminal controls made visible (flow text,
  /// answers and commands are quoted in `!` lines); the renderer's colours are kept.
  private func say(_ text: String) {
    if !text.isEmpty { output(terminalSafe(text, keepingStyles: options.color)) }
  }

  // MARK: History

  /// Whether a line typed at an ordinary prompt may be kept in the terminal's history: not
  /// when it gives a secret field a value (`:set password …`, `:ok` data with a secret key).
  /// Answers to secret prompts never reach the history at all (`LineSource.readSecretLine`).
  public func mayRemember(_ line: String) -> Bool {
    let secrets = session.secrets
    guard !secrets.fields.isEmpty else { return true }
    switch InputLanguage.parse(line) {
    case .success(.command(.set(let field, _))): return !secrets.isSecret(field)
    case .success(.command(.ok(.object(let members)?))): return !members.keys.contains(where: secrets.isSecret)
    default: return true
    }
  }

  // MARK: Completion

  private enum PromptKind {
    case field(Block)
    case action, pending, generic
  }

  /// Tab candidates for the line typed so far (see `Completion` in FlowTerminal): `:`
  /// commands, then field names after `:set`, screen ids after `:goto`; otherwise what the
  /// prompt accepts (a checklist's option labels, the buttons' labels), as
  /// `ChecklistAnswer.completions` completes them.
  public func completions(linePrefix: String) -> [String] {
    let trimmed = linePrefix.drop(while: \.isWhitespace)
    if trimmed.hasPrefix(":") {
      let parts = trimmed.split(separator: " ", omittingEmptySubsequences: false)
      if parts.count == 1 { return InputLanguage.commandWords }
      if parts.count == 2, parts[0] == ":set" {
        return fieldNames + documentFieldNames.filter { !fieldNames.contains($0) }
      }
      if parts.count == 2, parts[0] == ":goto" { return session.currentFlow.screens.map(\.id) }
      return []
    }
    // Only what the prompt accepts: a field's options, the screen's buttons (a pending native
    // screen keeps its skip control), nothing at a bare prompt.
    let labels: [String]
    switch currentPrompt {
    case .field(let block): labels = optionLabels(block)
    case .action: labels = session.actions.map(\.label)
    case .pending:
      guard case .awaiting(let pending) = session.status, pending.source == .nativeScreen else { return [] }
      labels = session.actions.map(\.label)
    case .generic: labels = []
    }
    return ChecklistAnswer.completions(String(trimmed), labels: labels)
  }

  private var fieldNames: [String] {
    session.visibleBlocks.compactMap(\.fieldName)
  }

  /// The rendered labels of the options a block offers (none but a checklist's).
  private func optionLabels(_ block: Block) -> [String] {
    switch block.content.field {
    case .choice(let choice): choice.items.map { session.render($0.label) }
    case .input, .slider, .toggle, nil: []
    }
  }
}
