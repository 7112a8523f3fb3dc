import FlowEngine
import FlowExpression
import FlowFormat
import FlowSupport
import OrderedCollections

/// Reads replay scripts (YAML with Yams' node positions; JSON with `JSONParser`).
///
/// Every problem is a `script.*` diagnostic with the file, the line:column of the offending key
/// or value and, for misspelt keys, a "did you mean" note. All problems are reported in one pass.
public enum ScriptParser {
  /// Top-level keys.
  public static let scriptKeys = [
    "name", "flow", "flow_id", "user", "session_id", "variants", "traits", "mocks", "now", "start", "platform",
    "unavailable_flags", "ios_quirks", "steps", "expect", "campaigns", "profile", "timezone",
  ]
  /// Step keys that take an input or a check (one per step), plus `expect_error`.
  public static let stepKeys = [
    "expect", "tap", "fill", "select", "set", "result", "next", "back", "skip", "dismiss",
    "complete", "wait", "goto", "snapshot", "track", "decline", "profile", "hook", "chat",
  ]
  /// What a step mapping may hold.
  static let stepMappingKeys = stepKeys + ["expect_error"]
  /// Steps that may be written as a bare word (`- back`).
  public static let bareSteps = ["next", "back", "skip", "dismiss", "complete", "decline"]
  /// The step each of `bareSteps` stands for (also written `- back: null` or `- back: true`).
  static let bareStepKinds: [String: ScriptStep.Kind] = [
    "next": .next, "back": .back, "skip": .skip, "dismiss": .dismiss, "complete": .complete, "decline": .decline,
  ]
  /// Keys of `expect:` (steps and the final expectation alike).
  public static let expectationKeys = [
    "screen", "text", "errors", "data", "exact", "events", "not_events", "path", "completed",
    "dismissed", "status", "awaiting", "submission", "decision", "decisions", "no_match", "live_journeys",
  ]
  /// Keys of a campaign script (`campaigns:`) that a flow script does not take, and back (`track`
  /// is both: the host's own event in a flow script, an event for the campaigns in a campaign one).
  static let campaignOnlyKeys = [
    "campaigns", "profile", "timezone", "decision", "decisions", "no_match", "live_journeys",
  ]
  static let flowOnlyKeys = [
    "flow", "flow_id", "user", "session_id", "variants", "traits", "mocks", "start", "platform", "unavailable_flags",
    "ios_quirks", "tap", "fill", "hook", "chat", "select", "set", "result", "next", "back", "skip", "complete", "goto",
    "snapshot", "decline",
    "screen", "text", "errors", "data", "exact", "path", "completed", "dismissed", "status", "awaiting", "submission",
  ]
  /// What a campaign decision pattern may name (`expect: {decision: {...}}`).
  static let decisionKeys = [
    "campaign", "trigger", "decision", "reason", "journey", "presentation", "deferral_reason", "replaced",
  ]

  /// Reads and parses the script at `path` (at most `ReadLimit.script`; directories and
  /// devices are refused by kind); an unreadable file is one `script.io` error.
  public static func load(path: String) -> ScriptParseResult {
    switch TextFile.read(path, limit: .script) {
    case .success(let bytes):
      return parse(bytes: bytes, file: path)
    case .failure(let failure):
      return ScriptParseResult(
        script: nil,
        diagnostics: [
          Diagnostic(
            .Script.io, message: "cannot read the script: \(failure.message)", file: path)
        ], source: [])
    }
  }

  /// Parses script text; `file` names it in diagnostics and is the base of relative paths.
  /// JSON is read when `file` ends in `.json` or the text starts with `{`.
  public static func parse(bytes: [UInt8], file: String) -> ScriptParseResult {
    parse(bytes: bytes, file: file, readsStepLines: true)
  }

