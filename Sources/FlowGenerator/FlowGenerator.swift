/// Generates valid flow and bundle documents (flow-format v1) from a seed, for benchmarks and
/// robustness tests.
///
/// The same options always give byte-identical output: every random choice goes through
/// ``SplitMix64`` and the text is written by ``JSONText`` with a fixed layout. Every document
/// loads with no errors and no warnings: ids and field names are unique, rules and `goto`s only
/// go forward (so every path ends), sub-flows only run later sub-flows (no cycles), templates
/// and conditions only use the expression language's documented syntax.
///
/// The flows are also clean under `flowrun check`'s lint rules, the way a product team would
/// write them: the order successor always continues to the next screen (a catch-all rule goes
/// there too, and comes last), rules and buttons only jump a few screens ahead, so every screen
/// is reachable; conditions and templates read only fields collected on every path to them
/// (a template reading a field some path skips uses `| default:`); conditions compare with
/// values the field can take (on-step slider values inside the range, existing item ids) and
/// are false for each field's first answer, so answering with those walks every screen in order
/// (see `Field`); each field is compared by one screen's rules only.
public struct FlowGenerator {
  /// What to generate.
  public struct Options: Sendable, Equatable {
    public var seed: UInt64 = 1
    /// Screens of the entry flow (before padding).
    public var screens: Int = 20
    /// Rules on a screen that has rules.
    public var branching: Int = 2
    /// Fraction of screens (0...1) that have rules.
    public var ruleDensity: Double = 0.3
    /// Relative weights of the content blocks on question screens.
    public var mix = BlockMix()
    /// Local experiments (flow-format §8), each with two or three variants.
    public var experiments: Int = 0
    /// Sub-flows: makes a bundle whose entry flow runs each of them from a `flow` screen.
    public var subflows: Int = 0
    /// Screens of each sub-flow.
    public var subflowScreens: Int = 4
    /// Write a bundle even without sub-flows.
    public var bundle: Bool = false
    /// When set, informational screens (long text, feature cards, rich text) are appended to
    /// the entry flow until the document is at least this many bytes.
    public var targetBytes: Int? = nil
    /// Fraction of texts (0...1) that read a field through a template once one is collected;
    /// nil: a quarter of informational texts and half of the texts on question screens.
    public var templateShare: Double? = nil

    public init() {}

    /// True when the document is a bundle (`flows`) rather than one flow (`screens`).
    public var isBundle: Bool { bundle || subflows > 0 }
  }

  /// Relative weights of block kinds; a weight of 0 leaves that kind out.
  public struct BlockMix: Sendable, Equatable {
    public var inputs = 2
    public var checklists = 2
    public var sliders = 1
    public var toggles = 1
    public var texts = 3
    public var buttons = 1

    public init() {}

    /// Parses `inputs=2,checklists=1,sliders=0,...`; nil on an unknown name or a bad weight.
    public init?(parsing text: String) {
      for part in text.split(separator: ",") {
        let pair = part.split(separator: "=", maxSplits: 1)
        guard pair.count == 2, let weight = Int(pair[1]), weight >= 0 else { return nil }
        switch pair[0].trimmingCharacters(in: " ") {
        case "inputs", "input": inputs = weight
        case "checklists", "checklist": checklists = weight
        case "sliders", "slider": sliders = weight
        case "toggles", "toggle": toggles = weight
        case "texts", "text": texts = weight
        case "buttons", "button": buttons = weight
        default: return nil
        }
      }
    }

    var total: Int { inputs + checklists + sliders + toggles + texts + buttons }
  }

  public var options: Options

  public init(_ options: Options) {
    self.options = options
  }

  /// The document's bytes.
  public func generate() -> [UInt8] {
    var state = State(options: options)
    return state.document()
  }

  /// The document as text.
  public func generateString() -> String {
    String(decoding: generate(), as: UTF8.self)
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in character: Character) -> Substring {
    var s = self
    while s.first == character { s.removeFirst() }
    while s.last == character { s.removeLast() }
    return s
  }
}

// MARK: - Generation

