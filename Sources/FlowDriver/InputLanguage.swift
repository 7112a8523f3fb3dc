import FlowEngine
import FlowExpression
import OrderedCollections

/// A `:` command of the input language (docs/cli.md).
public enum DriverCommand: Hashable, Sendable {
  case back, skip, dismiss
  /// `:set FIELD VALUE`: VALUE is JSON when it parses as JSON, else the text as typed.
  case set(field: String, value: Value)
  /// `:ok [JSON]`
  case ok(Value?)
  /// `:fail [TEXT]`
  case fail(String?)
  case cancel, decline
  /// `:hook ANSWER`: answers the pending `onBeforeStepAdvance`.
  case hook(HookAnswer)
  /// `:hook STATUS [BODY] | timeout | network [TEXT]`: answers the pending webhook attempt.
  case webhook(WebhookResponse)
  /// `:chat TEXT`, `:reply ID`, `:rate N`: a turn of a chat step.
  case chat(ChatInput)
  case data, events, why, trace
  /// `:wait MS`
  case wait(ms: Int64)
  /// `:goto SCREEN`
  case goto(screenID: String)
  /// `:track TYPE [JSON]`: the host's own event (an event type or a name of the flow's own).
  case track(String, properties: OrderedDictionary<String, Value>)
  case restart
  /// `:save FILE`
  case save(path: String)
  case help, quit
}

/// What one line means before it is matched against the prompt it answers.
public enum InputLine: Hashable, Sendable {
  /// An empty (or blank) line: keep the current value / ask again.
  case empty
  /// Digits only (surrounding spaces ignored): a button or option number at an action or
  /// checklist prompt; plain text at an input prompt.
  case number(Int)
  /// Anything else that is not a command. A line starting with `::` stands for text starting
  /// with `:` (one colon removed).
  case text(String)
  case command(DriverCommand)
}

/// Why a `:` line was not understood.
public struct InputLanguageError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// The input language of `flowrun run` (docs/cli.md, "Input language").
public enum InputLanguage {
  /// Every command with its argument synopsis, in `:help` order.
  public static let commands: [(name: String, arguments: String, summary: String)] = [
    ("back", "", "go back to the previous screen"),
    ("skip", "", "skip this screen (its skip control)"),
    ("dismiss", "", "dismiss the flow"),
    ("set", "FIELD VALUE", "set a field of this screen (VALUE as JSON, else text)"),
    ("ok", "[JSON]", "answer the pending action or native screen: success"),
    ("fail", "[TEXT]", "answer the pending action or native screen: failure"),
    ("cancel", "", "answer the pending action or native screen: cancelled"),
    ("decline", "", "the host declines the native screen (flowrun renders it), or the pending action: cancelled"),
    ("purchased", "", "answer a paywall: purchased (also :restored; :failed, :dismissed)"),
    ("granted", "", "answer a permission prompt: granted (:denied: denied)"),
    (
      "hook", "ANSWER",
      "answer the pending hook: proceed, block [TEXT], stay [TEXT], skipTo STEP, or JSON; "
        + "a webhook: STATUS [BODY], timeout or network [TEXT]"
    ),
    ("chat", "TEXT", "send a message in a chat step"),
    ("reply", "ID", "tap a quick reply of a chat step (by id or text)"),
    ("rate", "N", "rate the chat (1-5 stars) while its rating prompt is shown"),
    ("data", "", "show the collected data as JSON"),
    ("events", "", "show the events so far, one JSON object a line"),
    ("why", "", "explain the last branching decision"),
    ("trace", "", "show every decision so far"),
    ("wait", "MS", "advance the virtual clock by MS milliseconds"),
    ("goto", "SCREEN", "jump to a screen (debugging, no validation)"),
    ("track", "TYPE [JSON]", "send the host's own event of TYPE with JSON properties"),
    ("restart", "", "end this session and start the flow again"),
    ("save", "FILE", "write the session so far as a replay script (YAML)"),
    ("help", "", "show this help"),
    ("quit", "", "end the session (a drop-off; data and events are still written)"),
  ]

  /// `:back`, `:skip`, … for Tab completion.
  public static var commandWords: [String] { commands.map { ":" + $0.name } }

  /// Classifies one line (without its line terminator).
  public static func parse(_ line: String) -> Result<InputLine, InputLanguageError> {
    if let plain = plainLine(line) { return .success(plain) }
    let trimmed = line.trimmingWhitespace
    if trimmed.isEmpty { return .success(.empty) }
    if trimmed.hasPrefix("::") { return .success(.text(String(line.drop { $0 != ":" }.dropFirst()))) }
    if trimmed.hasPrefix(":") {
      return parseCommand(String(trimmed.dropFirst())).map(InputLine.command)
    }
    if trimmed.allSatisfy(\.isASCIIDigit), let number = Int(trimmed) { return .success(.number(number)) }
    return .success(.text(line))
  }