  /// `parse`; without `readsStepLines` every step is read from its node (the tests compare both).
  static func parse(bytes: [UInt8], file: String, readsStepLines: Bool) -> ScriptParseResult {
    // A UTF-8 byte order mark is no content (editors on Windows write one); positions and
    // excerpts are of the text after it.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      return parse(bytes: Array(bytes.dropFirst(3)), file: file, readsStepLines: readsStepLines)
    }
    // UTF-16 would otherwise read as "control characters" at some column: say what it is.
    if bytes.count >= 2, looksUTF16(bytes[0], bytes[1], startsText: { (0x09...0x7E).contains($0) }) {
      let diagnostic = Diagnostic(
        .Script.syntax, message: "this file is UTF-16 encoded (replay scripts must be UTF-8)", file: file)
      return ScriptParseResult(script: nil, diagnostics: [diagnostic], source: bytes)
    }
    let isJSON =
      file.hasSuffix(".json") || bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{")
    // Steps read from their lines (`SubsetYAML.parseScript`) are a flow script's: a campaign
    // script's are read from their nodes, which `Reader` checks against its keys.
    if !isJSON, readsStepLines, let (root, steps) = SubsetYAML.parseScript(bytes),
      !(root.members ?? []).contains(where: { $0.key == "campaigns" })
    {
      var reader = Reader(file: file, diagnostics: [])
      let script = reader.script(root, steps: steps)
      return ScriptParseResult(
        script: reader.diagnostics.hasErrors ? nil : script, diagnostics: reader.diagnostics, source: bytes)
    }
    let (root, syntax) =
      isJSON ? ScriptNodeReader.json(bytes, file: file) : ScriptNodeReader.yaml(bytes, file: file)
    var reader = Reader(file: file, diagnostics: syntax)
    guard let root, !syntax.hasErrors else {
      return ScriptParseResult(script: nil, diagnostics: reader.diagnostics, source: bytes)
    }
    let script = reader.script(root)
    return ScriptParseResult(
      script: reader.diagnostics.hasErrors ? nil : script, diagnostics: reader.diagnostics, source: bytes)
  }

  /// The script name a file gets when it has no `name:`.
  public static func defaultName(for file: String) -> String {
    var name = file.split(separator: "/").last.map(String.init) ?? file
    for suffix in [".flow-test.yaml", ".flow-test.yml", ".flow-test.json", ".yaml", ".yml", ".json"]
    where name.hasSuffix(suffix) {
      name.removeLast(suffix.count)
      break
    }
    return name
  }

  /// `base`'s directory joined with `relative`, with `.` and `..` folded (lexically).
  public static func resolve(_ relative: String, against base: String) -> String {
    if relative.hasPrefix("/") { return normalize(relative) }
    guard let slash = base.lastIndex(of: "/") else { return normalize(relative) }
    if slash == base.startIndex { return normalize("/" + relative) }
    return normalize(base[..<slash] + "/" + relative)
  }

  static func normalize(_ path: String) -> String {
    // Most paths have nothing to fold (no `.`, `..` or empty component, no trailing slash):
    // skip the split and join, which cost more than the rest of reading a small script.
    var previous: UInt8 = UInt8(ascii: "/")
    var clean = !path.isEmpty
    for byte in path.utf8 {
      if previous == UInt8(ascii: "/") && (byte == UInt8(ascii: "/") || byte == UInt8(ascii: ".")) {
        clean = false
        break
      }
      previous = byte
    }
    if clean && previous != UInt8(ascii: "/") { return path }
    let absolute = path.hasPrefix("/")
    var parts: [Substring] = []
    for part in path.split(separator: "/") {
      if part == "." { continue }
      if part == "..", let last = parts.last, last != ".." {
        parts.removeLast()
        continue
      }
      if part == "..", absolute { continue }
      parts.append(part)
    }
    let joined = parts.joined(separator: "/")
    return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
  }
}

/// The parser proper: walks the located tree and collects diagnostics.
struct Reader {
  let file: String
  var diagnostics: [Diagnostic]
  /// The script has `campaigns:`: it replays a campaign timeline, not a flow.
  var campaignScript = false

  init(file: String, diagnostics: [Diagnostic]) {
    self.file = file
    self.diagnostics = diagnostics
  }

  mutating func error(
    _ id: DiagnosticID, _ message: String, at location: SourceLocation?, path: ScriptPath? = nil,
    notes: [Diagnostic.Note] = []
  ) {
    diagnostics.append(
      Diagnostic(
        id, message: message, file: file, location: location, path: path?.description,
        notes: notes))
  }

  mutating func typeMismatch(_ node: ScriptNode, expected: String, path: ScriptPath) {
    error(.Script.typeMismatch, "\(path): expected \(expected), found \(node.typeName)", at: node.location, path: path)
  }

  mutating func unknownKey(_ member: ScriptNode.Member, known: [String], path: ScriptPath, what: String) {
    var notes: [Diagnostic.Note] = []
    if let match = closestMatch(to: member.key, in: known) {
      notes.append(.init("did you mean '\(match)'?", at: member.keyLocation))
    }
    let fullPath = path.key(member.key)
    error(.Script.unknownKey, "unknown \(what) '\(member.key)'", at: member.keyLocation, path: fullPath, notes: notes)
  }