/// A field collected earlier in the flow, which later conditions and templates may use.
///
/// Conditions are written to be false for the field's *first answer* — the slider's default,
/// a number input's minimum, the first item, a toggle flipped from its default — and true for
/// some other answer it can take. So the flow has a main path that answers with those and
/// passes every screen in order, whatever branches the other answers take; `paths` (which
/// tries the first answers together first) finds it.
private struct Field {
  enum Kind { case text, email, number, choice, multiChoice, bool }
  var name: String
  var kind: Kind
  /// Item values for choices (the first is the first answer).
  var values: [String] = []
  /// Bounds and step for numbers.
  var range: ClosedRange<Int> = 0...100
  var step = 1
  /// The first answer of a number (a slider's default, a number input's minimum).
  var first = 0
  /// Number inputs: comparisons stay above the first answer (the minimum).
  var isInput = false
  /// A toggle's default (its first answer is the other value).
  var toggleDefault = false

  /// Whether conditions compare it (free text and emails are not branched on).
  var isComparable: Bool { kind != .email && kind != .text }
}

/// How far ahead rules and buttons jump: to the screen after next, up to this many screens on.
private let jumpReach = 4
/// Rules compare the screen's own fields and at most this many of the latest safe ones (so a
/// field matters to conditions only for a few screens, which keeps `paths` tractable).
private let recentFields = 4

private struct State {
  let options: FlowGenerator.Options
  var rng: SplitMix64
  var out: [UInt8] = []
  var fieldCounter = 0
  var experimentIDs: [(id: String, variants: [String])] = []

  // Per flow, in screen order (every edge goes forward, so when a screen is written every way
  // into it is known):
  /// Fields collected on every path to the current screen: their screens cannot be jumped over.
  var safeFields: [Field] = []
  /// Every field collected so far, on some path (templates read these with `| default:`).
  var allFields: [Field] = []
  /// The furthest screen index a rule, button or `next` written so far jumps to: screens
  /// before it (after the jump's origin) can be skipped.
  var jumpFrontier = 0
  /// Screens a rule or button on the main path jumps to when one answer differs from the
  /// first (or a button is tapped): they have a way in besides their predecessor.
  var jumpTargets = Set<Int>()
  /// Screens a `next` moves off the main path (reached by such a jump instead).
  var offMainPath = Set<Int>()
  /// Fields rules already compare: each is compared by one screen's rules only, so whether a
  /// screen's rules hold does not depend on the way it was reached.
  var readByRules = Set<String>()

  init(options: FlowGenerator.Options) {
    self.options = options
    rng = SplitMix64(seed: options.seed)
    out.reserveCapacity(min(options.targetBytes ?? 0, 1 << 30) + 4096)
  }

  // MARK: Document

  mutating func document() -> [UInt8] {
    experimentIDs = (0..<max(0, options.experiments)).map { k in
      let variants = ["control", "v\(k + 1)a"] + (k % 2 == 1 ? ["v\(k + 1)b"] : [])
      return ("exp_\(k + 1)", variants)
    }
    let subflowIDs = (0..<max(0, options.subflows)).map { "sub_\($0 + 1)" }
    if options.isBundle {
      out.append(contentsOf: "{\n  \"version\": 1,\n  \"id\": \"generated\",\n  \"activeFlow\": \"main\",\n".utf8)
      if !experimentIDs.isEmpty {
        out.append(contentsOf: "  \"experiments\": ".utf8)
        experimentsJSON(flows: subflowIDs).write(to: &out, indent: 2, inlineDepth: 3)
        out.append(contentsOf: ",\n".utf8)
      }
      out.append(contentsOf: "  \"flows\": {\n".utf8)
      // Sub-flows first and the entry flow last, so padding can go at the very end.
      for (k, id) in subflowIDs.enumerated() {
        out.append(contentsOf: "    ".utf8)
        JSONText.writeString(id, to: &out)
        out.append(contentsOf: ": ".utf8)
        let runs = k + 1 < subflowIDs.count && k % 2 == 0 ? [subflowIDs[k + 1]] : []
        flow(
          id: id, name: "Sub-flow \(k + 1)", screens: max(1, options.subflowScreens), subflows: runs, indent: 4,
          pad: false, tail: 0)
        out.append(contentsOf: ",\n".utf8)
      }
      out.append(contentsOf: "    \"main\": ".utf8)
      flow(
        id: "main", name: "Generated onboarding", screens: max(1, options.screens), subflows: subflowIDs, indent: 4,
        pad: true, tail: 8)
      out.append(contentsOf: "\n  }\n}\n".utf8)
    } else {
      flow(
        id: "main", name: "Generated onboarding", screens: max(1, options.screens), subflows: [], indent: 0, pad: true,
        tail: 2, experiments: true)
      out.append(0x0A)
    }
    return out
  }