  /// `parse` of the common line, a number or a word (printable ASCII, no space at either end,
  /// no `:` first: nothing to trim, no command), read from its bytes: trimming it and walking
  /// its characters cost as much as the rest of reading a line. Nil for any other line.
  private static func plainLine(_ line: String) -> InputLine? {
    var copy = line
    return copy.withUTF8 { bytes in
      guard let first = bytes.first, let last = bytes.last, first != 0x3A, first != 0x20, last != 0x20 else {
        return nil
      }
      var digits = true
      for byte in bytes {
        guard byte >= 0x20, byte < 0x7F else { return nil }
        if byte < 0x30 || byte > 0x39 { digits = false }
      }
      return digits ? Int(line).map(InputLine.number) ?? .text(line) : .text(line)
    }
  }

  static func parseCommand(_ text: String) -> Result<DriverCommand, InputLanguageError> {
    let name = String(text.prefix { !$0.isWhitespace })
    let argument = String(text.dropFirst(name.count)).trimmingWhitespace
    func bare(_ command: DriverCommand) -> Result<DriverCommand, InputLanguageError> {
      argument.isEmpty ? .success(command) : .failure(InputLanguageError(":\(name) takes no argument"))
    }
    func needs(_ what: String) -> InputLanguageError {
      InputLanguageError(":\(name) needs \(what) (:\(name) \(synopsis(name)))")
    }
    switch name {
    case "back": return bare(.back)
    case "skip": return bare(.skip)
    case "dismiss": return bare(.dismiss)
    case "cancel": return bare(.cancel)
    case "decline": return bare(.decline)
    case "purchased", "restored", "granted": return bare(.ok(nil))
    case "failed", "denied": return bare(.fail(name))
    case "dismissed": return bare(.cancel)
    case "data": return bare(.data)
    case "events": return bare(.events)
    case "why": return bare(.why)
    case "trace": return bare(.trace)
    case "restart": return bare(.restart)
    case "help": return bare(.help)
    case "quit": return bare(.quit)
    case "set":
      let field = String(argument.prefix { !$0.isWhitespace })
      let rest = String(argument.dropFirst(field.count)).trimmingWhitespace
      guard !field.isEmpty else { return .failure(needs("a field and a value")) }
      guard !rest.isEmpty else { return .failure(needs("a value after '\(field)'")) }
      return .success(.set(field: field, value: JSONBridge.value(parsing: rest) ?? .string(rest)))
    case "ok":
      if argument.isEmpty { return .success(.ok(nil)) }
      switch JSONBridge.parse(argument) {
      case .success(let value): return .success(.ok(value))
      case .failure(let error): return .failure(InputLanguageError(":ok takes JSON: \(error.message)"))
      }
    case "fail":
      return .success(.fail(argument.isEmpty ? nil : argument))
    case "hook":
      guard !argument.isEmpty else { return .failure(needs("an answer")) }
      if let response = try? webhookAnswer(argument).get() { return .success(.webhook(response)) }
      return hookAnswer(argument).map(DriverCommand.hook)
    case "chat":
      guard !argument.isEmpty else { return .failure(needs("a message")) }
      return .success(.chat(.send(argument)))
    case "reply":
      guard !argument.isEmpty else { return .failure(needs("a quick reply")) }
      return .success(.chat(.quickReply(argument)))
    case "rate":
      guard let stars = Int(argument), (1...5).contains(stars) else {
        return .failure(InputLanguageError(":rate takes 1 to 5 stars, not '\(argument)'"))
      }
      return .success(.chat(.rate(stars)))
    case "wait":
      guard !argument.isEmpty else { return .failure(needs("a number of milliseconds")) }
      guard argument.allSatisfy(\.isASCIIDigit) else {
        return .failure(InputLanguageError(":wait takes a whole number of milliseconds, not '\(argument)'"))
      }
      guard let ms = Int64(argument), Limits.durationMs.contains(ms) else {
        return .failure(
          InputLanguageError(":wait takes \(Limits.text(Limits.durationMs)) milliseconds, not \(argument)"))
      }
      return .success(.wait(ms: ms))
    case "track":
      let type = String(argument.prefix { !$0.isWhitespace })
      let rest = String(argument.dropFirst(type.count)).trimmingWhitespace
      guard !type.isEmpty else { return .failure(needs("an event type")) }
      // A name the event types do not have is the flow's own: the session decides (Input.track).
      if rest.isEmpty { return .success(.track(type, properties: [:])) }
      guard case .success(.object(let properties)) = JSONBridge.parse(rest) else {
        return .failure(InputLanguageError(":track takes a JSON object of properties after the type"))
      }
      return .success(.track(type, properties: properties))
    case "goto":
      guard !argument.isEmpty else { return .failure(needs("a screen id")) }
      guard !argument.contains(where: \.isWhitespace) else {
        return .failure(InputLanguageError(":goto takes one screen id, not '\(argument)'"))
      }
      return .success(.goto(screenID: argument))
    case "save":
      guard !argument.isEmpty else { return .failure(needs("a file name")) }
      return .success(.save(path: argument))
    case "":
      return .failure(InputLanguageError("a command name must follow ':' (:help lists them)"))
    default:
      var message = "unknown command ':\(name)'"
      if let near = suggestion(for: name) { message += " (did you mean :\(near)?)" }
      return .failure(InputLanguageError(message + "; :help lists the commands"))
    }
  }