  /// The members of a mapping with known keys, in source order, each key once (unknown and
  /// duplicate keys are reported and left out).
  struct KnownMembers {
    var members: [ScriptNode.Member] = []

    /// Mappings in scripts have a handful of keys: a scan beats hashing each key.
    subscript(key: String) -> ScriptNode.Member? { members.first { $0.key == key } }
  }

  /// The members of a mapping, reporting unknown and duplicate keys.
  mutating func mapping(
    _ node: ScriptNode, path: ScriptPath, known: [String], what: String = "key"
  ) -> KnownMembers? {
    guard let members = node.members else {
      typeMismatch(node, expected: "a mapping", path: path.isRoot ? "script" : path)
      return nil
    }
    var out = KnownMembers()
    out.members.reserveCapacity(members.count)
    for member in members {
      if !known.contains(member.key) {
        unknownKey(member, known: known, path: path, what: what)
        continue
      }
      if out[member.key] != nil {
        error(.Script.duplicateKey, "duplicate key '\(member.key)'", at: member.keyLocation, path: path.key(member.key))
        continue
      }
      if !path.isRoot, !fitsMode(member, path: path) { continue }
      out.members.append(member)
    }
    return out
  }

  mutating func string(_ node: ScriptNode, path: ScriptPath) -> String? {
    if case .scalar(.string(let s)) = node.kind { return s }
    typeMismatch(node, expected: "a string", path: path)
    return nil
  }

  /// A string, or a number or boolean taken as its spelling (ids, labels, variant names).
  mutating func label(_ node: ScriptNode, path: ScriptPath) -> String? {
    if case .scalar = node.kind, let text = node.scalarText { return text }
    typeMismatch(node, expected: "a string", path: path)
    return nil
  }

  mutating func bool(_ node: ScriptNode, path: ScriptPath) -> Bool? {
    if case .scalar(.bool(let b)) = node.kind { return b }
    typeMismatch(node, expected: "true or false", path: path)
    return nil
  }

  mutating func stringList(_ node: ScriptNode, path: ScriptPath, allowSingle: Bool = true) -> [String]? {
    if allowSingle, case .scalar = node.kind, let text = node.scalarText { return [text] }
    guard let elements = node.elements else {
      typeMismatch(node, expected: allowSingle ? "a string or a list of strings" : "a list of strings", path: path)
      return nil
    }
    var out: [String] = []
    for (i, element) in elements.enumerated() {
      guard let text = label(element, path: path.index(i)) else { return nil }
      out.append(text)
    }
    return out
  }

  /// Whether `member` belongs to this kind of script (a flow script's `tap`, a campaign
  /// script's `track`); reported when not.
  mutating func fitsMode(_ member: ScriptNode.Member, path: ScriptPath) -> Bool {
    let foreign = campaignScript ? ScriptParser.flowOnlyKeys : ScriptParser.campaignOnlyKeys
    guard foreign.contains(member.key) else { return true }
    let message =
      campaignScript
      ? "'\(member.key)' belongs to flow scripts; this one replays campaigns ('campaigns:')"
      : "'\(member.key)' belongs to campaign scripts, which name their payload with 'campaigns:'"
    error(.Script.unknownKey, message, at: member.keyLocation, path: path.key(member.key))
    return false
  }

  /// `campaigns:` and `profile:` resolved against the script, with `timezone:`.
  mutating func campaignFiles(_ member: ScriptNode.Member, keys: KnownMembers) -> CampaignFiles? {
    guard let payload = string(member.value, path: "campaigns") else { return nil }
    var files = CampaignFiles(
      campaigns: ScriptParser.resolve(payload, against: file), campaignsLocation: member.value.location)
    if let profile = keys["profile"], let path = string(profile.value, path: "profile") {
      files.profile = ScriptParser.resolve(path, against: file)
    }
    if let zone = keys["timezone"] { files.timezone = label(zone.value, path: "timezone") ?? "UTC" }
    return files
  }

  // MARK: Script