  func experimentsJSON(flows: [String]) -> JSONText {
    .array(
      experimentIDs.enumerated().map { k, experiment in
        let variants: [JSONText] = experiment.variants.enumerated().map { v, id in
          var members: [(String, JSONText)] = [
            ("id", .string(id)), ("weight", .int(v == 0 ? 50 : 50 / (experiment.variants.count - 1))),
          ]
          if v == 1, !flows.isEmpty { members.append(("flow", .string(flows[k % flows.count]))) }
          return .object(members)
        }
        return .object([
          ("id", .string(experiment.id)), ("salt", .string("2026q\(k % 4 + 1)")),
          ("name", .string("Experiment \(k + 1)")), ("variants", .array(variants)),
        ])
      })
  }

  /// Writes one flow object at `indent`; the entry flow is padded to the target size, leaving
  /// room for `tail` closing bytes.
  mutating func flow(
    id: String, name: String, screens count: Int, subflows: [String], indent: Int, pad: Bool,
    tail: Int, experiments: Bool = false
  ) {
    let inner = String(repeating: " ", count: indent + 2)
    out.append(
      contentsOf: "{\n\(inner)\"version\": 1,\n\(inner)\"id\": \"\(id)\",\n\(inner)\"name\": \"\(name)\",\n".utf8)
    out.append(
      contentsOf: "\(inner)\"settings\": { \"allowBack\": true, \"showProgress\": true, \"dismissAllowed\": true },\n"
        .utf8)
    out.append(
      contentsOf: "\(inner)\"progressIndicator\": { \"enabled\": true, \"variant\": \"bar\", \"position\": \"top\" },\n"
        .utf8)
    if experiments && !experimentIDs.isEmpty {
      out.append(contentsOf: "\(inner)\"experiments\": ".utf8)
      experimentsJSON(flows: []).write(to: &out, indent: indent + 2, inlineDepth: 3)
      out.append(contentsOf: ",\n".utf8)
    }
    out.append(contentsOf: "\(inner)\"screens\": [".utf8)
    let screenIndent = indent + 4
    let prefix = "\n" + String(repeating: " ", count: screenIndent)
    // Where the `flow` screens go: spread evenly, never first.
    var subflowAt: [Int: String] = [:]
    for (k, sub) in subflows.enumerated() {
      subflowAt[min(count - 1, (k + 1) * count / (subflows.count + 1))] = sub
    }
    let ids = (0..<count).map { "\(id)_s\($0 + 1)" }
    safeFields = []
    allFields = []
    jumpFrontier = 0
    jumpTargets = []
    offMainPath = []
    readByRules = []
    for i in 0..<count {
      if i > 0 { out.append(0x2C) }
      out.append(contentsOf: prefix.utf8)
      let screenJSON: JSONText
      if let sub = subflowAt[i], i > 0 {
        screenJSON = flowScreen(ids: ids, index: i, subflow: sub)
      } else {
        screenJSON = screen(ids: ids, index: i)
      }
      screenJSON.write(to: &out, indent: screenIndent, inlineDepth: 3)
    }
    if pad, let target = options.targetBytes {
      var n = count
      let closing = indent + 4 + tail
      while out.count + closing < target {
        out.append(0x2C)
        out.append(contentsOf: prefix.utf8)
        paddingScreen(flowID: id, index: n).write(to: &out, indent: screenIndent, inlineDepth: 3)
        n += 1
      }
    }
    out.append(contentsOf: "\n\(inner)]\n\(String(repeating: " ", count: indent))}".utf8)
  }

  // MARK: Screens

  static let screenTypes = ["question", "form", "feature", "question", "value_prop", "permission", "question"]

