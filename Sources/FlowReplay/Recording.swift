import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections
import Yams

/// A session as it was driven: the options it started with and every input it received, in
/// order. `ScriptWriter` turns it into a replay script that reproduces the session exactly.
public struct Recording: Sendable {
  /// The flow file, as a path relative to where the script will be written, or absolute.
  public var flowPath: String
  public var config: SessionConfig
  public var inputs: [Input]
  /// The script's `name:` (default: `recorded session of <flow>`).
  public var name: String?

  public init(flowPath: String, config: SessionConfig, inputs: [Input], name: String? = nil) {
    self.flowPath = flowPath
    self.config = config
    self.inputs = inputs
    self.name = name
  }
}

/// Writes replay scripts (`*.flow-test.yaml`).
///
/// The inputs are replayed from the start against `final.document` so each `tap` can be
/// written by its label (by number when labels repeat on that screen). An input the session
/// rejected gets `expect_error:` with the rejection. `goto` becomes a `goto:` step and
/// `setVariable` a `set:` step; `quit` ends the steps. The final `expect` states the final
/// status (completed, dismissed, else the screen, and the action still awaited if any), the
/// exact data and the path.
public enum ScriptWriter {
  /// The YAML text of a script replaying `recording` and expecting the state `final` reached.
  ///
  /// Secrets are written masked (in steps, result data and the expected data), so a recording
  /// holds none in clear: an answer as a `SecretStandIn` placeholder, which a replay fills with
  /// a stand-in of the same validation outcome; the expected data as the mask, which matches
  /// any value (docs/security.md). `secrets` is the policy to write with: by default the final
  /// session's (masking); made-up answers that are no one's secret (`paths --emit`) pass
  /// `.none` to keep them as they are.
  public static func yaml(for recording: Recording, final: Session, secrets: SecretPolicy? = nil) -> String {
    yaml(script(for: recording, final: final, secrets: secrets ?? final.secrets))
  }

  /// The YAML script of `recording` from steps written while its inputs were sent to a session
  /// now at `final` (`ScriptSteps`: the covering set's own replay writes them).
  public static func yaml(for recording: Recording, steps: ScriptSteps, final: Session) -> String {
    yaml(script(for: recording, final: final, secrets: steps.secrets, steps: steps.values))
  }