  /// The script of `root`; `steps` holds the entries of `steps:` already read from their lines
  /// (`SubsetYAML.parseScript`), nil where the entry's node is to be read.
  mutating func script(_ root: ScriptNode, steps prepared: [ScriptStep?] = []) -> ReplayScript? {
    guard let keys = mapping(root, path: .root, known: ScriptParser.scriptKeys) else { return nil }
    var script = ReplayScript(file: file, name: "", flow: "", flowPath: "")
    if let member = keys["campaigns"] {
      campaignScript = true
      script.campaigns = campaignFiles(member, keys: keys)
    }
    for member in keys.members where !fitsMode(member, path: .root) { return nil }
    if let member = keys["name"], let name = label(member.value, path: "name") {
      script.name = name
    } else {
      script.name = ScriptParser.defaultName(for: file)
    }
    script.steps.reserveCapacity(keys["steps"]?.value.elements?.count ?? 0)
    if let member = keys["flow"] {
      if let flow = string(member.value, path: "flow") {
        script.flow = flow
        script.flowPath = ScriptParser.resolve(flow, against: file)
        script.flowLocation = member.value.location
      }
    } else if !campaignScript {
      error(
        .Script.missingKey, "missing 'flow': the flow file to run, relative to this script",
        at: root.location, path: "flow")
    }
    if let member = keys["flow_id"] { script.flowID = label(member.value, path: "flow_id") }
    if let member = keys["user"] { script.user = label(member.value, path: "user") }
    if let member = keys["session_id"] { script.sessionID = label(member.value, path: "session_id") }
    if let member = keys["start"] { script.start = label(member.value, path: "start") }
    if let member = keys["platform"], let platform = label(member.value, path: "platform") {
      if ["ios", "android"].contains(platform) {
        script.platform = platform
      } else {
        error(
          .Script.invalidValue, "platform: '\(platform)' is not ios or android", at: member.value.location,
          path: "platform")
      }
    }
    if let member = keys["ios_quirks"] { script.iosQuirks = bool(member.value, path: "ios_quirks") ?? false }
    if let member = keys["unavailable_flags"] {
      script.unavailableFlags = stringList(member.value, path: "unavailable_flags") ?? []
    }
    if let member = keys["now"] { now(member.value, into: &script) }
    if let member = keys["variants"], let members = member.value.members {
      for entry in members {
        if let variant = label(entry.value, path: ScriptPath("variants").key(entry.key)) {
          script.variants[entry.key] = variant
          script.variantLocations[entry.key] = entry.keyLocation
        }
      }
    } else if let member = keys["variants"] {
      typeMismatch(member.value, expected: "a mapping of experiment ids to variant ids", path: "variants")
    }
    if let member = keys["traits"], let members = member.value.members {
      for entry in members { script.traits[entry.key] = entry.value.value }
    } else if let member = keys["traits"] {
      typeMismatch(member.value, expected: "a mapping", path: "traits")
    }
    if let member = keys["mocks"], let members = member.value.members {
      for entry in members {
        if let result = actionResult(entry.value, path: ScriptPath("mocks").key(entry.key)) {
          script.mocks[entry.key] = result
        }
      }
    } else if let member = keys["mocks"] {
      typeMismatch(member.value, expected: "a mapping of action identifiers to results", path: "mocks")
    }
    if let member = keys["steps"] {
      if let elements = member.value.elements {
        for (i, element) in elements.enumerated() {
          if i < prepared.count, let step = prepared[i] {
            script.steps.append(step)
          } else if let step = step(element, path: ScriptPath("steps").index(i)) {
            script.steps.append(step)
          }
        }
      } else if case .scalar(.null) = member.value.kind {
      } else {
        typeMismatch(member.value, expected: "a list of steps", path: "steps")
      }
    }
    if let member = keys["expect"] {
      script.expectation = expectation(member.value, path: "expect", at: member.keyLocation)
    }
    return script
  }

  mutating func now(_ node: ScriptNode, into script: inout ReplayScript) {
    switch node.kind {
    case .scalar(.integer(let ms)) where Limits.clockMs.contains(ms): script.now = ms
    case .scalar(.integer):
      error(.Script.invalidValue, "now: \(node.text ?? ""): \(Limits.clockText)", at: node.location, path: "now")
    case .scalar(.null), .scalar(.bool), .mapping, .sequence, .scalar(.number):
      typeMismatch(node, expected: "an ISO-8601 time or epoch milliseconds", path: "now")
    case .scalar(.string):
      if let text = node.text, let ms = CivilTime.instant(iso8601: text)?.milliseconds {
        guard Limits.clockMs.contains(ms) else {
          error(.Script.invalidValue, "now: '\(text)': \(Limits.clockText)", at: node.location, path: "now")
          return
        }
        script.now = ms
      } else {
        error(
          .Script.invalidValue, "now: '\(node.text ?? "")' is not an ISO-8601 time such as 2026-01-01T09:30:00Z",
          at: node.location, path: "now")
      }
    }
  }