  mutating func screen(ids: [String], index: Int) -> JSONText {
    let id = ids[index]
    let isLast = index == ids.count - 1
    // An earlier rule, button or `next` jumps past this screen: its fields are not collected
    // on every path to the screens after it.
    let skippable = jumpFrontier > index
    var members: [(String, JSONText)] = [("id", .string(id))]
    if index == 0 {
      members += [("name", .string("Welcome")), ("type", .string("welcome")), ("order", .int(index))]
    } else if isLast {
      members += [("name", .string("All set")), ("type", .string("celebration")), ("order", .int(index))]
    } else {
      members += [
        ("name", .string(Words.title(&rng))), ("type", .string(rng.pick(Self.screenTypes))),
        ("order", .int(index)),
      ]
    }
    var newFieldCount = 0
    // A few screens use the legacy (block-less) content.
    if index > 0 && !isLast && rng.below(10) == 0 {
      members.append(("content", legacyContent()))
    } else {
      var blocks: [JSONText] = []
      let prefix = "\(id)_b"
      blocks.append(
        textBlock(id: "\(prefix)1", order: 0, text: index == 0 ? "Welcome aboard" : Words.question(&rng), variant: "h2")
      )
      let contentBlocks = index == 0 || isLast ? 1 : rng.int(1...4)
      var newFields: [Field] = []
      for k in 0..<contentBlocks {
        let blockID = "\(prefix)\(k + 2)"
        blocks.append(contentBlock(id: blockID, order: k + 1, ids: ids, index: index, newFields: &newFields))
      }
      blocks.append(
        .object([
          ("id", .string("\(prefix)\(contentBlocks + 2)")), ("type", .string("button")),
          ("order", .int(contentBlocks + 1)),
          ("content", .object([("text", .string(isLast ? "Finish" : "Continue")), ("variant", .string("primary"))])),
        ]))
      allFields += newFields
      newFieldCount = newFields.count
      if !skippable { safeFields += newFields }
      var content: [(String, JSONText)] = [("useBlocks", .bool(true))]
      if !isLast && index > 0 && rng.below(8) == 0 {
        content.append(("skipText", .string("Not now")))
      }
      content.append(("blocks", .array(blocks)))
      members.append(("content", .object(content)))
    }
    // Rules read the screen's own fields (collected here whatever path led here) and the
    // latest fields collected on every path.
    let own = allFields.suffix(from: allFields.count - newFieldCount)
    if !isLast && index > 0 && rng.chance(options.ruleDensity) && options.branching > 0,
      let rules = rules(ids: ids, index: index, candidates: Array(own) + recentSafe(excluding: own.map(\.name)))
    {
      members.append(("rules", rules))
    } else if !isLast && index + 2 < ids.count && jumpTargets.contains(index + 1) && rng.below(3) == 0 {
      // The next screen has another way in (an earlier rule or button jumps to it): this one
      // can skip it, the way a product team moves an optional screen off the main path.
      members.append(("next", .string(ids[index + 2])))
      jump(to: index + 2, reliable: false)
      offMainPath.insert(index + 1)
    }
    return .object(members)
  }

  /// Fields a condition may compare: the latest collected on every path, not `excluding`.
  func recentSafe(excluding: [String]) -> [Field] {
    safeFields.suffix(recentFields).filter { !excluding.contains($0.name) }
  }

  /// Records a forward jump to screen `target`; `reliable` when it is taken from the main
  /// path by changing one answer (or tapping a button).
  mutating func jump(to target: Int, reliable: Bool) {
    jumpFrontier = max(jumpFrontier, target)
    if reliable { jumpTargets.insert(target) }
  }

  /// A screen a rule or button on screen `index` jumps to: the one after next, up to
  /// `jumpReach` ahead. `oneAnswer`: the jump is taken by changing one answer from the first.
  mutating func jumpTarget(from index: Int, count: Int, oneAnswer: Bool = true) -> Int {
    let hi = min(index + jumpReach, count - 1)
    let target = index + 2 <= hi ? rng.int(index + 2...hi) : min(index + 1, count - 1)
    jump(to: target, reliable: oneAnswer && !offMainPath.contains(index))
    return target
  }