  /// A hook answer as typed: JSON (`{"type": "proceedWithData", "data": {…}}`), else a type
  /// name and what it takes (`block Code expired`, `stay`, `skipTo s3`).
  public static func hookAnswer(_ text: String) -> Result<HookAnswer, InputLanguageError> {
    let text = text.trimmingWhitespace
    let word = String(text.prefix { !$0.isWhitespace })
    let rest = String(text.dropFirst(word.count)).trimmingWhitespace
    let value: Value
    switch word {
    case "block", "stay":
      value = rest.isEmpty ? .string(word) : .object(["type": .string(word), "message": .string(rest)])
    case "skipTo", "skip_to": value = .object(["type": .string(word), "stepId": .string(rest)])
    case "proceed" where rest.isEmpty: value = "proceed"
    default:
      guard case .success(let json) = JSONBridge.parse(text) else {
        return .failure(
          InputLanguageError("a hook answer is proceed, block [TEXT], stay [TEXT], skipTo STEP or a JSON result"))
      }
      value = json
    }
    return HookAnswer.parse(value).mapError { InputLanguageError($0.message) }
  }

  /// An answer to a webhook attempt: `STATUS [BODY]` (`HTTP STATUS [BODY]` too), `timeout`,
  /// `network [TEXT]`, or the JSON a script writes (`{"http": 200, "body": {…}}`).
  public static func webhookAnswer(_ text: String) -> Result<WebhookResponse, InputLanguageError> {
    var text = text.trimmingWhitespace
    if text.lowercased().hasPrefix("http ") { text = String(text.dropFirst(5)).trimmingWhitespace }
    let word = String(text.prefix { !$0.isWhitespace })
    let rest = String(text.dropFirst(word.count)).trimmingWhitespace
    if word == "timeout", rest.isEmpty { return .success(.timeout) }
    if word == "network" { return .success(.network(rest.isEmpty ? "network error" : rest)) }
    if word.count == 3, let status = Int(word), (100...599).contains(status) {
      return .success(.response(status: status, body: rest))
    }
    if let value = JSONBridge.value(parsing: text), let response = WebhookResponse.parse(value) {
      return .success(response)
    }
    return .failure(
      InputLanguageError("a webhook answer is STATUS [BODY] (200 {\"action\":\"proceed\"}), timeout or network [TEXT]"))
  }

  static func synopsis(_ name: String) -> String {
    commands.first { $0.name == name }?.arguments ?? ""
  }

  /// The command a typo most likely meant: a unique command with the typed prefix, else one
  /// at edit distance 1.
  static func suggestion(for name: String) -> String? {
    let lowered = name.lowercased()
    if commands.contains(where: { $0.name == lowered }) { return lowered }
    let prefixed = commands.filter { $0.name.hasPrefix(lowered) }
    if prefixed.count == 1 { return prefixed[0].name }
    return commands.first { distanceIsAtMostOne($0.name, lowered) || isOneSwapAway($0.name, lowered) }?.name
  }

  /// `bakc` for `back`: two neighbouring characters swapped.
  private static func isOneSwapAway(_ a: String, _ b: String) -> Bool {
    let a = Array(a)
    let b = Array(b)
    guard a.count == b.count else { return false }
    let differing = a.indices.filter { a[$0] != b[$0] }
    guard differing.count == 2, differing[1] == differing[0] + 1 else { return false }
    return a[differing[0]] == b[differing[1]] && a[differing[1]] == b[differing[0]]
  }

  private static func distanceIsAtMostOne(_ a: String, _ b: String) -> Bool {
    let a = Array(a)
    let b = Array(b)
    if abs(a.count - b.count) > 1 { return false }
    var i = 0
    var j = 0
    var edits = 0
    while i < a.count && j < b.count {
      if a[i] == b[j] {
        i += 1
        j += 1
        continue
      }
      edits += 1
      if edits > 1 { return false }
      if a.count > b.count {
        i += 1
      } else if b.count > a.count {
        j += 1
      } else {
        i += 1
        j += 1
      }
    }
    return edits + (a.count - i) + (b.count - j) <= 1
  }

  /// The `:help` text.
  public static var helpText: String {
    let width = commands.map { $0.name.count + 1 + ($0.arguments.isEmpty ? 0 : $0.arguments.count + 1) }.max() ?? 0
    var lines = [
      "At a prompt: a number picks the button or option with that number; other text answers it",
      "(at a checklist: numbers or labels separated by commas; a toggle: y or n; an empty line keeps",
      "the current value). A line starting with '::' is text starting with ':'. Commands:",
    ]
    for command in commands {
      let head = ":" + command.name + (command.arguments.isEmpty ? "" : " " + command.arguments)
      lines.append("  " + head + String(repeating: " ", count: width - head.count + 2) + command.summary)
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

extension Character {
  var isASCIIDigit: Bool { isASCII && isNumber }
}