  mutating func actionResult(_ node: ScriptNode, path: ScriptPath) -> ActionResult? {
    if case .scalar = node.kind, let text = node.scalarText {
      switch text {
      case "success": return .success(nil)
      case "failure": return .failure(nil)
      case "cancelled": return .cancelled
      default: if let result = ActionResult.outcome(named: text) { return result }
      }
    }
    guard let keys = mapping(node, path: path, known: ["status", "data", "error"]) else { return nil }
    guard let statusMember = keys["status"] else {
      error(
        .Script.missingKey, "\(path): missing 'status' (success, failure or cancelled)", at: node.location, path: path)
      return nil
    }
    guard let status = label(statusMember.value, path: path.key("status")) else { return nil }
    switch status {
    case "success":
      if let error = keys["error"] {
        self.error(.Script.invalidValue, "\(path): 'error' goes with status failure", at: error.keyLocation, path: path)
      }
      return .success(keys["data"]?.value.value)
    case "failure":
      if let data = keys["data"] {
        error(.Script.invalidValue, "\(path): 'data' goes with status success", at: data.keyLocation, path: path)
      }
      if let member = keys["error"] {
        guard let text = label(member.value, path: path.key("error")) else { return nil }
        return .failure(text)
      }
      return .failure(nil)
    case "cancelled":
      return .cancelled
    default:
      var notes: [Diagnostic.Note] = []
      if let match = closestMatch(to: status, in: ["success", "failure", "cancelled"]) {
        notes.append(.init("did you mean '\(match)'?", at: statusMember.value.location))
      }
      error(
        .Script.invalidValue, "\(path).status: '\(status)' is not success, failure or cancelled",
        at: statusMember.value.location, path: path.key("status"), notes: notes)
      return nil
    }
  }

  /// `track: TYPE` or `track: {type: TYPE, properties: {...}}`.
  mutating func hostEvent(
    _ node: ScriptNode, path: ScriptPath
  ) -> (type: String, properties: OrderedDictionary<String, Value>)? {
    var typeNode = node
    var properties: OrderedDictionary<String, Value> = [:]
    if node.members != nil {
      guard let keys = mapping(node, path: path, known: ["type", "properties"]) else { return nil }
      guard let member = keys["type"] else {
        error(.Script.missingKey, "\(path): missing 'type' (an event type)", at: node.location, path: path)
        return nil
      }
      typeNode = member.value
      if let member = keys["properties"] {
        guard case .object(let object) = member.value.value else {
          typeMismatch(member.value, expected: "a mapping of properties", path: path.key("properties"))
          return nil
        }
        properties = object
      }
    }
    // A name the event types do not have is the flow's own: the session decides (Input.track).
    guard let name = label(typeNode, path: path) else { return nil }
    return (name, properties)
  }

  // MARK: Steps