  /// A screen of type `flow` that runs a sub-flow; rules may branch after it.
  mutating func flowScreen(ids: [String], index: Int, subflow: String) -> JSONText {
    var members: [(String, JSONText)] = [
      ("id", .string(ids[index])), ("name", .string("Run \(subflow)")), ("type", .string("flow")),
      ("order", .int(index)), ("flow", .string(subflow)), ("content", .object([])),
    ]
    if index < ids.count - 1 && rng.chance(options.ruleDensity) && options.branching > 0,
      let rules = rules(ids: ids, index: index, candidates: recentSafe(excluding: []))
    {
      members.append(("rules", rules))
    }
    return .object(members)
  }

  mutating func legacyContent() -> JSONText {
    .object([
      ("title", .string(Words.title(&rng))),
      ("subtitle", .string(template())),
      ("icon", .string(rng.pick(Words.icons))),
      ("buttonText", .string("Continue")),
    ])
  }

  /// Informational screens used to reach the target size: long paragraphs, feature cards,
  /// rich text and images, with a template now and then.
  mutating func paddingScreen(flowID: String, index: Int) -> JSONText {
    let id = "\(flowID)_info\(index + 1)"
    var blocks: [JSONText] = []
    let count = rng.int(6...14)
    for k in 0..<count {
      let blockID = "\(id)_b\(k + 1)"
      switch rng.below(5) {
      case 0:
        blocks.append(
          .object([
            ("id", .string(blockID)), ("type", .string("feature-card")), ("order", .int(k)),
            (
              "content",
              .object([
                ("headline", .string(Words.title(&rng))), ("body", .string(Words.paragraph(&rng, sentences: 2))),
              ])
            ),
          ]))
      case 1:
        let spans: [JSONText] = (0..<rng.int(2...4)).map { s in
          .object([("text", .string(Words.sentence(&rng) + " ")), ("bold", .bool(s % 2 == 1))])
        }
        blocks.append(
          .object([
            ("id", .string(blockID)), ("type", .string("text")), ("order", .int(k)),
            ("content", .object([("variant", .string("body")), ("richText", .array(spans))])),
          ]))
      case 2:
        blocks.append(
          .object([
            ("id", .string(blockID)), ("type", .string("image")), ("order", .int(k)),
            (
              "content",
              .object([
                ("src", .string("https://cdn.example.com/img/\(id)/\(k).png")), ("alt", .string(Words.sentence(&rng))),
              ])
            ),
          ]))
      default:
        let text =
          !allFields.isEmpty && templated(oneIn: 4) ? template() : Words.paragraph(&rng, sentences: rng.int(2...6))
        blocks.append(textBlock(id: blockID, order: k, text: text, variant: "body"))
      }
    }
    blocks.append(
      .object([
        ("id", .string("\(id)_b\(count + 1)")), ("type", .string("button")), ("order", .int(count)),
        ("content", .object([("text", .string("Continue"))])),
      ]))
    return .object([
      ("id", .string(id)), ("name", .string(Words.title(&rng))), ("type", .string("feature")),
      ("order", .int(index)), ("content", .object([("useBlocks", .bool(true)), ("blocks", .array(blocks))])),
    ])
  }

  // MARK: Blocks

  func textBlock(id: String, order: Int, text: String, variant: String) -> JSONText {
    .object([
      ("id", .string(id)), ("type", .string("text")), ("order", .int(order)),
      ("content", .object([("text", .string(text)), ("variant", .string(variant))])),
    ])
  }

  mutating func newFieldName(_ stem: String) -> String {
    fieldCounter += 1
    return "\(stem)_\(fieldCounter)"
  }

