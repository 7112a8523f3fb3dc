/// Large but honest documents, each the shape on which one command used to do quadratic work
/// (#23, row 22): the benchmarks measure every command on them against `check`.
///
/// Deterministic (no randomness) and sized by a target byte count. `checklists` and
/// `many-flows` load clean; `misspelt` has a load error per screen (its references and reads
/// are misspelt on purpose) and `lint-chain` a warning per screen.
public enum LargeShape: String, CaseIterable, Sendable {
  /// Screens of multi-select checklists with 90 options each, then rules that test membership
  /// and counts of every checklist (`paths`: each option and pair used to be tried).
  case checklists
  /// Screens whose `next` names a misspelt screen id, each with a misspelt key ("did you mean"
  /// on every command used to scan every id per reference).
  case misspelt
  /// A bundle whose entry flow runs hundreds of four-screen sub-flows (`graph`, `render`).
  case manyFlows = "many-flows"
  /// A chain whose first screen may skip the one screen that collects the field every other
  /// screen reads (`check` used to name each whole path: quadratic notes).
  case lintChain = "lint-chain"
  /// A chain of screens, each a templated text, an input and a button: the piped `run` walk of
  /// #17 item 4 (an answer and a tap per screen). About 400 bytes a screen.
  case manyScreens = "many-screens"

  /// The document, about `targetBytes` long (at least one unit of the shape).
  public func generate(targetBytes: Int) -> [UInt8] {
    let document: JSONText
    switch self {
    case .checklists: document = Self.checklists(max(1, targetBytes / 4_000))
    case .misspelt: document = Self.misspelt(max(2, targetBytes / 310))
    case .manyFlows: document = Self.manyFlows(max(1, targetBytes / 1_255))
    case .lintChain: document = Self.lintChain(max(3, targetBytes / 350))
    case .manyScreens: document = Self.manyScreens(max(1, targetBytes / 400))
    }
    var out: [UInt8] = []
    out.reserveCapacity(targetBytes + 4_096)
    document.write(to: &out, inlineDepth: 3)
    out.append(0x0A)
    return out
  }

  static func flow(_ id: String, _ screens: [JSONText]) -> JSONText {
    .object([("version", .int(1)), ("id", .string(id)), ("name", .string(id)), ("screens", .array(screens))])
  }

  static func screen(
    _ id: String, type: String = "question", extra: [(String, JSONText)] = [], _ blocks: [JSONText]
  ) -> JSONText {
    .object(
      [("id", .string(id)), ("name", .string("Screen \(id)")), ("type", .string(type))] + extra + [
        ("content", .object([("useBlocks", .bool(true)), ("blocks", .array(blocks))]))
      ])
  }

  static func block(_ id: String, _ type: String, _ content: [(String, JSONText)]) -> JSONText {
    .object([("id", .string(id)), ("type", .string(type)), ("content", .object(content))])
  }

  static func text(_ id: String, _ text: String) -> JSONText { block(id, "text", [("text", .string(text))]) }

  static func button(_ id: String) -> JSONText { block(id, "button", [("text", .string("Continue"))]) }

  static func checklists(_ count: Int) -> JSONText {
    var screens: [JSONText] = []
    var rules: [JSONText] = []
    for c in 0..<count {
      let items: [JSONText] = (0..<90).map { .object([("id", .string("o\($0)")), ("label", .string("Option \($0)"))]) }
      screens.append(
        screen(
          "pick\(c)",
          [
            text("pick\(c)_title", "Pick what applies (\(c + 1) of \(count))"),
            block(
              "pick\(c)_list", "checklist",
              [("fieldName", .string("f\(c)")), ("allowMultiple", .bool(true)), ("items", .array(items))]),
            button("pick\(c)_go"),
          ]))
      rules.append(
        .object([("when", .string("f\(c) contains 'o\(c % 90)' && len(f\(c)) > 1")), ("goto", .string("special"))]))
    }
    rules.append(.object([("goto", .string("done"))]))
    screens.append(
      screen(
        "summary", type: "feature", extra: [("rules", .array(rules))],
        [text("summary_text", "Thanks"), button("summary_go")]))
    screens.append(
      screen(
        "special", type: "feature", extra: [("next", .string("done"))],
        [text("special_text", "Special"), button("special_go")]))
    screens.append(screen("done", type: "celebration", [text("done_text", "Done"), button("done_go")]))
    return flow("checklists", screens)
  }

  static func misspelt(_ count: Int) -> JSONText {
    func digits(_ i: Int) -> String { String(repeating: "0", count: max(0, 5 - String(i).count)) + String(i) }
    let screens: [JSONText] = (0..<count).map { i in
      screen(
        "onboarding_step_" + digits(i),
        extra: [("next", .string("onboardng_step_" + digits((i + 1) % count))), ("hideBak", .bool(true))],
        [button("go\(i)")])
    }
    return flow("misspelt", screens)
  }

  static func manyFlows(_ count: Int) -> JSONText {
    var entry: [JSONText] = []
    var flows: [JSONText] = []
    for f in 0..<count {
      entry.append(
        .object([
          ("id", .string("run\(f)")), ("name", .string("Run \(f)")), ("type", .string("flow")),
          ("flow", .string("sub\(f)")),
          ("content", .object([])),
        ]))
      let screens: [JSONText] = (0..<4).map { s in
        screen("s\(f)_\(s)", type: "feature", [text("t\(f)_\(s)", "Sub-flow \(f), screen \(s)"), button("b\(f)_\(s)")])
      }
      flows.append(flow("sub\(f)", screens))
    }
    entry.append(screen("end", type: "celebration", [text("end_text", "All done"), button("end_go")]))
    return .object([
      ("version", .int(1)), ("id", .string("many-flows")), ("name", .string("Many flows")),
      ("activeFlow", .string("main")),
      ("flows", .array([flow("main", entry)] + flows)),
    ])
  }

  static func lintChain(_ count: Int) -> JSONText {
    let screens: [JSONText] = (0..<count).map { i in
      var blocks = [text("t\(i)", "Step \(i): your answer was {answer}; a little more text to read on this screen.")]
      if i == 1 {
        blocks.append(block("answer_in", "input", [("fieldName", .string("answer")), ("label", .string("Answer"))]))
      }
      blocks.append(button("b\(i)"))
      let rules: [(String, JSONText)] =
        i == 0
        ? [
          (
            "rules",
            .array([
              .object([("when", .string("$user.id == 'skip'")), ("goto", .string("s2"))]),
              .object([("goto", .string("s1"))]),
            ])
          )
        ]
        : []
      return screen("s\(i)", extra: rules, blocks)
    }
    return flow("lint-chain", screens)
  }

  static func manyScreens(_ count: Int) -> JSONText {
    let screens: [JSONText] = (0..<count).map { i in
      screen(
        "s\(i)", type: "feature",
        [
          text("t", "Step \(i) of \(count), {name | default: 'friend'}"),
          block("in", "input", [("fieldName", .string(i == 0 ? "name" : "f\(i)")), ("label", .string("Field \(i)"))]),
          block("go", "button", [("text", .string("Next"))]),
        ])
    }
    return flow("many-screens", screens)
  }
}