  mutating func step(_ node: ScriptNode, path: ScriptPath) -> ScriptStep? {
    if case .scalar = node.kind {
      let word = node.scalarText ?? ""
      if let kind = ScriptParser.bareStepKinds[word] { return ScriptStep(kind, location: node.location) }
      var notes: [Diagnostic.Note] = []
      let steps = ScriptParser.stepKeys.filter {
        !(campaignScript ? ScriptParser.flowOnlyKeys : ScriptParser.campaignOnlyKeys).contains($0)
      }
      if let match = closestMatch(to: word, in: ScriptParser.bareSteps + steps) {
        notes.append(.init("did you mean '\(match)'?", at: node.location))
      }
      let hint =
        steps.contains(word)
        ? "'\(word)' needs a value (\(word): ...)" : "unknown step '\(word)'"
      error(
        .Script.unknownStep, "\(path): \(hint); a step is one of \(steps.joined(separator: ", "))",
        at: node.location, path: path, notes: notes)
      return nil
    }
    guard let keys = mapping(node, path: path, known: ScriptParser.stepMappingKeys, what: "step")
    else { return nil }
    let actionKeys = keys.members.map(\.key).filter { $0 != "expect_error" }
    guard let key = actionKeys.first else {
      if keys["expect_error"] != nil {
        error(
          .Script.missingKey, "\(path): expect_error goes with an input step (tap, fill, select, set, ...)",
          at: node.location, path: path)
      } else if (node.members ?? []).isEmpty {
        error(.Script.missingKey, "\(path): empty step", at: node.location, path: path)
      }
      return nil
    }
    if actionKeys.count > 1, let second = keys[actionKeys[1]] {
      error(
        .Script.multipleActions, "\(path): one step does one thing; found '\(actionKeys[0])' and '\(actionKeys[1])'",
        at: second.keyLocation, path: path)
      return nil
    }
    guard let member = keys[key] else { return nil }
    let stepPath = path.key(key)
    var expectError: String?
    if let errorMember = keys["expect_error"] {
      expectError = label(errorMember.value, path: path.key("expect_error"))
      if key == "expect" || key == "snapshot" {
        error(
          .Script.invalidValue, "\(path): expect_error goes with an input step, not '\(key)'",
          at: errorMember.keyLocation, path: path)
      }
    }
    let value = member.value
    let location = member.keyLocation
    func make(_ kind: ScriptStep.Kind) -> ScriptStep {
      ScriptStep(kind, location: location, expectError: expectError)
    }
    switch key {
    case "expect":
      return expectation(value, path: stepPath, at: location).map { make(.expect($0)) }
    case "tap":
      switch value.kind {
      case .scalar(.integer(let n)):
        guard n >= 1 else {
          error(.Script.invalidValue, "\(stepPath): button numbers start at 1", at: value.location, path: stepPath)
          return nil
        }
        return make(.tap(.number(Int(n))))
      case .mapping:
        guard let sub = mapping(value, path: stepPath, known: ["id", "label", "number"]), let first = sub.members.first
        else { return nil }
        switch first.key {
        case "id": return label(first.value, path: stepPath.key("id")).map { make(.tap(.blockID($0))) }
        case "label": return label(first.value, path: stepPath.key("label")).map { make(.tap(.label($0))) }
        default:
          if case .scalar(.integer(let n)) = first.value.kind, n >= 1 { return make(.tap(.number(Int(n)))) }
          typeMismatch(first.value, expected: "a button number (1, 2, ...)", path: stepPath.key("number"))
          return nil
        }
      default:
        return label(value, path: stepPath).map { make(.tap(.label($0))) }
      }
    case "fill", "set":
      guard let members = value.members else {
        typeMismatch(value, expected: "a mapping of field names to values", path: stepPath)
        return nil
      }
      let fields = members.map { ScriptStep.FieldValue(field: $0.key, value: $0.value.value, location: $0.keyLocation) }
      return make(key == "fill" ? .fill(fields) : .set(fields))
    case "select":
      guard let members = value.members else {
        typeMismatch(value, expected: "a mapping of checklist fields to items", path: stepPath)
        return nil
      }
      var picks: [ScriptStep.FieldItems] = []
      for entry in members {
        guard let items = stringList(entry.value, path: stepPath.key(entry.key)) else { return nil }
        picks.append(ScriptStep.FieldItems(field: entry.key, items: items, location: entry.keyLocation))
      }
      return make(.select(picks))
    case "result":
      return actionResult(value, path: stepPath).map { make(.result($0)) }
    case "hook":
      if WebhookResponse.isWebhookAnswer(value.value) {
        guard let response = WebhookResponse.parse(value.value) else {
          error(
            .Script.invalidValue,
            "\(stepPath): a webhook answer is {http: STATUS (100-599), body: …}, {timeout: true} or {network: TEXT}",
            at: value.location, path: stepPath)
          return nil
        }
        return make(.webhook(response))
      }
      switch HookAnswer.parse(value.value) {
      case .success(let answer): return make(.hook(answer))
      case .failure(let reason):
        error(.Script.invalidValue, "\(stepPath): \(reason.message)", at: value.location, path: stepPath)
        return nil
      }
    case "chat":
      return chatStep(value, path: stepPath).map(make)
    case "next", "back", "skip", "dismiss", "complete", "decline":
      switch value.kind {
      case .scalar(.null), .scalar(.bool(true)): break
      default:
        typeMismatch(value, expected: "nothing (write '- \(key)')", path: stepPath)
        return nil
      }
      return ScriptParser.bareStepKinds[key].map(make)
    case "wait":
      guard case .scalar(.integer(let ms)) = value.kind, Limits.durationMs.contains(ms) else {
        if case .scalar(.integer) = value.kind {
          error(
            .Script.invalidValue,
            "\(stepPath): wait must be \(Limits.text(Limits.durationMs)) milliseconds, found \(value.text ?? "")",
            at: value.location, path: stepPath)
        } else {
          typeMismatch(value, expected: "a whole number of milliseconds", path: stepPath)
        }
        return nil
      }
      return make(.wait(ms))
    case "goto":
      return label(value, path: stepPath).map { make(.goto($0)) }
    case "track" where campaignScript:
      if case .mapping = value.kind {
        guard let sub = mapping(value, path: stepPath, known: ["name", "properties"]),
          let name = sub["name"].flatMap({ label($0.value, path: stepPath.key("name")) })
        else {
          error(.Script.missingKey, "\(stepPath): track needs 'name'", at: value.location, path: stepPath)
          return nil
        }
        let properties = sub["properties"]?.value.value ?? .object([:])
        guard case .object = properties else {
          typeMismatch(sub["properties"]!.value, expected: "a mapping", path: stepPath.key("properties"))
          return nil
        }
        return make(.campaignEvent(name, properties))
      }
      return label(value, path: stepPath).map { make(.campaignEvent($0, .object([:]))) }
    case "profile":
      guard value.members != nil else {
        typeMismatch(value, expected: "a mapping of user properties", path: stepPath)
        return nil
      }
      return make(.campaignProfile(value.value))
    case "snapshot":
      return string(value, path: stepPath).map { make(.snapshot($0)) }
    case "track":
      return hostEvent(value, path: stepPath).map { make(.track($0.type, $0.properties)) }
    default:
      return nil
    }
  }