  mutating func contentBlock(
    id: String, order: Int, ids: [String], index: Int, newFields: inout [Field]
  ) -> JSONText {
    let mix = options.mix
    var roll = mix.total > 0 ? rng.below(mix.total) : 4 * 1000  // no weights: text only
    var kind = 4
    for (k, weight) in [mix.inputs, mix.checklists, mix.sliders, mix.toggles, mix.texts, mix.buttons].enumerated() {
      if roll < weight {
        kind = k
        break
      }
      roll -= weight
    }
    var members: [(String, JSONText)] = [("id", .string(id))]
    var content: [(String, JSONText)] = []
    // Texts, and buttons that do not jump, may be shown only when an earlier answer says so.
    var hidable = kind == 4
    switch kind {
    case 0:
      let (stem, inputType) = rng.pick(Words.inputs)
      let name = newFieldName(stem)
      members.append(("type", .string("input")))
      content = [
        ("fieldName", .string(name)), ("label", .string(Words.title(&rng))),
        ("placeholder", .string("e.g. \(Words.word(&rng))")), ("inputType", .string(inputType)),
        ("required", .bool(rng.below(2) == 0)),
      ]
      switch inputType {
      case "number":
        content += [("min", .int(0)), ("max", .int(120))]
        newFields.append(Field(name: name, kind: .number, range: 0...120, first: 0, isInput: true))
      case "email":
        content += [("pattern", .string("[^@ ]+@[^@ ]+\\.[a-z]+")), ("patternMessage", .string("Enter a valid email"))]
        newFields.append(Field(name: name, kind: .email))
      default:
        content += [("minLength", .int(1)), ("maxLength", .int(40))]
        newFields.append(Field(name: name, kind: .text))
      }
    case 1:
      let (stem, options) = rng.pick(Words.choices)
      let name = newFieldName(stem)
      let multiple = rng.below(3) == 0
      members.append(
        ("type", .string(rng.below(4) == 0 ? (multiple ? "goal-selector" : "quiz-question") : "checklist")))
      let items: [JSONText] = options.map { option in
        .object([("id", .string(option)), ("label", .string(option.capitalizedWord))])
      }
      content = [
        ("fieldName", .string(name)), ("allowMultiple", .bool(multiple)), ("required", .bool(true)),
        ("items", .array(items)),
      ]
      if multiple {
        content += [("minSelections", .int(1)), ("maxSelections", .int(options.count))]
      } else {
        // Picking an item must not leave the screen before its other fields are filled: the
        // screen's Continue button moves on.
        content.append(("autoAdvance", .bool(false)))
      }
      newFields.append(Field(name: name, kind: multiple ? .multiChoice : .choice, values: options))
    case 2:
      let (stem, lo, hi, step) = rng.pick(Words.sliders)
      let name = newFieldName(stem)
      members.append(("type", .string("slider")))
      content = [
        ("fieldName", .string(name)), ("label", .string(Words.title(&rng))), ("min", .int(lo)),
        ("max", .int(hi)), ("step", .int(step)), ("defaultValue", .int(lo + (hi - lo) / step / 2 * step)),
        ("valueSuffix", .string(" \(Words.word(&rng))")),
      ]
      newFields.append(
        Field(name: name, kind: .number, range: lo...hi, step: step, first: lo + (hi - lo) / step / 2 * step))
    case 3:
      let name = newFieldName(rng.pick(["notify", "newsletter", "share_data", "reminders", "dark_mode"]))
      members.append(("type", .string("toggle")))
      let on = rng.below(2) == 0
      content = [("fieldName", .string(name)), ("label", .string(Words.sentence(&rng))), ("defaultValue", .bool(on))]
      newFields.append(Field(name: name, kind: .bool, toggleDefault: on))
    case 5:
      members.append(("type", .string("button")))
      let (action, jumps) = action(ids: ids, index: index)
      content = [("text", .string(Words.title(&rng))), ("variant", .string("secondary")), ("action", action)]
      hidable = !jumps
    default:
      members.append(("type", .string("text")))
      let text =
        !allFields.isEmpty && templated(oneIn: 2) ? template() : Words.paragraph(&rng, sentences: rng.int(1...3))
      content = [("text", .string(text)), ("variant", .string(rng.pick(["body", "caption", "label"])))]
    }
    members += [("order", .int(order)), ("content", .object(content))]
    // A text or a secondary button shown only when an earlier answer says so (a missing value
    // hides it). Collecting blocks are always shown, so their fields are collected on every
    // path through their screen; so are buttons that jump (a jump target may have no other way
    // in, and the answer showing the button may be one that branches elsewhere first).
    if hidable, let field = allFields.last(where: \.isComparable), rng.below(12) == 0 {
      members.append(("visibleWhen", .string(expression(field))))
    }
    return .object(members)
  }