  /// The text is grown as bytes (`paths --emit` writes megabytes of steps: a `String` append
  /// cost about four times a byte array's).
  private static func yaml(_ members: [(key: String, value: JSONWriter.Value)]) -> String {
    var out: [UInt8] = []
    for (key, value) in members {
      switch (key, value) {
      case ("steps", .array(let steps)):
        out.append(utf8: steps.isEmpty ? "steps: []\n" : "steps:\n")
        for step in steps {
          guard case .object(let members) = step, !members.isEmpty else {
            out.append(utf8: "  - ")
            YAMLText.append(step, to: &out)
            out.append(UInt8(ascii: "\n"))
            continue
          }
          for (i, member) in members.enumerated() {
            out.append(utf8: i == 0 ? "  - " : "    ")
            YAMLText.appendMember(member.key, member.value, to: &out)
            out.append(UInt8(ascii: "\n"))
          }
        }
      case ("expect", .object(let expect)):
        out.append(utf8: "expect:\n")
        for member in expect {
          out.append(utf8: "  ")
          YAMLText.appendMember(member.key, member.value, to: &out)
          out.append(UInt8(ascii: "\n"))
        }
      default:
        YAMLText.appendMember(key, value, to: &out)
        out.append(UInt8(ascii: "\n"))
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The same script as JSON (`*.flow-test.json`).
  public static func json(for recording: Recording, final: Session, secrets: SecretPolicy? = nil) -> String {
    JSONWriter.pretty.string(.object(script(for: recording, final: final, secrets: secrets ?? final.secrets))) + "\n"
  }

  /// The script as ordered members.
  static func script(
    for recording: Recording, final: Session, secrets: SecretPolicy, steps: [JSONWriter.Value]? = nil
  ) -> [(
    key: String, value: JSONWriter.Value
  )] {
    let config = recording.config
    var members: [(key: String, value: JSONWriter.Value)] = []
    let name = recording.name ?? "recorded session of \(ScriptParser.defaultName(for: recording.flowPath))"
    members.append((key: "name", value: .string(name)))
    members.append((key: "flow", value: .string(recording.flowPath)))
    if let flowID = config.flowID { members.append((key: "flow_id", value: .string(flowID))) }
    members.append((key: "user", value: .string(config.userID)))
    if let sessionID = config.sessionID { members.append((key: "session_id", value: .string(sessionID))) }
    members.append((key: "now", value: .string(Timestamp.iso8601(milliseconds: config.now))))
    if let start = config.startScreen { members.append((key: "start", value: .string(start))) }
    if config.reportsPlatform { members.append((key: "platform", value: .string(config.platform))) }
    if config.iosQuirks { members.append((key: "ios_quirks", value: .bool(true))) }
    if !config.unavailableFlags.isEmpty {
      members.append((key: "unavailable_flags", value: .array(config.unavailableFlags.sorted().map { .string($0) })))
    }
    if !config.variantOverrides.isEmpty {
      members.append((key: "variants", value: .sortedObject(config.variantOverrides.mapValues { .string($0) })))
    }
    if !config.traits.isEmpty {
      members.append((key: "traits", value: .sortedObject(config.traits.mapValues(\.writerValue))))
    }
    if !config.mocks.isEmpty {
      members.append((key: "mocks", value: .sortedObject(config.mocks.mapValues { resultValue($0) })))
    }
    let steps = steps ?? self.steps(for: recording, document: final.document, secrets: secrets)
    members.append((key: "steps", value: .array(steps)))
    members.append((key: "expect", value: .object(finalExpectation(final, secrets: secrets))))
    return members
  }

  static func resultValue(_ result: ActionResult, secrets: SecretPolicy = .none) -> JSONWriter.Value {
    switch result {
    case .success(let data):
      if let data { return ["status": "success", "data": secrets.data(data).writerValue] }
      return ["status": "success"]
    case .failure(let error):
      if let error { return ["status": "failure", "error": .string(error)] }
      return ["status": "failure"]
    case .cancelled:
      return ["status": "cancelled"]
    }
  }

  /// Each input of `recording` as the step a script writes for it (`{tap: Continue}`), one line
  /// each: how `flowrun diff` shows the inputs that expose a change.
  public static func stepTexts(for recording: Recording, document: FlowDocument) -> [String] {
    steps(for: recording, document: document, secrets: .none).map(YAMLText.flow)
  }

  /// The steps of `recording` (those before a `quit`), replayed from the start (without a
  /// session, when it cannot start, the steps are written without labels).
  static func steps(for recording: Recording, document: FlowDocument, secrets: SecretPolicy) -> [JSONWriter.Value] {
    var config = recording.config
    config.waitsForResults = true
    guard var (session, _) = try? Session.start(document: document, config: config) else {
      return recording.inputs.compactMap { step(for: $0, on: nil, secrets: secrets) }
    }
    var steps = ScriptSteps(secrets: secrets)
    for input in recording.inputs { _ = steps.send(input, to: &session) }
    return steps.values
  }

  /// A secret answer's placeholder, with the validation message the answer got on `session`.
  static func placeholder(_ field: String, _ answer: Value, on session: Session) -> JSONWriter.Value {
    let block = session.currentScreen.content.flatBlocks.first { $0.fieldName == field && session.isVisible($0) }
    let message = block.flatMap { session.validationMessage(of: $0, holding: answer) }
    return SecretStandIn.placeholder(validationMessage: message).writerValue
  }

  static func step(for input: Input, on session: Session?, secrets: SecretPolicy) -> JSONWriter.Value? {
    switch input {
    case .set(let field, let value):
      return .object([(key: "fill", value: .object([(key: field, value: secrets.shown(value, of: field).writerValue)]))]
      )
    case .pick(let field, let items):
      return .object([(key: "select", value: .object([(key: field, value: .array(items.map { .string($0) }))]))])
    case .tap(let selector): return .object([(key: "tap", value: tapValue(selector, among: session?.actions))])
    case .next: return "next"
    case .back: return "back"
    case .skip: return "skip"
    case .dismiss: return "dismiss"
    case .complete: return "complete"
    case .decline: return "decline"
    case .result(let result): return .object([(key: "result", value: resultValue(result, secrets: secrets))])
    case .hookAnswered(let answer): return .object([(key: "hook", value: answer.value.writerValue)])
    case .webhookAnswered(let response): return .object([(key: "hook", value: response.value.writerValue)])
    case .chat(let turn): return .object([(key: "chat", value: turn.value.writerValue)])
    case .wait(let ms), .advanceClock(let ms): return .object([(key: "wait", value: .int(Int(ms)))])
    case .goto(let screen): return .object([(key: "goto", value: .string(screen))])
    case .setVariable(let name, let value):
      return .object([(key: "set", value: .object([(key: name, value: secrets.shown(value, of: name).writerValue)]))])
    case .track(let type, let properties, let name):
      let name = name ?? type.rawValue
      guard !properties.isEmpty else { return .object([(key: "track", value: .string(name))]) }
      return .object([
        (
          key: "track",
          value: .object([
            (key: "type", value: .string(name)),
            (key: "properties", value: Value.object(properties).writerValue),
          ])
        )
      ])
    case .quit: return nil
    }
  }

  /// A label when it names one control of the screen (`actions`, the session's controls), else
  /// the number.
  static func tapValue(_ selector: ButtonSelector, among actions: [ActionEntry]?) -> JSONWriter.Value {
    // Labels are made tap keys only as far as the search and the check that the label names
    // one control need them: trimming and lowercasing every control's label for each tap was
    // a third of writing a step (most screens have one control, whose key no other can share).
    var index: Int?
    if let actions {
      switch selector {
      case .number(let n): index = actions.firstIndex { $0.number == n }
      case .label(let label):
        let key = tapKey(label)
        index = actions.firstIndex { tapKey($0.label) == key } ?? actions.firstIndex { $0.blockID == label }
      case .blockID(let id): index = actions.firstIndex { $0.blockID == id }
      }
    }
    guard let actions, let index else {
      switch selector {
      case .number(let n): return .int(n)
      case .label(let label): return .string(label)
      case .blockID(let id): return ["id": .string(id)]
      }
    }
    let label = actions[index].label.trimmingWhitespace
    if !label.isEmpty, Int(label) == nil {
      let key = label.lowercased()
      if !actions.indices.contains(where: { $0 != index && tapKey(actions[$0].label) == key }) {
        return .string(label)
      }
    }
    return .int(actions[index].number)
  }

  /// A label as a tap matches it: trimmed, in lowercase.
  private static func tapKey(_ label: String) -> String { label.trimmingWhitespace.lowercased() }

  static func finalExpectation(_ final: Session, secrets: SecretPolicy) -> [(key: String, value: JSONWriter.Value)] {
    var members: [(key: String, value: JSONWriter.Value)] = []
    switch final.status {
    case .completed: members.append((key: "completed", value: true))
    case .dismissed: members.append((key: "dismissed", value: true))
    default:
      members.append((key: "screen", value: .string(final.currentScreen.id)))
      // Ended while an awaited action was pending: the replay must leave it pending too
      // (`Replayer` fails an unanswered action unless the final expect says `awaiting`).
      if let pending = final.pending { members.append((key: "awaiting", value: .string(pending.identifier))) }
    }
    members.append((key: "data", value: Value.object(secrets.data(final.data)).writerValue))
    members.append((key: "exact", value: true))
    members.append((key: "path", value: .array(final.path.map { .string($0) })))
    return members
  }
}

/// YAML text for script values, in flow style. Every string is quoted (or left plain) by Yams,
/// as a flow-context scalar, so it reads back as the same string in any position of a script:
/// a key, a value in a block mapping, or an item of a flow collection.
enum YAMLText {
  static func flow(_ value: JSONWriter.Value) -> String {
    var out: [UInt8] = []
    append(value, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// `flow(value)`'s bytes appended to `out`: one buffer grown in place, not pieces joined into
  /// each other (`paths --emit` writes hundreds of thousands of steps).
  static func append(_ value: JSONWriter.Value, to out: inout [UInt8]) {
    switch value {
    case .null: out.append(utf8: "null")
    case .bool(let b): out.append(utf8: b ? "true" : "false")
    case .int(let i): out.append(utf8: String(i))
    case .double(let d): out.append(utf8: JSONWriter.number(d))
    case .string(let s): appendScalar(s, to: &out)
    case .array(let items):
      out.append(UInt8(ascii: "["))
      for (i, item) in items.enumerated() {
        if i > 0 { out.append(utf8: ", ") }
        append(item, to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      for (i, member) in members.enumerated() {
        if i > 0 { out.append(utf8: ", ") }
        appendMember(member.key, member.value, to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// `key: value`, the key quoted as a string value is (`scalar`).
  static func appendMember(_ name: String, _ value: JSONWriter.Value, to out: inout [UInt8]) {
    appendScalar(name, to: &out)
    out.append(utf8: ": ")
    append(value, to: &out)
  }

  /// `scalar(text)`'s bytes appended to `out`: a plain word (nearly every string of a script)
  /// straight from the buffer its scan read, no string returned and read again.
  static func appendScalar(_ text: String, to out: inout [UInt8]) {
    let appended = text.utf8.withContiguousStorageIfAvailable { bytes in
      guard isPlainWord(bytes) else { return false }
      out.append(contentsOf: bytes)
      return true
    }
    if appended != true { out.append(utf8: scalar(text)) }
  }

  /// The string as Yams writes it as the one item of a flow sequence (`[…]` taken off):
  /// plain when that reads back as the same string (not `true`, `1`, `null`, …), else quoted;
  /// double-quoted (line breaks escaped) when another style would take more than one line.
  /// Strings whose style is certain without Yams (words, relative paths, titles with a flow
  /// indicator, timestamps) are written directly: `paths --emit` writes thousands of scripts,
  /// and Yams' tag resolution runs a dozen regular expressions per string.
  static func scalar(_ text: String) -> String {
    if isPlainWord(text) || isPlainPath(text) { return text }
    if isSingleQuoted(text) { return "'" + text + "'" }
    return emittedScalar(text)
  }

  /// `scalar` through Yams, whatever the string. Tests pin the shortcuts to it.
  static func emittedScalar(_ text: String) -> String {
    if let single = emitted(text.represented()), !single.contains(where: \.isNewline) { return single }
    // Emitting a string cannot fail; JSON quoting (valid YAML) stands in should it ever.
    return emitted(Node.Scalar(text, Tag(.str), .doubleQuoted)) ?? JSONWriter.quoted(text)
  }

  /// Words Yams writes plain as they are: an ASCII letter, then ASCII letters, digits, `_`, `-`
  /// and `.` (no indicator, space or colon), and not one of YAML 1.1's booleans or nulls (the
  /// only such words a letter starts).
  static func isPlainWord(_ text: String) -> Bool {
    // A native string's bytes are contiguous: a scan of the buffer spares the UTF-8 view's
    // checks on every byte (`paths --emit` asks about a million words).
    text.utf8.withContiguousStorageIfAvailable(isPlainWord) ?? isPlainWord(text.utf8)
  }

  private static func isPlainWord(_ bytes: some Collection<UInt8>) -> Bool {
    var utf8 = bytes.makeIterator()
    guard let first = utf8.next(), (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z") else {
      return false
    }
    // The word's first bytes lowercased, for the reserved words (all at most five letters).
    var folded = UInt64(first | 0x20)
    var count = 1
    while let byte = utf8.next() {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
        if count < 8 { folded |= UInt64(byte | 0x20) << (8 * count) }
        count += 1
      default:
        return false
      }
    }
    return count > 5 || !isReservedWord(folded)
  }

  /// Booleans and nulls of YAML 1.1 in any case (`y` and `n` too, which some resolvers take),
  /// as their lowercase bytes in a number (first byte lowest). A byte of an ASCII word folds
  /// (`| 0x20`) to a lowercase letter only when it is a letter, so a fold matches a reserved
  /// word exactly when the word does in any case. A switch over constants: a `Set` hashed every
  /// word and ran a `swift_once` (0.67 G of `bundle-200`'s `--emit`).
  static func isReservedWord(_ folded: UInt64) -> Bool {
    switch folded {
    case 0x79,  // y
      0x6E,  // n
      0x73_6579,  // yes
      0x6F6E,  // no
      0x6E6F,  // on
      0x66_666F,  // off
      0x6575_7274,  // true
      0x65_736C_6166,  // false
      0x6C6C_756E:  // null
      return true
    default:
      return false
    }
  }

  /// Relative or absolute file paths Yams writes plain: ASCII letters, digits, `.`, `_`, `-` and
  /// at least one `/`, starting with a letter, `.` or `/` but not `...` (no indicator, and a
  /// slash matches no tag but a string's).
  static func isPlainPath(_ text: String) -> Bool {
    var slash = false
    for (offset, byte) in text.utf8.enumerated() {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "."),
        UInt8(ascii: "/"):
        if byte == UInt8(ascii: "/") { slash = true }
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
        if offset == 0 { return false }
      default:
        return false
      }
    }
    return slash && !text.utf8.starts(with: "...".utf8)
  }

  /// Strings Yams writes single-quoted as they are: printable ASCII without `'`, not starting or
  /// ending with a space, that plain style cannot hold in a flow collection (a `,`, `[`, `]`,
  /// `{`, `}`, `: ` or ` #`), or a timestamp (`2026-01-01T00:00:00.000Z`), which plain style
  /// would read back as a date.
  static func isSingleQuoted(_ text: String) -> Bool {
    let bytes = text.utf8
    guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20 else { return false }
    if isTimestamp(bytes) { return true }
    var indicator = false
    var previous: UInt8 = 0
    for byte in bytes {
      guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "'") else { return false }
      switch byte {
      case UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"):
        indicator = true
      case UInt8(ascii: " ") where previous == UInt8(ascii: ":"): indicator = true
      case UInt8(ascii: "#") where previous == UInt8(ascii: " "): indicator = true
      default: break
      }
      previous = byte
    }
    return indicator
  }

  /// `dddd-dd-ddTdd:dd:dd.dddZ`, as `Timestamp.iso8601` writes (the scripts' `now:`).
  static func isTimestamp(_ bytes: String.UTF8View) -> Bool {
    let shape = Array("dddd-dd-ddTdd:dd:dd.dddZ".utf8)
    guard bytes.count == shape.count else { return false }
    return zip(bytes, shape).allSatisfy { byte, wanted in
      wanted == UInt8(ascii: "d") ? (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) : byte == wanted
    }
  }

  private static func emitted(_ scalar: Node.Scalar) -> String? {
    let node = Node.sequence(Node.Sequence([Node.scalar(scalar)], Tag(.seq), .flow))
    guard let text = try? Yams.serialize(node: node, width: -1, allowUnicode: true),
      text.hasPrefix("["), text.hasSuffix("]\n")
    else { return nil }
    return String(text.dropFirst().dropLast(2))
  }
}

extension [UInt8] {
  /// The string's UTF-8 bytes appended (copied at once from a native string's storage).
  mutating func append(utf8 text: String) {
    var text = text
    text.withUTF8 { append(contentsOf: $0) }
  }
}