  // MARK: Expectations

  /// `submission: {data, last_screen_id, last_screen_index, completed}`.
  mutating func submission(_ node: ScriptNode, path: ScriptPath) -> SubmissionExpectation? {
    let known = ["data", "last_screen_id", "last_screen_index", "completed"]
    guard let keys = mapping(node, path: path, known: known) else { return nil }
    var result = SubmissionExpectation()
    let before = diagnostics.count
    for member in keys.members {
      let keyPath = path.key(member.key)
      switch member.key {
      case "data":
        if member.value.members != nil {
          result.data = member.value.value
        } else {
          typeMismatch(member.value, expected: "a mapping", path: keyPath)
        }
      case "last_screen_id": result.lastScreenID = label(member.value, path: keyPath)
      case "last_screen_index":
        if case .number(let number) = member.value.value, number >= 0, number < 1e9, number == number.rounded() {
          result.lastScreenIndex = Int(number)
        } else {
          typeMismatch(member.value, expected: "a whole number from 0", path: keyPath)
        }
      case "completed": result.completed = bool(member.value, path: keyPath)
      default: break
      }
    }
    return diagnostics.count == before ? result : nil
  }

  mutating func expectation(_ node: ScriptNode, path: ScriptPath, at location: SourceLocation) -> Expectation? {
    guard let keys = mapping(node, path: path, known: ScriptParser.expectationKeys) else { return nil }
    var result = Expectation(location: location)
    let before = diagnostics.count
    for member in keys.members {
      let value = member.value
      let at = member.keyLocation
      let keyPath = path.key(member.key)
      switch member.key {
      case "screen": result.screen = label(value, path: keyPath).map { .init($0, at: at) }
      case "text": result.text = stringList(value, path: keyPath).map { .init($0, at: at) }
      case "errors":
        if let members = value.members {
          var errors: [String: String] = [:]
          for entry in members {
            if let text = label(entry.value, path: keyPath.key(entry.key)) { errors[entry.key] = text }
          }
          result.errors = .init(errors, at: at)
        } else {
          typeMismatch(value, expected: "a mapping of fields to messages", path: keyPath)
        }
      case "data":
        if value.members != nil {
          result.data = .init(value.value, at: at)
        } else {
          typeMismatch(value, expected: "a mapping", path: keyPath)
        }
      case "exact": result.exact = bool(value, path: keyPath) ?? false
      case "events", "not_events":
        guard let elements = value.elements else {
          typeMismatch(value, expected: "a list of event types or event objects", path: keyPath)
          continue
        }
        var patterns: [Expectation.EventPattern] = []
        for (i, element) in elements.enumerated() {
          switch element.kind {
          case .mapping:
            patterns.append(.subset(element.value))
          default:
            guard let name = label(element, path: keyPath.index(i)) else { continue }
            // `$…` names are Nuxie's (its flows' system events are not engine event types).
            if !campaignScript, !name.hasPrefix("$"), EventType(rawValue: name) == nil {
              var notes: [Diagnostic.Note] = []
              if let match = closestMatch(to: name, in: EventType.allCases.map(\.rawValue), maxDistance: 4) {
                notes.append(.init("did you mean '\(match)'?", at: element.location))
              }
              error(
                .Script.unknownEvent, "\(keyPath)[\(i)]: unknown event type '\(name)'", at: element.location,
                path: keyPath.index(i), notes: notes)
            }
            patterns.append(.type(name))
          }
        }
        if member.key == "events" {
          result.events = .init(patterns, at: at)
        } else {
          result.notEvents = .init(patterns, at: at)
        }
      case "path": result.path = stringList(value, path: keyPath, allowSingle: false).map { .init($0, at: at) }
      case "completed": result.completed = bool(value, path: keyPath).map { .init($0, at: at) }
      case "dismissed": result.dismissed = bool(value, path: keyPath).map { .init($0, at: at) }
      case "status":
        if let status = label(value, path: keyPath) {
          let known = ["running", "awaiting", "completed", "dismissed", "quit", "failed"]
          if known.contains(status) {
            result.status = .init(status, at: at)
          } else {
            error(
              .Script.invalidValue, "\(keyPath): '\(status)' is not one of \(known.joined(separator: ", "))",
              at: value.location, path: keyPath)
          }
        }
      case "awaiting": result.awaiting = label(value, path: keyPath).map { .init($0, at: at) }
      case "submission": result.submission = submission(value, path: keyPath).map { .init($0, at: at) }
      case "decision", "decisions":
        let items = member.key == "decision" ? [value] : (value.elements ?? [])
        if member.key == "decisions" && value.elements == nil {
          typeMismatch(value, expected: "a list of decisions", path: keyPath)
        }
        var patterns: [Value] = []
        for (i, item) in items.enumerated() {
          let itemPath = member.key == "decision" ? keyPath : keyPath.index(i)
          if mapping(item, path: itemPath, known: ScriptParser.decisionKeys) != nil { patterns.append(item.value) }
        }
        if member.key == "decision" {
          result.decision = patterns.first.map { .init($0, at: at) }
        } else {
          result.decisions = .init(patterns, at: at)
        }
      case "no_match": result.noMatch = bool(value, path: keyPath).map { .init($0, at: at) }
      case "live_journeys":
        if case .scalar(.integer(let n)) = value.kind, n >= 0 {
          result.liveJourneys = .init(Int(n), at: at)
        } else {
          typeMismatch(value, expected: "a count (0, 1, ...)", path: keyPath)
        }
      default: break
      }
    }
    if result.exact && result.data == nil {
      error(
        .Script.invalidValue, "\(path.key("exact")): 'exact' applies to 'data', which is missing", at: location,
        path: path)
    }
    return diagnostics.count == before ? result : nil
  }
}