  /// A secondary button's action: forward jumps, custom actions, links; with whether it jumps.
  mutating func action(ids: [String], index: Int) -> (JSONText, Bool) {
    switch rng.below(4) {
    case 0 where index + 1 < ids.count:
      return (
        .object([("type", .string("screen")), ("screenId", .string(ids[jumpTarget(from: index, count: ids.count)]))]),
        true
      )
    case 1:
      return (
        .object([
          ("type", .string("custom")), ("identifier", .string(rng.pick(Words.customActions))),
          ("awaitResult", .bool(true)), ("onSuccess", .object([("type", .string("next"))])),
          ("onCancel", .object([("type", .string("skip"))])),
        ]), false
      )
    case 2:
      return (
        .object([("type", .string("openUrl")), ("url", .string("https://example.com/\(Words.word(&rng))"))]), false
      )
    default:
      return (.object([("type", .string("skip"))]), false)
    }
  }

  // MARK: Rules, conditions, templates

  /// Conditional rules jumping a few screens ahead (or completing), each reading fields no
  /// other rule of the screen reads, and sometimes a catch-all to the next screen, last. Nil
  /// when there is nothing to branch on.
  mutating func rules(ids: [String], index: Int, candidates: [Field]) -> JSONText? {
    var pool = candidates.filter { $0.isComparable && !readByRules.contains($0.name) }
    defer {
      for field in candidates where !pool.contains(where: { $0.name == field.name }) { readByRules.insert(field.name) }
    }
    var variantUsed = false
    var list: [JSONText] = []
    for k in 0..<options.branching {
      if k == options.branching - 1 && !list.isEmpty && rng.below(2) == 0 {
        list.append(.object([("goto", .string(ids[index + 1]))]))
        break
      }
      guard let (condition, oneAnswer) = condition(pool: &pool, variantUsed: &variantUsed) else { break }
      let target =
        rng.below(12) == 0 ? "$complete" : ids[jumpTarget(from: index, count: ids.count, oneAnswer: oneAnswer)]
      list.append(.object([("when", condition), ("goto", .string(target))]))
    }
    return list.isEmpty ? nil : .array(list)
  }

  /// An expression string or a structured condition over fields taken from `pool` (so the
  /// next rule reads others), false for their first answers; now and then (once per screen)
  /// narrowed to one variant of an experiment. Nil when there is nothing left to read; with
  /// whether changing one answer makes it hold (not for `a && b`).
  mutating func condition(pool: inout [Field], variantUsed: inout Bool) -> (JSONText, Bool)? {
    guard !pool.isEmpty else { return nil }
    if !experimentIDs.isEmpty && !variantUsed && rng.below(5) == 0 {
      variantUsed = true
      let experiment = experimentIDs[rng.below(experimentIDs.count)]
      let field = pool.remove(at: rng.below(pool.count))
      return (.string("$variant.\(experiment.id) == '\(rng.pick(experiment.variants))' && \(expression(field))"), true)
    }
    let field = pool.remove(at: rng.below(pool.count))
    switch rng.below(4) {
    case 0:
      return (structured(field), true)
    case 1 where !pool.isEmpty:
      let other = pool.remove(at: rng.below(pool.count))
      return (.object([("any", .array([structured(field), .string(expression(other))]))]), true)
    default:
      let text = expression(field)
      if !pool.isEmpty && rng.below(3) == 0 {
        let other = pool.remove(at: rng.below(pool.count))
        let both = rng.below(2) == 0
        return (.string("\(text) \(both ? "&&" : "||") \(expression(other))"), !both)
      }
      return (.string(text), true)
    }
  }

  /// A comparison of a number field with a value it can take strictly inside its range, on
  /// its step, that is false for the field's first answer (and true for another).
  mutating func numberComparison(_ field: Field) -> (op: String, value: Int) {
    let step = max(1, field.step)
    let steps = (field.range.upperBound - field.range.lowerBound) / step
    let first = (field.first - field.range.lowerBound) / step
    // Interior step indices k (1..<steps) that make `field OP lo + k * step` false at `first`.
    let ops: [(String, ClosedRange<Int>?)] = [
      (">", Self.range(max(1, first), steps - 1)), (">=", Self.range(first + 1, steps - 1)),
      ("<", Self.range(1, min(first, steps - 1))), ("<=", Self.range(1, first - 1)),
      ("==", Self.range(1, steps - 1)),
    ]
    let usable = ops.filter { $0.1 != nil && !(field.isInput && $0.0.hasPrefix("<")) }
    guard !usable.isEmpty else { return (">=", field.range.upperBound) }
    let (op, indices) = rng.pick(usable)
    var k = rng.int(indices!)
    if op == "==" && k == first { k = k < steps - 1 ? k + 1 : k - 1 }
    return (op, field.range.lowerBound + k * step)
  }