extension Reader {
  /// `chat: {send: TEXT} | {quick_reply: ID} | {rate: N}`, or the chat webhook's answer:
  /// `{reply: {…}}` (HTTP 200 with that body) or a webhook answer (`{http: …}`, `{timeout: true}`,
  /// `{network: TEXT}`).
  mutating func chatStep(_ node: ScriptNode, path: ScriptPath) -> ScriptStep.Kind? {
    let value = node.value
    if case .object(let object) = value, object.count == 1, let entry = object.elements.first {
      let item = entry.value
      switch (entry.key, item) {
      case ("send", .string(let text)): return .chat(.send(text))
      case ("quick_reply", .string(let id)): return .chat(.quickReply(id))
      case ("rate", .number(let stars)) where stars.rounded() == stars && (1...5).contains(stars):
        return .chat(.rate(Int(stars)))
      case ("reply", .object): return .webhook(.response(status: 200, body: item.json))
      default: break
      }
    }
    if WebhookResponse.isWebhookAnswer(value), let response = WebhookResponse.parse(value) { return .webhook(response) }
    error(
      .Script.invalidValue,
      "\(path): a chat step is {send: TEXT}, {quick_reply: ID}, {rate: 1-5}, {reply: {…}}, {http: STATUS, body: …}, "
        + "{timeout: true} or {network: TEXT}",
      at: node.location, path: path)
    return nil
  }
}