  static func range(_ lo: Int, _ hi: Int) -> ClosedRange<Int>? { lo <= hi ? lo...hi : nil }

  /// An item other than the first answer.
  mutating func laterItem(_ field: Field) -> String {
    field.values.count > 1 ? field.values[rng.int(1...field.values.count - 1)] : field.values[0]
  }

  mutating func expression(_ field: Field) -> String {
    switch field.kind {
    case .number:
      let (op, value) = numberComparison(field)
      return "\(field.name) \(op) \(value)"
    case .choice:
      if rng.below(3) == 0 && field.values.count > 3 {
        let k = rng.int(1...field.values.count - 2)
        return "\(field.name) in ['\(field.values[k])', '\(field.values[k + 1])']"
      }
      return "\(field.name) == '\(laterItem(field))'"
    case .multiChoice:
      return "\(field.name) contains '\(laterItem(field))'"
    case .bool:
      // True when left at its default; the first answer flips it.
      return field.toggleDefault ? field.name : "!\(field.name)"
    case .text, .email:  // not used in conditions (see `isComparable`)
      return "\(field.name) != ''"
    }
  }

  mutating func structured(_ field: Field) -> JSONText {
    switch field.kind {
    case .number:
      let (op, value) = numberComparison(field)
      let name = [">": "gt", ">=": "gte", "<": "lt", "<=": "lte", "==": "equals"][op]!
      return .object([("field", .string(field.name)), ("op", .string(name)), ("value", .int(value))])
    case .choice, .multiChoice:
      return .object([("field", .string(field.name)), ("op", .string("equals")), ("value", .string(laterItem(field)))])
    case .bool:
      return .object([("field", .string(field.name)), ("op", .string("equals")), ("value", .bool(field.toggleDefault))])
    case .text, .email:
      return .object([("field", .string(field.name)), ("op", .string("not_empty"))])
    }
  }

  /// Whether the next text holds a template: `templateShare` of them, else one in `oneIn`.
  mutating func templated(oneIn: Int) -> Bool {
    if let share = options.templateShare { return rng.chance(share) }
    return rng.below(oneIn) == 0
  }

  /// Template text with the filters of flow-format §6: over a field collected on every path
  /// to here, or (now and then, and when there is none) over any earlier field with a
  /// `default` for the paths that skip it.
  mutating func template() -> String {
    guard !allFields.isEmpty else { return Words.sentence(&rng) }
    let interpolation: String
    if safeFields.isEmpty || rng.below(4) == 0 {
      let field = allFields[rng.below(allFields.count)]
      let fallback: String
      switch field.kind {
      case .text, .email: fallback = "friend"
      case .number: fallback = "a few"
      case .choice, .multiChoice: fallback = "your pick"
      case .bool: fallback = "not yet"
      }
      interpolation = "{\(field.name) | default: '\(fallback)'}"
    } else {
      let field = safeFields[rng.below(safeFields.count)]
      switch field.kind {
      case .number:
        interpolation = rng.pick([
          "{\(field.name) * 365 | number}", "{round(\(field.name) / 7, 1)}", "{\(field.name) * 12 / 365 | round: 2}",
          "{max(\(field.name), 1)}",
        ])
      case .text, .email, .choice:
        interpolation = rng.pick([
          "{\(field.name) | default: 'friend'}", "{\(field.name) | capitalize}", "{upper(\(field.name))}",
        ])
      case .multiChoice:
        interpolation = rng.pick(["{\(field.name) | join: ', '}", "{len(\(field.name))}"])
      case .bool:
        interpolation = "{\(field.name)}"
      }
    }
    return "\(Words.sentence(&rng, end: "")) \(interpolation) \(Words.sentence(&rng))"
  }
}

extension String {
  fileprivate var capitalizedWord: String {
    guard let first else { return self }
    return first.uppercased() + dropFirst().replacing("_", with: " ")
  }
}
